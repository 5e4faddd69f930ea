@testable import ContractKit
import Foundation
import Platform
import VietMapWire
import XCTest

/// What a worker call hands back: the input, or a fact about the worker, as a "decode error".
struct WorkerProbe: Decodable {}

/// Reports facts from inside the worker through the decode error's message.
struct WorkerFact: Error, CustomStringConvertible {
    let description: String
}

/// App code for the worker tests: echo, open descriptors, process id, trap, hang — chosen by the input.
enum WorkerProbeApp: AppContractProvider {
    static let contract = AppContract(autocomplete: ContractModel.model(WorkerProbe.self, decode: { data in
        let input = String(decoding: data, as: UTF8.self)
        switch input {
        case "descriptors":
            throw WorkerFact(description: (0..<Int32(4096)).filter { fcntl($0, F_GETFD) != -1 }.map(String.init).joined(separator: ","))
        case "pid":
            throw WorkerFact(description: String(getpid()))
        case "trap":
            let values: [Int] = []
            _ = values[1]
        case "hang":
            while true { sleep(1) }
        default:
            throw WorkerFact(description: "echo \(input)")
        }
        return WorkerProbe()
    }, decoderName: "probe"), polyline: AppPolylineDecoder(named: "probePolyline", { (encoded: String) -> [(Double, Double)] in
        if encoded == "trap" { fatalError("probe polyline trapped") }
        return [(Double(encoded.count), 1)]
    }, coordinate: { $0 }))
}

/// Contract workers: copies of this test process started with posix_spawn (no fork), found
/// through the provider type, each reused until the app's code traps in it.
final class ContractWorkerTests: XCTestCase {
    private var model: ContractModel { WorkerProbeApp.contract.models[.autocomplete]! }

    private func worker() -> AppCodeRunner {
        AppCodeRunner(isolation: .worker, provider: _mangledTypeName(WorkerProbeApp.self))
    }

    private func message(_ verdict: DecodeVerdict) -> String? { Self.message(verdict) }

    private static func message(_ verdict: DecodeVerdict) -> String? {
        if case .threw(let message, _) = verdict { return message }
        return nil
    }

    func testAWorkerIsAnotherProcessHoldingOnlyItsOwnDescriptors() throws {
        let runner = worker()
        defer { runner.shutDown() }
        let socketFD = Sockets.makeStream(family: AF_INET)
        XCTAssertGreaterThan(socketFD, 4)
        defer { close(socketFD) }
        let pid = try XCTUnwrap(message(runner.decode(model, Data("pid".utf8), timeout: 30)))
        XCTAssertNotEqual(pid, String(getpid()))
        let open = try XCTUnwrap(message(runner.decode(model, Data("descriptors".utf8), timeout: 30)))
            .split(separator: ",").compactMap { Int32($0) }
        XCTAssertEqual(open, [0, 1, 2, 3, 4], "descriptors open in the worker")
        XCTAssertNotEqual(fcntl(socketFD, F_GETFD), -1, "the parent's descriptor is untouched")
        XCTAssertEqual(runner.description, "in contract workers (1 started)")
    }

    func testATrapIsACrashFindingAndTheNextCallGetsANewWorker() throws {
        let runner = worker()
        defer { runner.shutDown() }
        XCTAssertEqual(message(runner.decode(model, Data("one".utf8), timeout: 30)), "echo one")
        guard case .crashed(let signal, let text) = runner.decode(model, Data("trap".utf8), timeout: 30) else {
            return XCTFail("the trap was not reported as a crash")
        }
        XCTAssertTrue([SIGILL, SIGTRAP].contains(signal), Signals.name(signal))
        XCTAssertTrue(text.contains("Fatal error: Index out of range"), text)
        XCTAssertEqual(message(runner.decode(model, Data("two".utf8), timeout: 30)), "echo two")
        XCTAssertEqual(runner.description, "in contract workers (2 started)")
        // The polyline decoder of the provider's contract, trapping with its own message.
        let decoder = try XCTUnwrap(WorkerProbeApp.contract.polyline)
        XCTAssertEqual(runner.polyline(decoder, "abc", timeout: 30), .points([LatLng(lat: 3, lng: 1)]))
        guard case .crashed(_, let polylineText) = runner.polyline(decoder, "trap", timeout: 30) else { return XCTFail("no crash") }
        XCTAssertTrue(polylineText.contains("probe polyline trapped"), polylineText)
    }

    /// A hanging call is killed at its timeout; calls on other threads meanwhile each get their
    /// own worker and their own answer, none waiting for the hanging one.
    func testAHangingCallDoesNotHoldUpOverlappingCalls() {
        let runner = worker()
        defer { runner.shutDown() }
        let lock = NSLock()
        nonisolated(unsafe) var answers = [String?](repeating: nil, count: 24)
        nonisolated(unsafe) var hang: DecodeVerdict?
        let model = self.model
        DispatchQueue.concurrentPerform(iterations: answers.count + 1) { index in
            if index == answers.count {
                let verdict = runner.decode(model, Data("hang".utf8), timeout: 3)
                lock.withLock { hang = verdict }
                return
            }
            let verdict = runner.decode(model, Data("call \(index)".utf8), timeout: 30)
            lock.withLock { answers[index] = Self.message(verdict) }
        }
        XCTAssertEqual(hang, .hung(seconds: 3))
        for (index, answer) in answers.enumerated() {
            XCTAssertEqual(answer, "echo call \(index)")
        }
    }

    func testInProcessRunsHereAndWithholdsPolylinesThatCouldTrap() throws {
        let runner = AppCodeRunner(isolation: .inProcess, provider: _mangledTypeName(WorkerProbeApp.self))
        XCTAssertEqual(message(runner.decode(model, Data("pid".utf8), timeout: 30)), String(getpid()))
        let decoder = try XCTUnwrap(WorkerProbeApp.contract.polyline)
        XCTAssertEqual(runner.polyline(decoder, "_p~iF~ps|U", timeout: 30), .points([LatLng(lat: 10, lng: 1)]))
        guard case .notRun(let why) = runner.polyline(decoder, "_p~iF", timeout: 30) else { return XCTFail("a truncated polyline was run") }
        XCTAssertTrue(why.contains("in-process a trap would end the tests"), why)
        XCTAssertTrue(runner.description.hasPrefix("in-process, not isolated"))
    }

    func testTheEnvironmentChoosesTheIsolation() {
        XCTAssertEqual(AppCodeIsolation.automatic.resolved(environment: [:]), .worker)
        XCTAssertEqual(AppCodeIsolation.automatic.resolved(environment: ["VIETMAP_CONTRACT_ISOLATION": "in-process"]), .inProcess)
        XCTAssertEqual(AppCodeIsolation.automatic.resolved(environment: ["VIETMAP_CONTRACT_ISOLATION": "worker"]), .worker)
        XCTAssertEqual(AppCodeIsolation.inProcess.resolved(environment: ["VIETMAP_CONTRACT_ISOLATION": "worker"]), .inProcess)
    }
}
