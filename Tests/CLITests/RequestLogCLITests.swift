import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimTesting
import TestExpectations
import Testing

/// `serve --log-requests on`: one line per answered request on stderr — method, path without the
/// key, status, latency, the scenario that fired — as WireMock's `--verbose` and Prism show traffic.
@Suite final class RequestLogCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: RequestLogCLITests.self)
            ?? Bundle(for: RequestLogCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    @Test func testEachAnsweredRequestIsOneLineWithoutTheKey() async throws {
        let db = URL(fileURLWithPath: try TestDataset.path())
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", db.path, "--log-requests", "on"]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = CLIRunner.baseURL(out)
        let secret = "my-secret-key-123"
        _ = try await URLSession.shared.data(from: URL(string: "\(base)/api/autocomplete/v4?apikey=\(secret)&text=ben")!)
        _ = try await URLSession.shared.data(from: URL(string: "\(base)/api/route/v4?apikey=scenario:empty-route&point=10.7725,106.6980&point=10.7798,106.6990")!)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = log.split(separator: "\n").map(String.init)
        let autocomplete = try unwrap(lines.first { $0.contains(" GET /api/autocomplete/v4?text=ben 200 ") }, log)
        expectTrue(autocomplete.hasSuffix(" ms"), autocomplete)
        expectFalse(log.contains(secret), "the key is in the log")
        let route = try unwrap(lines.first { $0.contains(" GET /api/route/v4?") }, log)
        expectTrue(route.contains("scenario empty-route"), route)
    }

    @Test func testTheChoiceIsChecked() throws {
        let outcome = try CLIRunner.run(binary, ["serve", "--log-requests", "loud"], in: FileManager.default.temporaryDirectory, environment: [:])
        expectEqual(outcome.status, 64)
        expectTrue(outcome.stderr.contains("--log-requests must be on, off or auto"), outcome.stderr)
    }
}
