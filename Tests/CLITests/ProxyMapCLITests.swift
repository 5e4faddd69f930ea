import Foundation
import JSON
import SimTesting
import TestExpectations
import Testing

/// A map screen through `serve --proxy`, with curl as a device configured with the proxy: the
/// style fetched as `https://maps.vietmap.vn/…` names its tiles, glyphs and sprite on
/// `https://maps.vietmap.vn/…` (the scheme and host the client used), so the tile it names is
/// fetched through the proxy too and answered by the simulator; over plain `http://` the inner
/// URLs are `http://`.
extension CLITests {
    @Test(.enabled(if: CLITests.curlInstalled, "needs /usr/bin/curl")) func testAStyleThroughTheProxyKeepsTheWholeMapScreenOnTheProxy() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cli-proxy-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path(), "--admin", "--proxy", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(["VIETMAP_SIM_CACHE": cache.path]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let lines = CLIRunner.firstLines(out, count: 2)
        guard lines.count == 2 else { return fail(lines.joined(separator: "\n")) }
        let base = String(lines[0].dropFirst("vietmap-sim listening on ".count))
        let proxy = String(lines[1].dropFirst("vietmap-sim proxy listening on ".count).prefix { $0 != " " })
        let ca = cache.appendingPathComponent("tls/ca.pem").path
        let viaProxy = ["--proxy", proxy, "--cacert", ca]

        for scheme in ["https", "http"] {
            let (status, body) = try CLIRunner.curl(viaProxy + ["\(scheme)://maps.vietmap.vn/maps/styles/tm/style.json?apikey=k"])
            expectEqual(status, 0, body)
            let style = try JSONParser.parse(Data(body.utf8))
            expectEqual(style["version"], 8, "\(scheme): \(body.prefix(300))")
            let origin = "\(scheme)://maps.vietmap.vn/"
            expectEqual(style["glyphs"]?.stringValue?.hasPrefix(origin), true, "\(scheme): \(style["glyphs"] ?? .null)")
            expectEqual(style["sprite"]?.stringValue?.hasPrefix(origin), true, "\(scheme): \(style["sprite"] ?? .null)")
            let template = try unwrap(style["sources"]?["vietmap"]?["tiles"]?[0]?.stringValue, body)
            expectTrue(template.hasPrefix(origin + "api/maps/data/"), template)
            expectTrue(template.hasSuffix("/{z}/{x}/{y}.pbf?apikey=k"), template)

            // The tile the style names, fetched as MapLibre would: through the proxy, gzip accepted.
            let tile = template.replacingOccurrences(of: "{z}", with: "14").replacingOccurrences(of: "{x}", with: "13048")
                .replacingOccurrences(of: "{y}", with: "7698")
            let (fetched, summary) = try CLIRunner.curl(viaProxy + ["--compressed", "--output", "/dev/null",
                                                                    "--write-out", "%{http_code} %{size_download}", tile])
            expectEqual(fetched, 0, summary)
            let parts = summary.split(separator: " ")
            expectEqual(parts.first, "200", "\(tile): \(summary)")
            expectGreaterThan(Int(parts.last ?? "") ?? 0, 100, "a tile with the city's roads: \(summary)")
            // The glyph range the style names, keyless, also through the proxy.
            let glyphs = try unwrap(style["glyphs"]?.stringValue).replacingOccurrences(of: "{fontstack}", with: "Roboto%20Regular")
                .replacingOccurrences(of: "{range}", with: "0-255")
            let (glyphed, glyphSummary) = try CLIRunner.curl(viaProxy + ["--output", "/dev/null", "--write-out", "%{http_code}", glyphs])
            expectEqual(glyphed, 0, glyphSummary)
            expectEqual(glyphSummary, "200", glyphs)
        }

        // The journal (direct port) names the proxied map requests by endpoint.
        let (counted, count) = try CLIRunner.curl(["\(base)/__sim/journal/count?endpoint=vector-tile"])
        expectEqual(counted, 0, count)
        expectEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), #"{"count":2}"#)
    }
}
