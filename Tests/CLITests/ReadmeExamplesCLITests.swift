import Foundation
import SimTesting
import TestExpectations
import Testing

/// The README's first requests run as printed (issue #37): the `sh` block after "Then:" is run by
/// bash against `vietmap-sim serve`, each `curl` failing on an HTTP error (`-f`), the block
/// stopping at the first failure.
@Suite final class ReadmeExamplesCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: ReadmeExamplesCLITests.self)
            ?? Bundle(for: ReadmeExamplesCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    /// The commands of the README's "Then:" block.
    static func thenBlock() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let then = text.range(of: "\nThen:\n"), let open = text.range(of: "```sh\n", range: then.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else {
            throw TestFailure("README.md has no \"Then:\" sh block")
        }
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test func testTheReadmesFirstRequestsRunAsPrinted() async throws {
        let block = try Self.thenBlock()
        expectTrue(block.contains("http://127.0.0.1:8080/"), block)
        expectFalse(block.contains("<"), "a placeholder in the README's commands: \(block)")
        let db = URL(fileURLWithPath: try TestDataset.path())
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", db.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = CLIRunner.baseURL(out)
        let script = "set -euo pipefail\n" + block.replacingOccurrences(of: "http://127.0.0.1:8080", with: base)
            .replacingOccurrences(of: "curl -s ", with: "curl -sf ")
            .replacingOccurrences(of: "curl '", with: "curl -sf '")
            .replacingOccurrences(of: "curl \"", with: "curl -sf \"")
        let outcome = try CLIRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: FileManager.default.temporaryDirectory,
                                        environment: [:])
        expectEqual(outcome.status, 0, "the README's commands failed:\n\(script)\n\(outcome.stderr)")
        // Six answers, the place detail among them.
        expectTrue(outcome.stdout.contains("\"display\""), outcome.stdout.prefix(400).description)
        expectEqual(outcome.stdout.components(separatedBy: "\"paths\":[]").count, 2, "the empty-route scenario's answer")
    }
}
