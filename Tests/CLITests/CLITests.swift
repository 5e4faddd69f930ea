import ArrayBlob
import Dataset
import DefaultData
import Foundation
import SimTesting
import SQLiteStore
import TestExpectations
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `vietmap-sim` binary as a user runs it: exit codes, one-line errors, the ready line,
/// clean stop on SIGTERM.
@Suite final class CLITests: TeardownBlocks {
    /// Whether curl is where the proxy and TLS tests run it (their `.enabled(if:)` condition).
    static let curlInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// The built executable, next to the test bundle.
    var binary: URL {
        CLIRunner.executable(besideBundleOf: CLITests.self)
            ?? Bundle(for: CLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, arguments, environment: environment)
    }

    /// The first line `serve` prints on `out` (its ready line), or what came before the pipe closed.
    func readyLine(_ out: Pipe) -> String { CLIRunner.readyLine(out) }

    @Test func testHelpTexts() throws {
        let main = try run(["--help"])
        expectEqual(main.status, 0)
        expectTrue(main.stdout.contains("serve") && main.stdout.contains("import"))
        let serve = try run(["serve", "--help"])
        expectEqual(serve.status, 0)
        for flag in ["--host", "--port", "--db", "--api-key"] { expectTrue(serve.stdout.contains(flag), flag) }
        let importHelp = try run(["import", "--help"])
        expectEqual(importHelp.status, 0)
        expectTrue(importHelp.stdout.contains("--out"))
    }

    @Test func testUsageErrorsAreOneLineAndExitCode64() throws {
        for arguments in [["--bogus"], ["serve", "--bogus"], ["serve", "--port", "99999"], ["serve", "--port"], ["serve", "--max-snap-distance", "1e300"],
                          ["frobnicate"], ["import"], ["serve", "extra"]] {
            let outcome = try run(arguments)
            expectEqual(outcome.status, 64, "\(arguments)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): \(outcome.stderr)")
            expectTrue(outcome.stderr.hasPrefix("vietmap-sim: "))
        }
    }

