import Foundation
import JSON
import Scenarios
import SimTesting
import XCTest

/// `vietmap-sim scenarios …` and the scenario options of `serve`, run as a user would.
final class ScenariosCommandTests: XCTestCase {
    /// The built executable next to the test bundle (skips when it has not been built).
    private func binary() throws -> URL {
        guard let executable = CLIRunner.executable(besideBundleOf: Self.self) else {
            throw XCTSkip("the vietmap-sim executable has not been built")
        }
        return executable
    }

    private func run(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary(), arguments, in: TestSimulator.builtInDirectory.deletingLastPathComponent())
    }

    func testValidateTheBuiltInFolder() throws {
        let outcome = try run(["scenarios", "validate"])
        XCTAssertEqual(outcome.status, 0, outcome.stdout + outcome.stderr)
        // Without files: what serve loads there, the embedded built-ins overridden by ./Scenarios (the same files).
        let count = TestSimulator.builtIns.scenarios.count
        XCTAssertEqual(outcome.stdout, "OK: \(count) scenarios in \(2 * count) files (\(count) built-in, \(count) in Scenarios)\n")
    }

    func testValidateReportsEveryErrorWithFileAndPointer() throws {
        let directory = try temporaryScenarioDirectory()
        try write(#"{"name": "x", "description": "d", "rules": [{"when": {"nth": 0}}, {"fault": "boom"}]}"#, to: directory, as: "bad.json")
        try write(#"{"name": "y", "description": "d", "rules": [{}]}"#, to: directory, as: "good.json")
        let bad = directory.appendingPathComponent("bad.json").path
        let outcome = try run(["scenarios", "validate", bad, directory.appendingPathComponent("good.json").path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stdout.split(separator: "\n").map(String.init), [
            "\(bad): /rules/0/when/nth: must be an integer ≥ 1, found integer 0",
            "\(bad): /rules/1/fault: unknown fault 'boom'; expected empty, reset, malformed-json, or an object with truncate, contentLength or contentType",
            "FAILED: 2 errors in 1 of 2 files",
        ])
    }

    func testServeOptionErrors() throws {
        let unknown = try run(["serve", "--port", "0", "--scenario", "nope"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no scenario named 'nope'"), unknown.stderr)
        XCTAssertEqual(try run(["serve", "--scenario", "a", "--scenario", "b"]).status, 64)
        XCTAssertEqual(try run(["serve", "--seed", "x"]).status, 64)
        XCTAssertEqual(try run(["serve", "--scenarios", "/nonexistent-folder"]).status, 1)
        let help = try run(["serve", "--help"])
        for option in ["--scenarios", "--scenario", "--seed", "--admin", "--admin-token"] { XCTAssertTrue(help.stdout.contains(option), option) }
        XCTAssertEqual(try run(["serve", "--admin-token", "t"]).status, 64, "--admin-token needs --admin")
        XCTAssertEqual(try run(["serve", "--admin", "--admin-token", ""]).status, 64)
    }

    /// `serve --api-key team --admin --admin-token T` as started by a user: scenario keys need the
    /// real key, and the admin API needs the token and a non-simple request.
    func testServeWithAPIKeyHasNoScenarioBackDoor() throws {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["serve", "--port", "0", "--db", try TestSimulator.databasePath.get(), "--api-key", "team",
                             "--admin", "--admin-token", "T"]
        process.currentDirectoryURL = TestSimulator.builtInDirectory.deletingLastPathComponent()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        var line = ""
        while !line.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        let port = try XCTUnwrap(line.split(separator: "\n").first?.split(separator: ":").last.flatMap { Int($0) })
        func send(_ target: String, _ method: String = "GET", headers: [String] = []) throws -> RawHTTPClient.Response {
            let client = try RawHTTPClient(port: UInt16(port))
            try client.write("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
            return try client.readResponse()
        }
        let search = "/api/autocomplete/v4?text=ben&apikey="
        XCTAssertEqual(try send(search + "scenario:autocomplete-500").status, 401, "no back door")
        XCTAssertEqual(try send(search + "scenario:autocomplete-500:team").status, 500)
        XCTAssertEqual(try send(search + "team", headers: ["X-VietMap-Sim-Scenario: autocomplete-500"]).status, 500)
        XCTAssertEqual(try send(search + "scenario:zero-results:team").json(), .array([]))
        XCTAssertEqual(try send("/__sim/active").status, 401, "the token is needed")
        XCTAssertEqual(try send("/__sim/activate?scenario=route-500", "POST", headers: ["Authorization: Bearer T"]).status, 403)
        XCTAssertEqual(try send("/__sim/activate?scenario=autocomplete-500", "POST",
                                headers: ["Authorization: Bearer T", "X-VietMap-Sim-Admin: 1"]).status, 200)
        XCTAssertEqual(try send(search + "team").status, 500, "the default scenario applies to the real key")
        XCTAssertEqual(try send(search + "other").status, 401)
    }
}
