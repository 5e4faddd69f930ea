import Foundation
import SimTesting
import TestExpectations
import Testing

/// `serve --proxy` through the real binary, round 3 of the reliability issue: the admin API is
/// not reachable through the proxy however a request is framed, the proxy drains on SIGTERM
/// like the direct port, and takes the direct port's connection limits.
extension CLITests {
    /// A running `serve --proxy 0`: its direct port, its proxy port, the CA and the process.
    struct ProxiedServe {
        let process: Process
        let directPort: UInt16
        let proxyPort: UInt16
        let caPath: String
        let stderr: Pipe
    }

    /// Starts `serve --port 0 --db TEST --proxy 0` with `extra` options, in a fresh cache.
    func startProxiedServe(_ extra: [String]) throws -> ProxiedServe {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-r3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path(), "--proxy", "0"] + extra
        process.environment = ProcessInfo.processInfo.environment.merging(["VIETMAP_SIM_CACHE": cache.path]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let lines = CLIRunner.firstLines(out, count: 2)
        let text = lines.joined(separator: "\n")
        guard lines.count >= 2, let direct = UInt16(lines[0].split(separator: ":").last ?? ""),
              let proxy = UInt16(lines[1].split(separator: ":").last?.split(separator: " ").first ?? "") else {
            throw TestFailure("serve did not start: \(text)")
        }
        return ProxiedServe(process: process, directPort: direct, proxyPort: proxy,
                            caPath: cache.appendingPathComponent("tls/ca.pem").path, stderr: err)
    }

    /// curl without any proxy from the environment: exit status and output.
    private func hardeningCurl(_ arguments: [String]) throws -> (Int32, String) {
        try CLIRunner.curl(arguments, maxTime: 20)
    }

