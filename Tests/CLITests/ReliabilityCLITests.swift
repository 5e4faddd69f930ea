import Foundation
import SimTesting
import TestExpectations
import Testing

/// Round-2 reliability through the binary: HAR budgets, `--out` checked first, temporary files
/// of killed imports, `serve --db` of an unfinished file, and plain messages for inputs that are
/// not regular files, not XML or empty.
@Suite final class ReliabilityCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: ReliabilityCLITests.self)
            ?? Bundle(for: ReliabilityCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    private var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-rel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, arguments, in: folder, environment: ["VIETMAP_SIM_CACHE": folder.appendingPathComponent("cache").path])
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// A HAR of `entries` route entries (distinct requests), each answered 200 with `body` as text.
    private func writeHAR(_ name: String, entries: Int, body: String, time: String = "12") throws -> URL {
        var escaped = ""
        for scalar in body.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let list = (0..<entries).map { index in
            #"{"startedDateTime":"2026-01-01T00:00:0\#(index % 10)Z","time":\#(time),"request":{"method":"GET","url":"https://maps.vietmap.vn/api/route/v4?point=10.7\#(index),106.6&point=10.8,106.7","headers":[],"queryString":[]},"#
                + #""response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"}],"content":{"size":\#(body.utf8.count),"mimeType":"application/json","text":"\#(escaped)"}},"timings":{"wait":\#(time)}}"#
        }
        let url = folder.appendingPathComponent(name)
        try Data((#"{"log":{"version":"1.2","entries":["# + list.joined(separator: ",") + "]}}").utf8).write(to: url)
        return url
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") || $0.hasSuffix(".json") }
    }

    @Test func testFromHARRefusesBodiesOverTheTotalBudgetNamingTheEntry() throws {
        let har = try writeHAR("big.har", entries: 4, body: String(repeating: "x", count: 600_000))
        let out = folder.appendingPathComponent("out.json")
        let refused = try run(["scenarios", "from-har", har.path, "--out", out.path, "--max-inflated", "1M"])
        expectEqual(refused.status, 1, refused.stderr)
        expectEqual(lines(refused.stderr).count, 1, refused.stderr)
        expectTrue(refused.stderr.contains("entry 1 (/log/entries/1)") && refused.stderr.contains("1 MiB"), refused.stderr)
        expectEqual(try leftovers(), [])
        let entries = try run(["scenarios", "from-har", har.path, "--out", out.path, "--max-entries", "3"])
        expectEqual(entries.status, 1)
        expectTrue(entries.stderr.contains("entry 3") && entries.stderr.contains("--max-entries"), entries.stderr)
        let output = try run(["scenarios", "from-har", har.path, "--out", out.path, "--max-output", "1M"])
        expectEqual(output.status, 1)
        expectEqual(lines(output.stderr).count, 1, output.stderr)
        expectTrue(output.stderr.contains("larger than 1 MiB") && output.stderr.contains("entry 1 (/log/entries/1)"), output.stderr)
        expectEqual(try leftovers(), [])
        // NULs escape to 6 bytes each: refused from the bodies alone, before the document is built.
        let nuls = try writeHAR("nuls.har", entries: 2, body: String(repeating: "\u{1}", count: 100_000))
        let early = try run(["scenarios", "from-har", nuls.path, "--out", out.path, "--max-output", "1M"])
        expectEqual(early.status, 1)
        expectTrue(early.stderr.contains("entry 1 (/log/entries/1)") && early.stderr.contains("at least 1.1 MiB"), early.stderr)
        expectEqual(try leftovers(), [])
        let bad = try run(["scenarios", "from-har", har.path, "--max-inflated", "lots"])
        expectEqual(bad.status, 64)
        let fine = try run(["scenarios", "from-har", har.path, "--out", out.path])
        expectEqual(fine.status, 0, fine.stderr)
        expectTrue(FileManager.default.fileExists(atPath: out.path))
    }

    @Test func testFromHARWarnsOfALatencyClampedToTenMinutes() throws {
        let har = try writeHAR("slow.har", entries: 1, body: "{}", time: "1e300")
        let outcome = try run(["scenarios", "from-har", har.path, "--out", folder.appendingPathComponent("slow.json").path])
        expectEqual(outcome.status, 0, outcome.stderr)
        let warnings = lines(outcome.stderr).filter { $0.contains("warning") }
        expectEqual(warnings.count, 1, outcome.stderr)
        expectTrue(warnings[0].contains("entry 0") && warnings[0].contains("10 minutes"), warnings[0])
        let scenario = try String(contentsOf: folder.appendingPathComponent("slow.json"), encoding: .utf8)
        expectTrue(scenario.contains("\"delay\": 600000"), scenario)
        let none = try run(["scenarios", "from-har", har.path, "--timing", "none"])
        expectFalse(none.stderr.contains("warning"), none.stderr)
    }

    @Test func testOutIsCheckedBeforeTheWork() throws {
        let har = try writeHAR("ok.har", entries: 1, body: "{}")
        for (command, extra) in [(["scenarios", "from-har", har.path], [String]()), (["import"], ["/nonexistent/input.csv"])] {
            let directory = try run(command + ["--out", folder.path] + extra)
            expectEqual(directory.status, 1, "\(command)")
            expectEqual(lines(directory.stderr).count, 1, directory.stderr)
            expectTrue(directory.stderr.contains("is a directory"), directory.stderr)
            let blocked = try run(command + ["--out", har.appendingPathComponent("no/such/x.out").path] + extra)
            expectEqual(blocked.status, 1)
            expectTrue(blocked.stderr.contains("cannot create the folder") && blocked.stderr.contains("is not a folder"), blocked.stderr)
            expectFalse(blocked.stdout.contains("note:"), "refused before the inputs are looked at: \(blocked.stdout)")
        }
    }

    @Test func testNonRegularEmptyAndBrokenInputsAreNamedPlainly() throws {
        let fifo = folder.appendingPathComponent("pipe")
        expectEqual(mkfifo(fifo.path, 0o600), 0)
        let empty = folder.appendingPathComponent("empty.har")
        try Data().write(to: empty)
        for input in [fifo.path, "/dev/zero"] {
            let har = try run(["scenarios", "from-har", input])
            expectEqual(har.status, 1)
            expectTrue(har.stderr.contains("not a regular file") && !har.stderr.contains("permission"), har.stderr)
            let imported = try run(["import", "--out", folder.appendingPathComponent("x.sqlite").path, input])
            expectEqual(imported.status, 1)
            expectTrue(imported.stderr.contains("not a regular file") && !imported.stderr.contains("permission"), imported.stderr)
        }
        let emptyHAR = try run(["scenarios", "from-har", empty.path])
        expectTrue(emptyHAR.stderr.contains("empty file"), emptyHAR.stderr)
        let bom = folder.appendingPathComponent("bom.har")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: try writeHAR("plain.har", entries: 1, body: "{}"))).write(to: bom)
        let bomOutcome = try run(["scenarios", "from-har", bom.path])
        expectEqual(bomOutcome.status, 0, bomOutcome.stderr)
        let osm = folder.appendingPathComponent("broken.osm")
        try Data(#"<osm version="0.6"><node id="1" lat="1" lon="2"><tag k="a" v="b"></node></osm>"#.utf8).write(to: osm)
        let broken = try run(["import", "--out", folder.appendingPathComponent("x.sqlite").path, osm.path])
        expectEqual(broken.status, 1)
        expectTrue(broken.stderr.contains("broken.osm: line 1: malformed XML: a closing tag that does not match"), broken.stderr)
        expectFalse(broken.stderr.contains("NSXMLParserErrorDomain"), broken.stderr)
    }

    @Test func testImportRemovesStaleTemporaryFilesOfDeadProcessesOnly() throws {
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        let stale = folder.appendingPathComponent(".out.sqlite.\(dead).0A1B2C3D.tmp")
        let live = folder.appendingPathComponent(".out.sqlite.\(getpid()).0A1B2C3E.tmp")
        let unrelated = folder.appendingPathComponent(".notes.tmp")
        for url in [stale, live, unrelated] { try Data(repeating: 1, count: 4096).write(to: url) }
        let outcome = try run(["import", "--out", folder.appendingPathComponent("out.sqlite").path, folder.appendingPathComponent("missing.csv").path])
        expectEqual(outcome.status, 1)
        let notices = lines(outcome.stderr).filter { $0.contains("stale temporary file") }
        expectEqual(notices.count, 1, outcome.stderr)
        expectTrue(notices[0].contains(stale.lastPathComponent), notices[0])
        expectFalse(FileManager.default.fileExists(atPath: stale.path))
        expectTrue(FileManager.default.fileExists(atPath: live.path), "a running process's file is kept")
        expectTrue(FileManager.default.fileExists(atPath: unrelated.path))
    }

    @Test func testServeRefusesAFileWithoutARecordedChecksum() throws {
        let copy = folder.appendingPathComponent(".mine.sqlite.123.0A1B2C3D.tmp")
        try FileManager.default.copyItem(atPath: try TestDataset.path(), toPath: copy.path)
        // Clear the seal (application_id): what a killed import's temporary file looks like.
        let handle = try unwrap(FileHandle(forUpdatingAtPath: copy.path))
        try handle.seek(toOffset: 68)
        try handle.write(contentsOf: Data(count: 4))
        try handle.close()
        let outcome = try run(["serve", "--port", "0", "--db", copy.path])
        expectEqual(outcome.status, 1)
        let last = String(lines(outcome.stderr).last ?? "")
        expectTrue(last.hasPrefix("vietmap-sim: \(copy.path): ") && last.contains("no recorded checksum"), outcome.stderr)
        expectFalse(outcome.stdout.contains("listening"))
        let fifo = folder.appendingPathComponent("db-pipe")
        expectEqual(mkfifo(fifo.path, 0o600), 0)
        let piped = try run(["serve", "--port", "0", "--db", fifo.path])
        expectEqual(piped.status, 1)
        expectTrue(piped.stderr.contains("not a regular file"), piped.stderr)
    }
}
