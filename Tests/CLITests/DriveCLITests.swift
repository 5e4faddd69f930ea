import Dataset
import Foundation
import Routing
import SimTesting
import TestExpectations
import Testing

/// `vietmap-sim drive` as QA runs it: the GPX is GPX 1.1 (xmllint against the schema subset in
/// Fixtures/), the fixes lie on the route the router computes in-process for the same points,
/// same options give the same bytes, NMEA sentences carry valid checksums, and gaps, stops and
/// detours do what they say.
@Suite final class DriveCLITests {
    /// A drive of ≈ 960 m / 99 s through District 1 (the route the route v4 tests use).
    static let from = "10.7769,106.7008", to = "10.7798,106.6990"

    var binary: URL {
        CLIRunner.executable(besideBundleOf: DriveCLITests.self)
            ?? Bundle(for: DriveCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-drive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `drive` over the shared test dataset, writing to `name` in the test's folder; returns the file's text.
    func drive(_ arguments: [String], to name: String = "trace.gpx") throws -> String {
        let out = folder.appendingPathComponent(name)
        let outcome = try CLIRunner.run(binary, ["drive", "--db", try TestDataset.path(), "--from", Self.from, "--to", Self.to,
                                                 "--out", out.path] + arguments)
        expectEqual(outcome.status, 0, outcome.stderr)
        return try String(contentsOf: out, encoding: .utf8)
    }

    /// The route the router gives for the same points (what `drive` follows).
    func routePolyline() throws -> [GeoPoint] {
        let graph = try unwrap(try RoadGraphStore.load(databasePath: try TestDataset.path()))
        let parse = { (text: String) in GeoPoint(Double(text.split(separator: ",")[0])!, Double(text.split(separator: ",")[1])!) }
        return try Router.route(graph, points: [parse(Self.from), parse(Self.to)], vehicle: .car).points
    }

    struct Point { var lat: Double, lon: Double, seconds: Double }

    /// The `<trkpt>`s of a GPX (the same fixes as its `<wpt>`s), times as seconds after 08:00:00Z.
    func trackPoints(_ gpx: String) throws -> [Point] {
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)"><time>2026-01-01T08:(\d\d):(\d\d(?:\.\d+)?)Z</time>"#)
        return pattern.matches(in: gpx, range: NSRange(gpx.startIndex..., in: gpx)).map { match in
            let field = { (i: Int) in String(gpx[Range(match.range(at: i), in: gpx)!]) }
            return Point(lat: Double(field(1))!, lon: Double(field(2))!, seconds: Double(field(3))! * 60 + Double(field(4))!)
        }
    }

    /// Metres from `p` to the polyline (nearest segment, local flat projection around `p`).
    func distance(_ p: GeoPoint, to line: [GeoPoint]) -> Double {
        let metresPerDegree = Geo.metresPerDegree
        let shrink = cos(p.latitude * Double.pi / 180)
        func xy(_ q: GeoPoint) -> (Double, Double) {
            ((q.longitude - p.longitude) * metresPerDegree * shrink, (q.latitude - p.latitude) * metresPerDegree)
        }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(max(-(ax * dx + ay * dy) / length2, 0), 1) : 0
            let x = ax + t * dx, y = ay + t * dy
            best = min(best, (x * x + y * y).squareRoot())
        }
        return best
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint"),
                   "xmllint is not installed (apt-get install -y libxml2-utils)"))
    func testDriveGPXValidatesAgainstTheGPX11Schema() throws {
        let xmllint = "/usr/bin/xmllint"
        let schema = try unwrap(Bundle.module.url(forResource: "gpx-1.1-subset", withExtension: "xsd", subdirectory: "Fixtures"))
        _ = try drive(["--gap", "20:5", "--rate", "2"])  // two trksegs, fractional times
        let gpx = folder.appendingPathComponent("trace.gpx")
        let outcome = try CLIRunner.run(URL(fileURLWithPath: xmllint), ["--noout", "--schema", schema.path, gpx.path])
        expectEqual(outcome.status, 0, outcome.stderr)
        expectTrue(outcome.stderr.contains("validates"), outcome.stderr)
        // The schema is not a rubber stamp: a point without lon fails it.
        let broken = folder.appendingPathComponent("broken.gpx")
        try String(contentsOf: gpx, encoding: .utf8).replacingOccurrences(of: " lon=\"106.7004044\"", with: "")
            .write(to: broken, atomically: true, encoding: .utf8)
        expectNotEqual(try CLIRunner.run(URL(fileURLWithPath: xmllint), ["--noout", "--schema", schema.path, broken.path]).status, 0)
    }

    @Test func testDriveWithoutNoiseStaysOnTheRouteForTheRoutesTime() throws {
        let points = try trackPoints(try drive([]))
        let line = try routePolyline()
        let worst = points.map { distance(GeoPoint($0.lat, $0.lon), to: line) }.max() ?? .infinity
        expectLessThan(worst, 10, "max distance from the route \(worst) m")
        expectLessThan(worst, 0.05)  // on the line up to the 7 printed decimals
        print(String(format: "drive: %d fixes, max distance from the route %.4f m", points.count, worst))
        expectEqual(points.first?.seconds, 0)
        expectEqual(zip(points, points.dropFirst()).map { $1.seconds - $0.seconds }.allSatisfy { $0 == 1 }, true)
        let graph = try unwrap(try RoadGraphStore.load(databasePath: try TestDataset.path()))
        let route = try Router.route(graph, points: [line.first!, line.last!], vehicle: .car)
        // The first tick at or after arrival: the trace lasts the route's time.
        expectEqual(points.last?.seconds, (Double(route.time) / 1000).rounded(.up))
        expectEqual(points.first.map { GeoPoint($0.lat, $0.lon) }.map { Geo.distance($0, line[0]) } ?? 1, 0, accuracy: 0.05)
        expectEqual(points.last.map { GeoPoint($0.lat, $0.lon) }.map { Geo.distance($0, line[line.count - 1]) } ?? 1, 0, accuracy: 0.05)
        // Twice as fast: half the time.
        let fast = try trackPoints(try drive(["--speed-factor", "2"], to: "fast.gpx"))
        expectEqual(fast.last?.seconds, (Double(route.time) / 2000).rounded(.up))
    }

    @Test func testDriveIsByteIdenticalForASeedAndDiffersForAnother() throws {
        let a = try drive(["--noise", "4", "--seed", "11"], to: "a.gpx")
        expectEqual(a, try drive(["--noise", "4", "--seed", "11"], to: "b.gpx"))
        expectNotEqual(a, try drive(["--noise", "4", "--seed", "12"], to: "c.gpx"))
        expectEqual(try drive([], to: "d.nmea"), try drive([], to: "e.nmea"))
        let noisy = try trackPoints(a)
        let line = try routePolyline()
        let off = noisy.map { distance(GeoPoint($0.lat, $0.lon), to: line) }
        expectGreaterThan(off.max() ?? 0, 1)  // the noise is there
        expectLessThan(off.max() ?? .infinity, 4 * 6)
    }

    @Test func testDriveNMEASentencesHaveValidChecksumsAndSteadyTimes() throws {
        let text = try drive(["--format", "nmea", "--rate", "2"], to: "trace.txt")
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        expectGreaterThan(lines.count, 300)
        var rmcTimes: [Double] = []
        let line = try routePolyline()
        for sentence in lines {
            expectTrue(sentence.hasPrefix("$"), sentence)
            let parts = sentence.dropFirst().split(separator: "*", omittingEmptySubsequences: false)
            expectEqual(parts.count, 2, sentence)
            let body = String(parts[0])
            expectEqual(String(parts[1]), String(format: "%02X", body.utf8.reduce(UInt8(0), ^)), sentence)
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let (latIndex, hasFix): (Int, Bool) = fields[0] == "GPRMC" ? (3, fields[2] == "A") : (2, fields[6] == "1")
            expectTrue(fields[0] == "GPRMC" || fields[0] == "GPGGA", sentence)
            expectTrue(hasFix, sentence)
            // ddmm.mmmm,N,dddmm.mmmm,E
            let lat = fields[latIndex], lon = fields[latIndex + 2]
            expectTrue(lat.range(of: #"^\d{4}\.\d{4}$"#, options: .regularExpression) != nil, lat)
            expectTrue(lon.range(of: #"^\d{5}\.\d{4}$"#, options: .regularExpression) != nil, lon)
            expectEqual([fields[latIndex + 1], fields[latIndex + 3]], ["N", "E"])
            let latitude = Double(lat.prefix(2))! + Double(lat.dropFirst(2))! / 60
            let longitude = Double(lon.prefix(3))! + Double(lon.dropFirst(3))! / 60
            expectLessThan(distance(GeoPoint(latitude, longitude), to: line), 1, sentence)  // 0.0001' ≈ 0.19 m
            if fields[0] == "GPRMC" {
                expectEqual(fields[9], "010126")
                let t = fields[1]
                rmcTimes.append(Double(t.prefix(2))! * 3600 + Double(t.dropFirst(2).prefix(2))! * 60 + Double(t.dropFirst(4))!)
            }
        }
        expectEqual(rmcTimes.first, 8 * 3600)
        for (a, b) in zip(rmcTimes, rmcTimes.dropFirst()) { expectEqual(b - a, 0.5, accuracy: 1e-9) }
    }

    @Test func testDriveGapStopAndDetour() throws {
        let line = try routePolyline()
        let gap = try trackPoints(try drive(["--gap", "20:10"], to: "gap.gpx"))
        expectFalse(gap.contains { (20..<30).contains($0.seconds) })
        expectTrue(gap.contains { $0.seconds == 19 } && gap.contains { $0.seconds == 30 })

        let stop = try trackPoints(try drive(["--stop", "20:15"], to: "stop.gpx"))
        let still = stop.filter { (20...35).contains($0.seconds) }
        expectEqual(still.count, 16)
        expectEqual(Set(still.map { "\($0.lat),\($0.lon)" }).count, 1)
        expectNotEqual("\(stop[36].lat),\(stop[36].lon)", "\(stop[35].lat),\(stop[35].lon)")

        let detour = try trackPoints(try drive(["--detour", "150@30"], to: "detour.gpx"))
        let off = detour.map { distance(GeoPoint($0.lat, $0.lon), to: line) }
        let worst = off.max() ?? 0
        expectEqual(worst, 150, accuracy: 1, "max distance from the route during the detour")
        expectLessThan(off.prefix(30).max() ?? 1, 0.05)  // on the route before it
        expectLessThan(off.suffix(30).max() ?? 1, 0.05)  // and back on it after
        expectGreaterThan(detour.count, gap.count)  // the detour took time
    }

    @Test func testDriveHelpListsItsOptions() throws {
        let help = try CLIRunner.run(binary, ["drive", "--help"])
        expectEqual(help.status, 0)
        for flag in ["--from", "--to", "--via", "--vehicle", "--format", "--out", "--db", "--seed", "--rate", "--speed-factor",
                     "--noise", "--stop", "--detour", "--gap", "--start"] {
            expectTrue(help.stdout.contains(flag), flag)
        }
        expectTrue(try CLIRunner.run(binary, ["--help"]).stdout.contains("\n  drive "))
    }

    @Test func testDriveBadInputIsOneLine() throws {
        let db = try TestDataset.path()
        func outcome(_ arguments: [String]) throws -> CLIRunner.Outcome {
            try CLIRunner.run(binary, ["drive", "--db", db] + arguments)
        }
        for (arguments, status) in [
            (["--from", "10.77", "--to", Self.to], Int32(64)),
            (["--from", "91,106", "--to", Self.to], 64),
            (["--from", Self.from], 64),
            (["--from", Self.from, "--to", Self.to, "--vehicle", "boat"], 64),
            (["--from", Self.from, "--to", Self.to, "--rate", "0"], 64),
            (["--from", Self.from, "--to", Self.to, "--stop", "5"], 64),
            (["--from", Self.from, "--to", Self.to, "--stop", "5000:10"], 64),
            (["--from", Self.from, "--to", Self.to, "--start", "yesterday"], 64),
            (["--from", "1,1", "--to", Self.to], 1),
            (["--from", Self.from, "--to", Self.to, "--out", folder.path], 1),
            (["--from", Self.from, "--to", Self.to, "--db", folder.appendingPathComponent("none.sqlite").path], 1),
        ] {
            let result = try outcome(arguments)
            expectEqual(result.status, status, "\(arguments): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            expectEqual(lines.count, 1, "\(arguments): \(result.stderr)")
            expectTrue(lines.first?.hasPrefix("vietmap-sim: ") ?? false, result.stderr)
            expectTrue(result.stdout.isEmpty, "\(arguments)")
        }
        expectTrue(try outcome(["--from", "1,1", "--to", Self.to]).stderr.contains("no road for car within 1000 m of --from 1,1"))
        expectTrue(try outcome(["--from", Self.from, "--to", "21.0285,105.8542"]).stderr.contains("no route for car"))
        // A failed drive leaves nothing in the folder, not even a temporary file.
        let existing = folder.appendingPathComponent("kept.gpx")
        try "old".write(to: existing, atomically: true, encoding: .utf8)
        expectEqual(try outcome(["--from", "1,1", "--to", Self.to, "--out", existing.path]).status, 1)
        expectEqual(try String(contentsOf: existing, encoding: .utf8), "old")
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.gpx"])
    }
}