    @Test(.enabled(if: CLITests.curlInstalled, "needs /usr/bin/curl")) func testTheAdminAPIIsNotReachableThroughTheProxy() throws {
        let serve = try startProxiedServe(["--admin", "--proxy-pass", "127.0.0.1", "--proxy-pass", "localhost"])
        let proxy = "http://127.0.0.1:\(serve.proxyPort)"
        let direct = "127.0.0.1:\(serve.directPort)"
        // Through the proxy, framed every way: 404 in the API's error shape.
        let attempts: [[String]] = [
            ["--proxy", proxy, "-H", "Host: 127.0.0.1", "http://maps.vietmap.vn/__sim/journal"],
            ["--proxy", proxy, "-H", "Host: localhost:\(serve.directPort)", "http://maps.vietmap.vn/__sim/journal"],
            ["--proxy", proxy, "--proxytunnel", "-H", "Host: 127.0.0.1", "http://maps.vietmap.vn/__sim/journal"],
            ["--proxy", proxy, "--proxytunnel", "-H", "Host: localhost:\(serve.directPort)", "http://maps.vietmap.vn/__sim/scenarios"],
            ["--proxy", proxy, "--cacert", serve.caPath, "-H", "Host: 127.0.0.1", "https://maps.vietmap.vn/__sim/journal"],
            ["--proxy", proxy, "--cacert", serve.caPath, "https://maps.vietmap.vn/__sim/ui/"],
            ["--proxy", proxy, "--path-as-is", "http://maps.vietmap.vn/%5F%5Fsim/journal"],
            ["--proxy", proxy, "-X", "POST", "-H", "Host: 127.0.0.1", "-H", "X-VietMap-Sim-Admin: 1",
             "http://maps.vietmap.vn/__sim/activate?scenario=route-500"],
            ["--proxy", proxy, "--cacert", serve.caPath, "-X", "POST", "-H", "Host: 127.0.0.1", "-H", "Content-Type: application/json",
             "--data", #"{"scenario":"route-500"}"#, "https://maps.vietmap.vn/__sim/activate"],
        ]
        for arguments in attempts {
            let (status, output) = try hardeningCurl(arguments + ["--write-out", " %{http_code}"])
            expectEqual(status, 0, "\(arguments): \(output)")
            expectTrue(output.hasSuffix(" 404"), "\(arguments): \(output)")
            expectTrue(output.contains(#""code":"NOT_FOUND""#), "\(arguments): \(output)")
            expectFalse(output.contains("entries") || output.contains("active"), "\(arguments): \(output)")
        }
        // To the simulator's own port, even with its host allowed to pass through: refused, not contacted.
        for arguments in [["--proxy", proxy, "-H", "Host: 127.0.0.1", "http://\(direct)/__sim/journal"],
                          ["--proxy", proxy, "http://localhost:\(serve.directPort)/__sim/journal"],
                          ["--proxy", proxy, "--proxytunnel", "http://\(direct)/__sim/journal"]] {
            let (_, output) = try hardeningCurl(arguments + ["--write-out", " %{http_code}"])
            expectTrue(output.contains("PROXY_TARGET_IS_SIMULATOR") || output.contains("403"), "\(arguments): \(output)")
            expectFalse(output.contains("entries"), "\(arguments): \(output)")
        }
        // The direct port still serves it, and nothing changed.
        let (_, active) = try hardeningCurl(["http://\(direct)/__sim/active"])
        expectEqual(active.trimmingCharacters(in: .whitespacesAndNewlines), #"{"active":null}"#)
        let (_, journal) = try hardeningCurl(["http://\(direct)/__sim/journal/count"])
        expectTrue(journal.contains(#""count":"#), journal)
    }

    @Test(.enabled(if: CLITests.curlInstalled, "needs /usr/bin/curl")) func testTheProxyDrainsRequestsInFlightOnSIGTERM() throws {
        let scenarios = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-drain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: scenarios) }
        try Data(#"{"name":"slow-text","description":"autocomplete text=slow waits 1 s","rules":[{"match":{"endpoint":"autocomplete","params":{"text":"slow"}},"delay":1000}]}"#.utf8)
            .write(to: scenarios.appendingPathComponent("slow-text.json"))
        let serve = try startProxiedServe(["--admin", "--scenarios", scenarios.path, "--scenario", "slow-text"])
        let target = "/api/autocomplete/v4?apikey=k&text=slow"
        var clients: [RawHTTPClient] = []
        for index in 0..<10 {
            let client = try RawHTTPClient(port: serve.proxyPort, receiveTimeout: 20)
            if index % 5 == 0 {
                try client.write("GET http://maps.vietmap.vn\(target) HTTP/1.1\r\n\r\n")
            } else {
                try client.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
                expectEqual(try client.readHead(), "HTTP/1.1 200 Connection established")
                try client.write("GET \(target) HTTP/1.1\r\nHost: maps.vietmap.vn\r\n\r\n")
            }
            clients.append(client)
        }
        let tls = try (0..<2).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["--silent", "--show-error", "--max-time", "20", "--proxy", "http://127.0.0.1:\(serve.proxyPort)",
                                 "--cacert", serve.caPath, "https://maps.vietmap.vn\(target)"]
            var environment = ProcessInfo.processInfo.environment
            for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] { environment[name] = nil }
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return (process, output)
        }
        // Every request is with the simulator (journaled on arrival, answered 1 s later) …
        let deadline = Date().addingTimeInterval(15)
        var count = 0
        while count < 12, Date() < deadline {
            let (_, text) = try hardeningCurl(["http://127.0.0.1:\(serve.directPort)/__sim/journal/count?endpoint=autocomplete"])
            count = Int(text.filter(\.isNumber)) ?? 0
            if count < 12 { usleep(20_000) }
        }
        expectEqual(count, 12, "the requests did not all arrive")
        // … when the signal comes: each still gets its answer, and the process exits 0.
        serve.process.terminate()
        for (index, client) in clients.enumerated() {
            let response = try client.readResponse()
            expectEqual(response.status, 200, "client \(index)")
            expectTrue(response.body.first == UInt8(ascii: "["), "client \(index): \(String(decoding: response.body, as: UTF8.self))")
        }
        for (process, output) in tls {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            expectEqual(process.terminationStatus, 0, text)
            expectTrue(text.hasPrefix("["), text)
        }
        serve.process.waitUntilExit()
        expectEqual(serve.process.terminationStatus, 0)
    }

    @Test func testTheProxyTakesTheDirectPortsPerClientLimit() throws {
        let serve = try startProxiedServe(["--max-connections-per-client", "2"])
        let first = try RawHTTPClient(port: serve.proxyPort)
        try first.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
        expectEqual(try first.readHead(), "HTTP/1.1 200 Connection established")
        let second = try RawHTTPClient(port: serve.proxyPort)
        try second.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
        expectEqual(try second.readHead(), "HTTP/1.1 200 Connection established")
        // A third connection from 127.0.0.1: closed at once, without a byte.
        let third = try RawHTTPClient(port: serve.proxyPort)
        try? third.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
        expectEqual(third.readToEnd().data.count, 0)
        // The two are served.
        for client in [first, second] {
            try client.write("GET /api/autocomplete/v4?apikey=k&text=ben HTTP/1.1\r\nHost: maps.vietmap.vn\r\n\r\n")
            expectEqual(try client.readResponse().status, 200)
        }
    }
}
