import Foundation
import SimTesting
import TestExpectations
import Testing

/// `serve --proxy` through the real binary, with curl as the device: maps.vietmap.vn over
/// CONNECT + TLS (the local CA in the cache) and over plain http, a `scenario:` key through the
/// proxy, the journal on the direct port, and a 403 for any other host.
extension CLITests {
    @Test(.enabled(if: CLITests.curlInstalled, "needs /usr/bin/curl")) func testProxyAnswersMapsVietmapVnFromTheSimulator() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path(), "--admin", "--proxy", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["VIETMAP_SIM_CACHE": cache.path]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }

        let lines = CLIRunner.firstLines(out, count: 2)
        let text = lines.joined(separator: "\n")
        expectEqual(lines.count, 2, text)
        guard lines.count == 2 else { return }
        expectTrue(lines[0].hasPrefix("vietmap-sim listening on http://127.0.0.1:"), lines[0])
        let base = String(lines[0].dropFirst("vietmap-sim listening on ".count))
        expectTrue(lines[1].hasPrefix("vietmap-sim proxy listening on http://127.0.0.1:"), lines[1])
        expectTrue(lines[1].hasSuffix(" for maps.vietmap.vn"), lines[1])
        let proxy = String(lines[1].dropFirst("vietmap-sim proxy listening on ".count).prefix { $0 != " " })
        let ca = cache.appendingPathComponent("tls/ca.pem").path
        expectTrue(FileManager.default.fileExists(atPath: ca))

        let autocomplete = "/api/autocomplete/v4?apikey=k&text=ben%20thanh"
        let (direct, directBody) = try proxyCurl(["\(base)\(autocomplete)"])
        expectEqual(direct, 0, directBody)
        expectTrue(directBody.hasPrefix("[{"), directBody)
        for url in ["https://maps.vietmap.vn\(autocomplete)", "http://maps.vietmap.vn\(autocomplete)"] {
            let (status, body) = try proxyCurl(["--proxy", proxy, "--cacert", ca, url])
            expectEqual(status, 0, "\(url): \(body)")
            expectEqual(body, directBody, url)
        }

        // A scenario key through the proxy.
        let route = "/api/route/v4?apikey=scenario:empty-route&point=10.7725,106.6980&point=10.7800,106.7000"
        let (routed, routeBody) = try proxyCurl(["--proxy", proxy, "--cacert", ca, "https://maps.vietmap.vn\(route)"])
        expectEqual(routed, 0, routeBody)
        expectTrue(routeBody.contains(#""paths":[]"#), routeBody)

        // The journal (direct port) has the proxied requests.
        let (journaled, journal) = try proxyCurl(["\(base)/__sim/journal?endpoint=route"])
        expectEqual(journaled, 0, journal)
        expectTrue(journal.contains(#""scenario":"empty-route""#), journal)
        let (counted, count) = try proxyCurl(["\(base)/__sim/journal/count?endpoint=autocomplete"])
        expectEqual(counted, 0, count)
        expectEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), #"{"count":3}"#)

        // Any other host: a 403 from the proxy (curl resolves nothing: no DNS needed).
        let (refused, refusal) = try proxyCurl(["--proxy", proxy, "http://example.invalid/x", "--write-out", " %{http_code}"])
        expectEqual(refused, 0, refusal)
        expectTrue(refusal.contains("PROXY_HOST_NOT_SIMULATED") && refusal.hasSuffix(" 403"), refusal)

        process.terminate()
        process.waitUntilExit()
        expectEqual(process.terminationStatus, 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        expectTrue(stderr.contains("proxy CA to trust on devices: \(ca)"), stderr)
        expectTrue(stderr.contains("refused GET http://example.invalid"), stderr)
    }

    @Test(.enabled(if: CLITests.curlInstalled, "needs /usr/bin/curl")) func testProxyWorksBesideATLSPort() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path(), "--tls", "--proxy", "0",
                             "--proxy-host", "api.example.test"]
        process.environment = ProcessInfo.processInfo.environment.merging(["VIETMAP_SIM_CACHE": cache.path]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let lines = CLIRunner.firstLines(out, count: 2)
        let text = lines.joined(separator: "\n")
        guard lines.count == 2 else { return fail(text) }
        let base = String(lines[0].dropFirst("vietmap-sim listening on ".count))
        expectTrue(base.hasPrefix("https://"), base)
        expectTrue(lines[1].hasSuffix(" for maps.vietmap.vn, api.example.test"), lines[1])
        let proxy = String(lines[1].dropFirst("vietmap-sim proxy listening on ".count).prefix { $0 != " " })
        let ca = cache.appendingPathComponent("tls/ca.pem").path
        let place = "/api/autocomplete/v4?apikey=k&text=nha%20tho%20duc%20ba"
        let (direct, directBody) = try proxyCurl(["--cacert", ca, "\(base)\(place)"])
        expectEqual(direct, 0, directBody)
        for url in ["https://maps.vietmap.vn\(place)", "https://api.example.test\(place)"] {
            let (status, body) = try proxyCurl(["--proxy", proxy, "--cacert", ca, url])
            expectEqual(status, 0, "\(url): \(body)")
            expectEqual(body, directBody, url)
        }
    }

    @Test func testProxyUsageErrors() throws {
        for arguments in [["serve", "--proxy", "x"], ["serve", "--proxy-host", "a.example"], ["serve", "--proxy-pass", "a.example"],
                          ["serve", "--proxy", "0", "--proxy-host", "a.example:443"], ["serve", "--proxy", "0", "--proxy-pass", "a b"],
                          ["serve", "--proxy", "0", "--proxy-pass", "maps.vietmap.vn"]] {
            let outcome = try run(arguments)
            expectEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): \(outcome.stderr)")
        }
        let help = try run(["serve", "--help"])
        for flag in ["--proxy PORT", "--proxy-host HOST", "--proxy-pass HOST[:PORT]"] {
            expectTrue(help.stdout.contains(flag), flag)
        }
    }

    /// curl without any proxy from the environment: exit status and output.
    private func proxyCurl(_ arguments: [String]) throws -> (Int32, String) {
        try CLIRunner.curl(arguments, maxTime: 10)
    }
}