    @Test func testServeRefusesADamagedDatabaseWithOneLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("mine.sqlite")
        try FileManager.default.copyItem(atPath: try TestDataset.path(), toPath: copy.path)
        let handle = try unwrap(FileHandle(forUpdatingAtPath: copy.path))
        try handle.seek(toOffset: 5 * 4096 + 123)
        let old = try unwrap(handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: 5 * 4096 + 123)
        try handle.write(contentsOf: Data([old ^ 0xA5]))
        try handle.close()
        let outcome = try run(["serve", "--port", "0", "--db", copy.path])
        expectEqual(outcome.status, 1)
        // Start-up notices (scenarios loaded) may come first; the refusal is one line, the last.
        let lines = outcome.stderr.split(separator: "\n")
        expectEqual(lines.filter { $0.contains("damaged") }.count, 1, outcome.stderr)
        let last = String(lines.last ?? "")
        expectTrue(last.hasPrefix("vietmap-sim: \(copy.path): ") && last.contains("damaged") && last.contains("re-import"), last)
        expectFalse(outcome.stdout.contains("listening"))
    }

    /// A section directory that points outside the file (a hostile or damaged footer) is refused at
    /// start with one line naming the file, even when the checksum is left for later.
    @Test func testADamagedSectionDirectoryIsOneLineNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-sections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("hostile.sqlite")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try TestDataset.path()))
        // A footer whose directory lies a terabyte past the end.
        bytes += Data("VMSDSECT".utf8)
        withUnsafeBytes(of: UInt64(1 << 40).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt64(100).littleEndian) { bytes += $0 }
        bytes += Data(count: 8)
        try bytes.write(to: copy)
        let outcome = try run(["serve", "--port", "0", "--db", copy.path], environment: ["VIETMAP_SIM_DEFERRED_CHECK_BYTES": "0"])
        expectEqual(outcome.status, 1)
        expectFalse(outcome.stdout.contains("listening"), outcome.stdout)
        let lines = outcome.stderr.split(separator: "\n")
        expectEqual(lines.count, 1, outcome.stderr)
        expectTrue(lines.first?.hasPrefix("vietmap-sim: \(copy.path): ") ?? false, outcome.stderr)
        expectTrue(outcome.stderr.contains("section directory is damaged"), outcome.stderr)
    }

    @Test func testALargeDatasetIsServedAtOnceAndItsDamageFoundInTheBackground() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-deferred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("big.sqlite")
        try FileManager.default.copyItem(atPath: try TestDataset.path(), toPath: copy.path)
        // A byte just before the sections (the last SQLite page or its padding): nothing read at start
        // touches it, only the checksum does. (The sections' directory at the file's end is read at start.)
        let size = try unwrap(try FileSections.directory(path: copy.path).values.map(\.lowerBound).min())
        let handle = try unwrap(FileHandle(forUpdatingAtPath: copy.path))
        try handle.seek(toOffset: UInt64(size - 100))
        let old = try unwrap(handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(size - 100))
        try handle.write(contentsOf: Data([old ^ 0x5A]))
        try handle.close()
        // "Large" is every file here: the checksum is compared after start.
        let outcome = try run(["serve", "--port", "0", "--db", copy.path], environment: ["VIETMAP_SIM_DEFERRED_CHECK_BYTES": "0"])
        expectTrue(outcome.stdout.contains("listening"), "served before the check: \(outcome.stdout)")
        expectEqual(outcome.status, 1)
        let last = String(outcome.stderr.split(separator: "\n").last ?? "")
        expectTrue(last.hasPrefix("vietmap-sim: \(copy.path): ") && last.contains("damaged") && last.contains("background check"), last)
    }

    @Test func testScenariosFromCaptureWritesAValidScenario() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = #"{\"license\":\"vietmap\",\"code\":\"OVER_DAILY_LIMIT\",\"messages\":\"quota\",\"paths\":null}"#
        let har = #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"2026-11-30T08:00:00Z","time":30,"#
            + #""request":{"method":"GET","url":"https://maps.vietmap.vn/api/route/v4?apikey=SECRET-K&point=10.77,106.69&point=10.78,106.70","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"#
            + #""response":{"status":429,"statusText":"","httpVersion":"HTTP/1.1","headers":[{"name":"Retry-After","value":"3600"}],"cookies":[],"content":{"size":10,"mimeType":"application/json","text":""# + body + #""},"redirectURL":"","headersSize":-1,"bodySize":-1},"#
            + #""cache":{},"timings":{"send":0,"wait":25,"receive":1}}]}}"#
        let harFile = dir.appendingPathComponent("field session.har")
        try har.write(to: harFile, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("quota.json")
        let outcome = try run(["scenarios", "from-har", harFile.path, "--out", out.path])
        expectEqual(outcome.status, 0, outcome.stderr)
        expectEqual(outcome.stdout, "")
        expectEqual(outcome.stderr, "from-har: \(harFile.path): 1 of 1 entries → 1 rule; wrote \(out.path)\n")
        expectTrue(try String(contentsOf: out, encoding: .utf8).contains(#""name": "field-session""#))
        let written = try String(contentsOf: out, encoding: .utf8)
        expectFalse(written.contains("SECRET-K"))
        expectTrue(written.contains("Retry-After") && written.contains("OVER_DAILY_LIMIT"), written)
        expectEqual(try run(["scenarios", "validate", out.path]).status, 0)

        let notHAR = dir.appendingPathComponent("x.har")
        try "{}".write(to: notHAR, atomically: true, encoding: .utf8)
        let bad = try run(["scenarios", "from-har", notHAR.path])
        expectEqual(bad.status, 1)
        expectEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        expectTrue(bad.stderr.contains("x.har: not a HAR file"), bad.stderr)
    }

    /// `import --progress` of the Hoàn Kiếm extract alone (the embedded units added), run once for
    /// the two tests that read what it printed and wrote; the folder holding its dataset is removed
    /// when the test process exits.
    private static let hoanKiemImport: Result<(outcome: CLIRunner.Outcome, dataset: URL), any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        RemovalAtExit.add(dir)
        guard let osm = DefaultData.inputFiles.first(where: { $0.lastPathComponent == "hanoi_hoankiem_2019.osm" }),
              let binary = CLIRunner.executable(besideBundleOf: CLITests.self) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no Hoàn Kiếm extract or no vietmap-sim binary"])
        }
        let out = dir.appendingPathComponent("hoankiem.sqlite")
        return (try CLIRunner.run(binary, ["import", "--progress", "--out", out.path, osm.path]), out)
    }

    @Test func testAnOSMExtractAloneIsImportedWithTheEmbeddedUnits() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try unwrap(DefaultData.inputFiles.first { $0.lastPathComponent == "hanoi_hoankiem_2019.osm" })
        let (outcome, out) = try Self.hoanKiemImport.get()
        expectEqual(outcome.status, 0, outcome.stderr)
        expectTrue(outcome.stdout.contains("note: no administrative-unit files among the inputs: using the embedded ones"), outcome.stdout)
        let db = try Database(path: out.path, mode: .readOnly)
        let count = try db.prepare("SELECT count(*) FROM place WHERE kind != 0 AND new_ward != 0")
        expectTrue(try count.step())
        expectGreaterThan(count.int(0), 100, "the extract's places have addresses")
        let lake = try db.prepare("SELECT count(*) FROM place WHERE name = 'Hồ Hoàn Kiếm'")
        expectTrue(try lake.step())
        expectEqual(lake.int(0), 1)
        // With the units given explicitly, nothing is added.
        let explicit = try run(["import", "--out", dir.appendingPathComponent("b.sqlite").path, osm.path] + DefaultData.adminFiles.map(\.path))
        expectEqual(explicit.status, 0, explicit.stderr)
        expectFalse(explicit.stdout.contains("using the embedded ones"), explicit.stdout)
    }

    /// `--progress` shows each step with the memory held; with less memory left than the floor
    /// (here set above the machine's) the import stops with one line and leaves nothing behind.
    @Test func testImportShowsItsStepsAndStopsWhenMemoryRunsLow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try unwrap(DefaultData.inputFiles.first { $0.lastPathComponent == "hanoi_hoankiem_2019.osm" })
        let shown = try Self.hoanKiemImport.get().outcome
        expectEqual(shown.status, 0, shown.stderr)
        let steps = shown.stderr.split(separator: "\n")
        expectGreaterThan(steps.count, 5, shown.stderr)
        expectTrue(steps.allSatisfy { $0.hasPrefix("import: ") && $0.hasSuffix(" GiB held") }, shown.stderr)
        expectTrue(steps.last?.contains("writing the dataset") ?? false, shown.stderr)
        let total = steps.last.flatMap { $0.split(separator: "/").dropFirst().first?.split(separator: " ").first }
        expectEqual(steps.last?.dropFirst("import: ".count).split(separator: "/").first, total, "the last step is the last of the count")

        let out = dir.appendingPathComponent("b.sqlite")
        let machine = ProcessInfo.processInfo.physicalMemory >> 20
        let stopped = try run(["import", "--out", out.path, osm.path], environment: ["VIETMAP_SIM_IMPORT_MEMORY_FLOOR_MB": "\(machine * 2)"])
        expectEqual(stopped.status, 1, stopped.stderr)
        expectEqual(stopped.stderr.split(separator: "\n").count, 1, stopped.stderr)
        expectTrue(stopped.stderr.hasPrefix("vietmap-sim: import stopped: the machine has "), stopped.stderr)
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no partial output")
    }

    @Test func testImportErrorNamesTheFileAndLeavesNothingBehind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad_pois.csv")
        let header = "osm_type,osm_id,name,name_en,name_vi,category,lat,lng,addr_housenumber,addr_street,addr_subdistrict,addr_district,addr_city,phone,website,opening_hours,cuisine,ward2025_code,ward2025_name,province2025_code,province2025_name,old_district_osm,old_ward_osm,old_district_code,old_ward_code"
        try (header + "\nnode,1,Quán,,,amenity=cafe,north,106.7,,,,,,,,,,26743,Phường Bến Thành,79,Thành phố Hồ Chí Minh,,,,\n")
            .write(to: bad, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.sqlite")
        let outcome = try run(["import", "--out", out.path, bad.path])
        expectEqual(outcome.status, 1)
        expectEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
        expectTrue(outcome.stderr.contains("bad_pois.csv"), outcome.stderr)
        let missing = try run(["import", "--out", out.path, dir.appendingPathComponent("nope.csv").path])
        expectEqual(missing.status, 1)
        expectTrue(missing.stderr.contains("nope.csv"), missing.stderr)
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["bad_pois.csv"], "no partial output")
    }

    @Test func testServePrintsItsAddressAnswersAndStopsOnSIGTERM() async throws {
        let db = URL(fileURLWithPath: try TestDataset.path())
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", db.path, "--api-key", "team"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let ready = readyLine(out)
        expectTrue(ready.hasPrefix("vietmap-sim listening on http://127.0.0.1:"), ready)
        let base = String(ready.dropFirst("vietmap-sim listening on ".count))
        expectFalse(base.hasSuffix(":0"))

        let (_, accepted) = try await URLSession.shared.data(from: URL(string: "\(base)/api/autocomplete/v4?apikey=team&text=ben")!)
        expectEqual((accepted as? HTTPURLResponse)?.statusCode, 200)
        let (_, rejected) = try await URLSession.shared.data(from: URL(string: "\(base)/api/autocomplete/v4?apikey=other&text=ben")!)
        expectEqual((rejected as? HTTPURLResponse)?.statusCode, 401)

        let started = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        expectEqual(process.terminationReason, .exit)
        expectEqual(process.terminationStatus, 0)
        expectLessThan(Date().timeIntervalSince(started), 5)
    }

    /// Started in a folder without Scenarios/, serve still has the built-in scenarios (embedded
    /// in the build) and says so on stderr; `--scenarios DIR` adds to them.
    @Test func testServeHasTheBuiltInScenariosFromAnyFolder() async throws {
        let db = URL(fileURLWithPath: try TestDataset.path())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-elsewhere-\(UUID().uuidString)")
        let extra = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"name": "mine-500", "description": "d", "rules": [{"respond": {"error": "ERROR_UNKNOWN"}}]}"#.utf8)
            .write(to: extra.appendingPathComponent("mine-500.json"))
        let builtIn = (try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios").path))
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.count

        for (arguments, expected) in [([String](), "vietmap-sim: \(builtIn) scenarios (built-in \(builtIn))"),
                                      (["--scenarios", "mine"], "vietmap-sim: \(builtIn + 1) scenarios (built-in \(builtIn), \(extra.path) 1)")] {
            let process = Process()
            process.executableURL = binary
            process.currentDirectoryURL = folder
            process.arguments = ["serve", "--port", "0", "--db", db.path] + arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let base = String(readyLine(out).dropFirst("vietmap-sim listening on ".count))
            let route = "\(base)/api/route/v4?point=10.7725,106.6980&point=10.7800,106.7000&apikey=scenario:empty-route"
            let (data, response) = try await URLSession.shared.data(from: URL(string: route)!)
            expectEqual((response as? HTTPURLResponse)?.statusCode, 200)
            expectTrue(String(decoding: data, as: UTF8.self).contains(#""paths":[]"#))
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            expectEqual(stderr.split(separator: "\n").first.map(String.init), expected)
        }

        let unknown = try run(["serve", "--port", "0", "--db", db.path, "--scenario", "nope"])
        expectEqual(unknown.status, 1)
        expectEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
        expectTrue(unknown.stderr.contains("nope") && unknown.stderr.contains("empty-route"), unknown.stderr)
    }
}
