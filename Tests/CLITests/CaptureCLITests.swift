import Foundation
import SimTesting
import TestExpectations
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve --upstream … --record` and `serve --replay` as a user runs them: two processes on
/// loopback, the upstream key given through the environment, then never seen again.
@Suite final class CaptureCLITests {
    static let upstreamKey = "UPSTREAM-SECRET-91c3"

    /// The built executable, next to the test bundle (as in `CLITests`).
    var binary: URL {
        CLIRunner.executable(besideBundleOf: CaptureCLITests.self)
            ?? Bundle(for: CaptureCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    /// A running `vietmap-sim serve`, its base URL, and what it wrote.
    final class Server {
        let process = Process()
        let out = Pipe(), err = Pipe()
        var base = ""
        init(_ binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = binary
            process.arguments = ["serve", "--port", "0"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = out
            process.standardError = err
            try process.run()
            var text = ""
            while !text.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let line = text.split(separator: "\n").first, line.hasPrefix("vietmap-sim listening on ") else {
                process.terminate()
                throw NSError(domain: "serve did not start: \(text)", code: 1)
            }
            base = String(line.dropFirst("vietmap-sim listening on ".count))
        }
        /// Stops the server and returns everything it printed.
        func stop() -> String {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile() + err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        func get(_ target: String) async throws -> (Int, Data, HTTPURLResponse) {
            let (data, response) = try await URLSession.shared.data(from: URL(string: base + target)!)
            let http = response as! HTTPURLResponse
            return (http.statusCode, data, http)
        }
    }

    @Test func testRecordThroughAnUpstreamThenReplayWithItStopped() async throws {
        let db = try TestDataset.path()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let recordings = dir.appendingPathComponent("recordings")

        let upstream = try Server(binary, ["--db", db, "--api-key", Self.upstreamKey])
        let proxy = try Server(binary, ["--db", db, "--upstream", upstream.base, "--record", recordings.path, "--admin"],
                               environment: ["VIETMAP_API_KEY": Self.upstreamKey])
        let targets = ["/api/autocomplete/v4?apikey=app&text=ben%20thanh", "/api/route/v4?apikey=app&point=10.7725,106.698&point=10.7769,106.7009"]
        var live: [(Int, Data)] = []
        for target in targets {
            let (status, body, _) = try await proxy.get(target)
            live.append((status, body))
        }
        expectEqual(live.map(\.0), [200, 200], "the upstream accepted the upstream key")
        let (_, journal, _) = try await proxy.get("/__sim/journal")
        let upstreamOutput = upstream.stop()
        let proxyOutput = proxy.stop()

        // The upstream key is nowhere: output, journal, recordings.
        expectFalse(proxyOutput.contains(Self.upstreamKey), proxyOutput)
        expectFalse(upstreamOutput.contains(Self.upstreamKey))
        expectFalse(String(decoding: journal, as: UTF8.self).contains(Self.upstreamKey))
        let files = try FileManager.default.contentsOfDirectory(atPath: recordings.path)
        expectEqual(files.count, 2)
        for file in files {
            expectFalse(try String(contentsOf: recordings.appendingPathComponent(file), encoding: .utf8).contains(Self.upstreamKey))
        }
        expectTrue(proxyOutput.contains("forwarding the endpoints to \(upstream.base) (upstream key set), recording into"), proxyOutput)

        // Replay with the upstream gone: the same answers.
        let replay = try Server(binary, ["--db", db, "--replay", recordings.path])
        defer { _ = replay.stop() }
        for (target, recorded) in zip(targets, live) {
            let (status, body, response) = try await replay.get(target)
            expectEqual(status, recorded.0)
            expectEqual(body, recorded.1)
            expectEqual(response.value(forHTTPHeaderField: "X-VietMap-Sim-Replay"), "1/1")
        }
        let (missing, body, _) = try await replay.get("/api/autocomplete/v4?apikey=app&text=cho")
        expectEqual(missing, 404)
        expectTrue(String(decoding: body, as: UTF8.self).contains("no recording for this request"))
    }

    @Test func testCaptureUsageErrors() throws {
        for arguments in [["serve", "--record", "/tmp/x"], ["serve", "--upstream", "live"], ["serve", "--upstream", "ftp://x"],
                          ["serve", "--replay-timing"], ["serve", "--fallback", "live"], ["serve", "--upstream", "http://127.0.0.1:1", "--replay", "/tmp"],
                          ["serve", "--upstream", "http://127.0.0.1:1", "--upstream-timeout", "0.5"],
                          ["serve", "--upstream", "http://127.0.0.1:1", "--upstream-max-body", "0"],
                          ["serve", "--upstream", "http://127.0.0.1:1", "--upstream-max-body", "64MiB"],
                          ["serve", "--upstream-max-body", "1024"]] {
            let outcome = try CLIRunner.run(binary, arguments, environment: ["VIETMAP_API_KEY": ""])
            expectEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): \(outcome.stderr)")
        }
    }
}
