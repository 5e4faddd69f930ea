import Foundation
import SimTesting
import TestExpectations
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve --scenario-key KEY=NAME` through the real binary: the bound key gets the scenario on the
/// legacy route URL the SDKs call, other keys do not; a bad binding is one line and an exit code.
extension CLITests {
    @Test func testAScenarioKeyBindsAPlainKeyAtStart() async throws {
        let db = URL(fileURLWithPath: try TestDataset.path())
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", db.path, "--scenario-key", "BAKED-IN=empty-route"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = String(readyLine(out).dropFirst("vietmap-sim listening on ".count))
        let query = "point=10.7725,106.6980&point=10.7800,106.7000"
        let (bound, _) = try await URLSession.shared.data(from: URL(string: "\(base)/api/route?api-version=1.1&apikey=BAKED-IN&\(query)")!)
        expectTrue(String(decoding: bound, as: UTF8.self).contains(#""paths":[]"#))
        let (other, _) = try await URLSession.shared.data(from: URL(string: "\(base)/api/route?api-version=1.1&apikey=another&\(query)")!)
        expectTrue(String(decoding: other, as: UTF8.self).contains(#""code":"OK""#))

        for (arguments, needle) in [(["--scenario-key", "KEY=nope"], "nope"), (["--scenario-key", "no-equals"], "KEY=NAME"),
                                    (["--scenario-key", "A=empty-route", "--scenario-key", "A=zero-results"], "twice")] {
            let refused = try run(["serve", "--port", "0", "--db", db.path] + arguments)
            expectNotEqual(refused.status, 0, arguments.joined(separator: " "))
            expectEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
            expectTrue(refused.stderr.contains(needle), refused.stderr)
        }
    }
}
