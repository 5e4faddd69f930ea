import Foundation
import SimTesting
import TestExpectations
import Testing

/// `serve` mounts the dashboard only with `--admin`.
extension CLITests {
    @Test func testDashboardOnlyWithAdmin() throws {
        let db = try TestDataset.path()
        let emptyScenarios = FileManager.default.temporaryDirectory.appendingPathComponent("cli-dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: emptyScenarios, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: emptyScenarios) }
        for admin in [false, true] {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["serve", "--port", "0", "--db", db, "--scenarios", emptyScenarios.path] + (admin ? ["--admin"] : [])
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
            var line = ""
            while !line.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += String(decoding: chunk, as: UTF8.self)
            }
            let port = try unwrap(line.split(separator: "\n").first?.split(separator: ":").last.flatMap { UInt16($0) }, line)
            for path in ["/__sim/ui/", "/__sim/ui/dashboard.js", "/__sim/roads?bbox=106.69,10.77,106.70,10.78", "/__sim/endpoints", "/__sim/journal"] {
                let client = try RawHTTPClient(port: port)
                try client.get(path)
                let response = try client.readResponse()
                expectEqual(response.status, admin ? 200 : 404, "\(path) with admin=\(admin)")
            }
        }
    }
}
