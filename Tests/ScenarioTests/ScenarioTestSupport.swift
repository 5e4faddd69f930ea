import Dataset
import DefaultData
import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// The simulated API over the default dataset (built once per machine into the test cache),
/// shared by every test; the scenario engines and servers are per test.
enum TestSimulator {
    struct SetupError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    static let databasePath: Result<String, SetupError> = Result {
        try TestDataset.path()
    }.mapError { SetupError(description: "could not build the default dataset: \($0)") }

    private static let serviceResult: Result<VietMapService, SetupError> = databasePath.flatMap { path in
        Result { try VietMapService(databasePath: path) }.mapError { SetupError(description: "could not open the service: \($0)") }
    }

    static func service() throws -> VietMapService {
        try serviceResult.get()
    }

    /// The repository's `Scenarios/` folder.
    static let builtInDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static let builtIns = ScenarioLibrary.load(directory: builtInDirectory)

    /// A short route inside District 1.
    static let routeQuery = "point=10.7769,106.7008&point=10.7725,106.6980&vehicle=car"
}

extension XCTestCase {
    /// An engine over the built-in scenarios.
    func builtInEngine(_ configuration: ScenarioEngine.Configuration = .init()) -> ScenarioEngine {
        ScenarioEngine(library: TestSimulator.builtIns, configuration: configuration)
    }

    /// An engine over scenario documents given inline.
    func makeEngine(_ documents: String..., configuration: ScenarioEngine.Configuration = .init()) throws -> ScenarioEngine {
        let scenarios = try documents.map { try Scenario(json: Data($0.utf8)) }
        return ScenarioEngine(library: ScenarioLibrary(scenarios: scenarios), configuration: configuration)
    }

    /// Serves the simulated API behind `engine` on an ephemeral port until the test ends.
    func startServer(_ engine: ScenarioEngine, inner service: VietMapService? = nil, threads: Int = 2) throws -> HTTPServer {
        let service = try service ?? TestSimulator.service()
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: threads),
                                responder: engine.wrap(service))
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// One GET on a fresh connection.
    func get(_ server: HTTPServer, _ target: String) throws -> RawHTTPClient.Response {
        try fetch(server.port, target)
    }

    /// One request with any method (and an optional body and extra header lines) on a fresh connection.
    func request(_ server: HTTPServer, _ method: String, _ target: String, body: String = "",
                 headers: [String] = [], host: String = "127.0.0.1") throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: server.port)
        let extra = headers.map { $0 + "\r\n" }.joined()
        try client.write("\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n\(extra)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try client.readResponse()
    }

    /// A state-changing admin request as a script sends it (with `X-VietMap-Sim-Admin: 1`).
    func admin(_ server: HTTPServer, _ method: String, _ target: String, body: String = "") throws -> RawHTTPClient.Response {
        try request(server, method, target, body: body, headers: ["X-VietMap-Sim-Admin: 1"])
    }

    /// GET `target` with a delayed answer on a `clock`-driven engine: waits until the request
    /// reached `engine` and its answer is scheduled, checks that nothing is sent 1 ms before the
    /// delay the journal shows, then advances the last millisecond and reads the answer. The
    /// clock ends exactly `delay` later than it started.
    func getDelayed(_ server: HTTPServer, _ target: String, engine: ScenarioEngine, clock: ManualScenarioClock,
                    file: StaticString = #filePath, line: UInt = #line) throws -> (response: RawHTTPClient.Response, delay: Int) {
        let client = try RawHTTPClient(port: server.port)
        let pending = clock.pendingCount
        try client.get(target)
        XCTAssertTrue(clock.waitForPending(pending + 1), "the delayed answer was scheduled", file: file, line: line)
        let delay = try XCTUnwrap(engine.journal.entries().last?.delayMilliseconds, file: file, line: line)
        XCTAssertGreaterThan(delay, 0, file: file, line: line)
        clock.advance(byMilliseconds: delay - 1)
        XCTAssertFalse(client.hasReceivedSomething, "no answer 1 ms before the delay", file: file, line: line)
        clock.advance(byMilliseconds: 1)
        return (try client.readResponse(), delay)
    }

    /// The route answer, or a skip while `/api/route/v4` is not implemented (the inner answer is 404).
    func routeOrSkip(_ server: HTTPServer, _ target: String) throws -> RawHTTPClient.Response {
        let response = try get(server, target)
        if response.status == 404, (try? JSONParser.parse(response.body))?["code"] == "NOT_FOUND" {
            throw XCTSkip("/api/route/v4 is not implemented yet (the simulator answers 404)")
        }
        return response
    }

    /// Runs `body(i)` for i in 0..<count on `count` threads at once; returns the results in order.
    func parallel<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = LockedResults<T>(count: count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                results.set(index, Result { try body(index) }.mapError { ParallelFailure(description: "\($0)") })
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "parallel calls timed out")
        return try results.values()
    }
}

/// A failure inside a parallel call.
struct ParallelFailure: Error, CustomStringConvertible {
    let description: String
}

/// Results of parallel calls, filled from several threads.
/// `@unchecked Sendable`: `storage` is only touched under `lock`.
final class LockedResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<T, ParallelFailure>?]

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<T, ParallelFailure>) {
        lock.withLock { storage[index] = result }
    }

    func values() throws -> [T] {
        try lock.withLock { storage }.map { result in
            guard let result else { throw ParallelFailure(description: "a parallel call did not finish") }
            return try result.get()
        }
    }
}

/// One GET on a fresh connection (usable from any thread).
func fetch(_ port: UInt16, _ target: String) throws -> RawHTTPClient.Response {
    let client = try RawHTTPClient(port: port)
    try client.get(target)
    return try client.readResponse()
}

extension RawHTTPClient.Response {
    /// The body as text (for assertion messages).
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> JSONValue {
        try JSONParser.parse(body)
    }
}
