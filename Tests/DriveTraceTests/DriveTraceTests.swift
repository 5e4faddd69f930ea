import DriveTrace
import Foundation
import Routing
import SeededRandom
import TestExpectations
import Testing

/// The trace layer without a dataset: the generator, the clock, NMEA checksums, and a plan over
/// a straight synthetic route (1 km north in 100 s).
@Suite final class DriveTraceTests {
    /// 11 points 100 m apart going north, 10 s each.
    let straight: RouteTimeline = {
        let metresPerDegree = Geo.metresPerDegree
        let points = (0...10).map { GeoPoint(10.77 + Double($0) * 100 / metresPerDegree, 106.70) }
        return RouteTimeline(points: points, times: (0...10).map { Double($0) * 10 })
    }()

    @Test func testSplitMix64MatchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        expectEqual(generator.next(), 0xE220_A839_7B1D_CDAF)
        expectEqual(generator.next(), 0x6E78_9E6A_A1B9_65F4)
        var unit = SplitMix64(seed: 42)
        for _ in 0..<1000 { expectTrue((0..<1).contains(unit.nextUnit())) }
    }

    @Test func testNMEAChecksumOfTheTextbookSentence() {
        expectEqual(NMEAWriter.checksum("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"), "47")
    }

    @Test func testNMEAPositionsAndHemispheres() {
        let fix = DriveFix(time: 1.5, point: GeoPoint(-33.8568, -70.6693), speed: 10, course: 270)
        let text = NMEAWriter(start: 1_767_254_400).render([fix])
        expectEqual(text, "$GPRMC,080001.50,A,3351.4080,S,07040.1580,W,19.4,270.0,010126,,,A*67\r\n"
                           + "$GPGGA,080001.50,3351.4080,S,07040.1580,W,1,08,1.0,0.0,M,0.0,M,,*51\r\n")
        for line in text.split(separator: "\r\n") {
            let body = line.dropFirst().prefix { $0 != "*" }
            expectEqual(String(line.suffix(2)), NMEAWriter.checksum(String(body)))
        }
    }

    @Test func testTraceTimeParsesAndFormatsUTC() throws {
        let start = try unwrap(TraceTime(iso8601: "2026-01-01T08:00:00Z"))
        expectEqual(start.milliseconds, 1_767_254_400_000)
        expectEqual(TraceTime(start: start.milliseconds / 1000, plus: 3661.5).iso8601, "2026-01-01T09:01:01.500Z")
        expectEqual(TraceTime(iso8601: "2024-02-29T23:59:59Z")?.iso8601, "2024-02-29T23:59:59Z")
        expectNil(TraceTime(iso8601: "2025-02-29T00:00:00Z"))
        expectNil(TraceTime(iso8601: "2026-01-01 08:00:00"))
    }

    @Test func testFixesFollowTheRouteTimesAndEndAtArrival() throws {
        let fixes = try DrivePlan().fixes(along: straight)
        expectEqual(fixes.count, 101)
        expectEqual(fixes.last?.time, 100)
        expectEqual(fixes[50].point.latitude, straight.points[5].latitude, accuracy: 1e-9)
        expectEqual(fixes[10].speed, 10, accuracy: 1e-6)
        expectEqual(fixes.last?.speed, 0)
        let fast = try DrivePlan(rate: 2, speedFactor: 2).fixes(along: straight)
        expectEqual(fast.count, 101)
        expectEqual(fast.last?.time, 50)
    }

    @Test func testStopsAndDetoursLengthenTheTraceGapsDoNot() throws {
        let events = DriveEvents(stops: [.init(at: 20, duration: 30)], detours: [.init(at: 60, meters: 100)],
                                 gaps: [.init(at: 5, duration: 10)])
        let plan = DrivePlan(events: events)
        // 100 s of route + 30 s stop + 200 m out and back at 10 m/s.
        expectEqual(try plan.duration(along: straight), 150, accuracy: 1e-9)
        let fixes = try plan.fixes(along: straight)
        expectFalse(fixes.contains { (5..<15).contains($0.time) })
        expectTrue(try unwrap(fixes.first { $0.time == 15 }).resumesAfterGap)
        let stopped = fixes.filter { (20...50).contains($0.time) }
        expectEqual(Set(stopped.map(\.point)).count, 1)
        expectTrue(stopped.dropLast().allSatisfy { $0.speed == 0 })  // t = 50 drives off
        let apex = try unwrap(fixes.first { $0.time == 70 })  // 10 s out at 10 m/s
        expectEqual(Geo.distance(apex.point, straight.position(at: 30).point), 100, accuracy: 0.5)
        expectThrowsError(try DrivePlan(events: DriveEvents(stops: [.init(at: 101, duration: 1)])).fixes(along: straight))
    }

    @Test func testNoiseIsSeeded() throws {
        let a = try DrivePlan(noiseMeters: 5, seed: 7).fixes(along: straight)
        expectEqual(a, try DrivePlan(noiseMeters: 5, seed: 7).fixes(along: straight))
        expectNotEqual(a, try DrivePlan(noiseMeters: 5, seed: 8).fixes(along: straight))
        let offsets = zip(a, try DrivePlan().fixes(along: straight)).map { Geo.distance($0.point, $1.point) }
        let rms = (offsets.map { $0 * $0 }.reduce(0, +) / Double(offsets.count)).squareRoot()
        expectEqual(rms, 5 * 2.0.squareRoot(), accuracy: 2)  // two axes of σ = 5 m
    }
}
