import Foundation
import XCTest

/// `vietmap-sim scenarios …` and the scenario options of `serve`, run as a user would.
final class ScenariosCommandTests: XCTestCase {
    /// The built executable next to the test bundle (skips when it has not been built).
    private func binary() throws -> URL {
        var directory = Bundle(for: Self.self).bundleURL
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("vietmap-sim")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw XCTSkip("the vietmap-sim executable has not been built")
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.currentDirectoryURL = TestSimulator.builtInDirectory.deletingLastPathComponent()
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func testValidateTheBuiltInFolder() throws {
        let outcome = try run(["scenarios", "validate"])
        XCTAssertEqual(outcome.status, 0, outcome.stdout + outcome.stderr)
        XCTAssertEqual(outcome.stdout, "OK: \(TestSimulator.builtIns.scenarios.count) scenarios in \(TestSimulator.builtIns.scenarios.count) files\n")
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
        XCTAssertEqual(try run(["serve", "--scenario", "a", "--scenario", "b"]).status, 2)
        XCTAssertEqual(try run(["serve", "--seed", "x"]).status, 2)
        XCTAssertEqual(try run(["serve", "--scenarios", "/nonexistent-folder"]).status, 1)
        let help = try run(["serve", "--help"])
        for option in ["--scenarios", "--scenario", "--seed", "--admin"] { XCTAssertTrue(help.stdout.contains(option), option) }
    }
}
