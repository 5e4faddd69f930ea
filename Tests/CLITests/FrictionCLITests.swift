import Foundation
import SimTesting
import SQLiteStore
import TestExpectations
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The frictions of a first day (issue #19, part 4), each through the binary as a user meets it:
/// built-in scenarios listed and validated from any folder, a folder for `--out` created, the
/// upstream's first 401 named once, progress while the default dataset builds, and one line for a
/// foreign SQLite file, a truncated OSM file and a scenario file that does not load.
@Suite final class FrictionCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: FrictionCLITests.self)
            ?? Bundle(for: FrictionCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    private var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-friction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, arguments, in: folder, environment: environment)
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    private func write(_ text: String, to name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func testScenariosListAndValidateHaveTheBuiltInsInAnyFolder() throws {
        let list = try run(["scenarios", "list"])
        expectEqual(list.status, 0, list.stderr)
        expectTrue(list.stdout.contains("empty-route") && list.stdout.contains("flaky-503"), list.stdout)
        let validate = try run(["scenarios", "validate"])
        expectEqual(validate.status, 0, validate.stdout + validate.stderr)
        expectTrue(validate.stdout.hasPrefix("OK: ") && validate.stdout.contains("built-in; no ./Scenarios folder"), validate.stdout)

        // ./Scenarios adds to them, as for serve.
        _ = try write(#"{"name": "mine", "description": "Mine.", "rules": [{"match": {"endpoint": "route"}, "respond": {"status": 503}}]}"#,
                      to: "Scenarios/mine.json")
        let both = try run(["scenarios", "list"])
        expectEqual(both.status, 0, both.stderr)
        expectTrue(both.stdout.contains("mine") && both.stdout.contains("empty-route"), both.stdout)
        let validated = try run(["scenarios", "validate"])
        expectEqual(validated.status, 0, validated.stdout)
        expectTrue(validated.stdout.contains("1 in Scenarios"), validated.stdout)

        // A --scenarios folder that does not exist is still an error, one line.
        let missing = try run(["scenarios", "list", "--scenarios", "nowhere"])
        expectEqual(missing.status, 1)
        expectEqual(lines(missing.stderr), ["vietmap-sim: no scenarios folder 'nowhere' (--scenarios); give an existing folder"])
    }

    /// The README's `scenarios from-har … --out Scenarios/x.json` in a folder without `Scenarios/`.
    @Test func testOutCreatesTheMissingFolder() throws {
        let har = try write(#"{"log": {"version": "1.2", "entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "time": 5, "request": {"method": "GET", "url": "https://maps.vietmap.vn/api/route/v4?apikey=k&point=1,2&point=3,4", "headers": []}, "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}}]}}"#,
                            to: "field.har")
        let outcome = try run(["scenarios", "from-har", har.path, "--out", "Scenarios/field.json"])
        expectEqual(outcome.status, 0, outcome.stderr)
        expectTrue(outcome.stderr.contains("vietmap-sim: created the folder \(folder.path)/Scenarios for --out"), outcome.stderr)
        expectTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Scenarios/field.json").path))
        // A file in the way: one line naming it, nothing created.
        let blocked = try run(["scenarios", "from-har", har.path, "--out", "field.har/sub/x.json"])
        expectEqual(blocked.status, 1)
        expectEqual(lines(blocked.stderr), ["vietmap-sim: --out field.har/sub/x.json: cannot create the folder \(folder.path)/field.har/sub: \(folder.path)/field.har is not a folder"])
    }

    /// `serve --upstream URL --record DIR` against an upstream that wants a key: one warning, naming
    /// `--upstream-key`, however many 401s follow.
    @Test func testTheUpstreamsFirst401IsOneWarningNamingUpstreamKey() async throws {
        let db = try TestDataset.path()
        let upstream = try CaptureCLITests.Server(binary, ["--db", db, "--api-key", "the-upstream-key"])
        let proxy = try CaptureCLITests.Server(binary, ["--db", db, "--upstream", upstream.base, "--record", folder.appendingPathComponent("rec").path],
                                               environment: ["VIETMAP_API_KEY": ""])
        for _ in 0..<3 {
            let (status, _, _) = try await proxy.get("/api/autocomplete/v4?apikey=app&text=ben%20thanh")
            expectEqual(status, 401)
        }
        _ = upstream.stop()
        let output = proxy.stop()
        let warnings = lines(output).filter { $0.contains("warning:") }
        expectEqual(warnings.count, 1, output)
        expectTrue(warnings.first?.hasPrefix("vietmap-sim: warning: the upstream \(upstream.base) answered 401 to /api/autocomplete/v4") == true, output)
        expectTrue(warnings.first?.contains("--upstream-key KEY") == true, output)
    }

    /// The first start in a fresh cache builds the default dataset: lines say what and how far.
    @Test func testTheDefaultDatasetBuildPrintsProgress() throws {
        let server = try CaptureCLITests.Server(binary, [], environment: ["VIETMAP_SIM_CACHE": folder.appendingPathComponent("cache").path])
        let output = server.stop()
        let progress = lines(output).filter { $0.hasPrefix("vietmap-sim: ") && $0.range(of: #"^vietmap-sim: \d+/\d+ "#, options: .regularExpression) != nil }
        expectGreaterThan(progress.count, 5, output)
        expectTrue(output.contains("vietmap-sim: building the default dataset from the embedded files into"), output)
        expectTrue(output.contains("reading units_2025.json") && output.contains("writing the dataset"), output)
        expectTrue(output.contains("vietmap-sim: default dataset built in "), output)
        // A second start reuses it, silently.
        let again = try CaptureCLITests.Server(binary, [], environment: ["VIETMAP_SIM_CACHE": folder.appendingPathComponent("cache").path])
        expectFalse(again.stop().contains("building the default dataset"))
    }

    @Test func testAForeignSQLiteFileIsOneLine() throws {
        let foreign = folder.appendingPathComponent("app.sqlite")
        let db = try Database(path: foreign.path, mode: .create)
        try db.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); PRAGMA user_version = 3;")
        let outcome = try run(["serve", "--port", "0", "--db", foreign.path])
        expectEqual(outcome.status, 1)
        let last = lines(outcome.stderr).last ?? ""
        expectTrue(last.hasPrefix("vietmap-sim: \(foreign.path): a SQLite file, but not a vietmap-sim dataset"), outcome.stderr)
        expectFalse(outcome.stderr.contains("SQLite error"), outcome.stderr)
        expectFalse(outcome.stdout.contains("listening"))
    }

    @Test func testATruncatedOSMFileIsOneLine() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/DefaultData/Resources/data/osm/hanoi_hoankiem_2019.osm").standardizedFileURL, encoding: .utf8)
        let truncated = try write(source.split(separator: "\n", omittingEmptySubsequences: false).prefix(3000).joined(separator: "\n"), to: "cut.osm")
        let outcome = try run(["import", "--out", "cut.sqlite", truncated.path])
        expectEqual(outcome.status, 1)
        expectEqual(lines(outcome.stderr).count, 1, outcome.stderr)
        expectTrue(outcome.stderr.hasPrefix("vietmap-sim: cut.osm: line 3000: "), outcome.stderr)
        expectTrue(outcome.stderr.contains("the XML ends too early"), outcome.stderr)
        expectFalse(outcome.stderr.contains("NSXMLParserErrorDomain"), outcome.stderr)
    }

    /// A scenario file that does not parse stops `serve` with one line naming it; with
    /// `--skip-broken-scenarios` it starts and a request for it says the file does not load.
    @Test func testAMalformedScenarioFileIsOneLineAndStopsServe() async throws {
        let bad = try write(#"{"name": "bad", "rules": [ {"match": "#, to: "Scenarios/bad.json")
        let refused = try run(["serve", "--port", "0", "--db", try TestDataset.path()])
        expectEqual(refused.status, 1)
        expectEqual(lines(refused.stderr).count, 1, refused.stderr)
        expectTrue(refused.stderr.hasPrefix("vietmap-sim: \(bad.path): (document): invalid JSON"), refused.stderr)
        expectTrue(refused.stderr.contains("--skip-broken-scenarios"), refused.stderr)
        expectFalse(refused.stdout.contains("listening"))

        let validate = try run(["scenarios", "validate"])
        expectEqual(validate.status, 1)
        expectTrue(validate.stdout.hasPrefix("\(bad.path): (document): invalid JSON"), validate.stdout)

        let server = try CaptureCLITests.Server(binary, ["--db", try TestDataset.path(), "--skip-broken-scenarios",
                                                         "--scenarios", folder.appendingPathComponent("Scenarios").path])
        let (status, body, _) = try await server.get("/api/route/v4?apikey=scenario:bad&point=10.7725,106.698&point=10.7769,106.7009")
        let output = server.stop()
        expectEqual(status, 401)
        expectTrue(String(decoding: body, as: UTF8.self).contains("unknown scenario 'bad': not loaded; its file bad.json does not load: invalid JSON"),
                      String(decoding: body, as: UTF8.self))
        expectTrue(output.contains("scenario problem: \(bad.path)"), output)
    }
}
