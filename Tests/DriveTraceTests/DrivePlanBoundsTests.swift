import DriveTrace
import Foundation
import Routing
import SeededRandom
import TestExpectations
import Testing

/// A plan's size is known before its fixes are made: more than `DrivePlan.maxFixes` is refused
/// up front (20 day-long stops at 50 Hz were 86 million fixes, gigabytes, before), and any number
/// of gaps is applied in one pass — with the same fixes as testing every gap at every tick.
@Suite final class DrivePlanBoundsTests {
    /// 11 points 100 m apart going north, 10 s each (1 km in 100 s).
    let straight: RouteTimeline = {
        let metresPerDegree = Geo.metresPerDegree
        let points = (0...10).map { GeoPoint(10.77 + Double($0) * 100 / metresPerDegree, 106.70) }
        return RouteTimeline(points: points, times: (0...10).map { Double($0) * 10 })
    }()

    @Test func testTheFixCountIsKnownWithoutMakingThem() throws {
        expectEqual(try DrivePlan().fixCount(along: straight), 101)
        expectEqual(try DrivePlan(rate: 50, speedFactor: 0.5).fixCount(along: straight), 10_001)
        let stopped = DrivePlan(rate: 2, events: DriveEvents(stops: [.init(at: 10, duration: 30)]))
        expectEqual(try stopped.fixCount(along: straight), try stopped.fixes(along: straight).count)
    }

    @Test func testAPlanOverTheCapIsRefusedBeforeAnyFixIsMade() throws {
        let stops = Array(repeating: DriveEvents.Stop(at: 0, duration: 86_400), count: 20)
        let plan = DrivePlan(rate: 50, events: DriveEvents(stops: stops))
        expectThrowsError(try plan.fixes(along: straight)) { error in
            guard case let .tooManyFixes(fixes, seconds, rate, _) = error as? DrivePlanError else { return fail("\(error)") }
            expectEqual(fixes, 86_405_001)
            expectEqual(seconds, 1_728_100)
            expectEqual(rate, 50)
            expectTrue("\(error)".contains("at most 1000000") && "\(error)".contains("--rate 50"), "\(error)")
        }
        expectThrowsError(try plan.fixCount(along: straight))
        // Just under the cap is made: 100 s / 0.01 at 999.99 Hz… the options stop at 50 Hz, the plan does not.
        let edge = DrivePlan(rate: 9_999.99, speedFactor: 1)
        expectEqual(try edge.fixCount(along: straight), 999_999 + 1)
        expectThrowsError(try DrivePlan(rate: 10_000).fixCount(along: straight))
    }

    @Test func testManyOverlappingGapsGiveWhatEveryGapAtEveryTickGives() throws {
        var generator = SplitMix64(seed: 3)
        let gaps = (0..<1_000).map { _ in
            DriveEvents.Gap(at: generator.nextUnit() * 100, duration: generator.nextUnit() * 3)
        }
        let plan = DrivePlan(rate: 10, events: DriveEvents(gaps: gaps))
        let fixes = try plan.fixes(along: straight)
        let all = try DrivePlan(rate: 10).fixes(along: straight)
        let expected = all.filter { fix in !gaps.contains { fix.time >= $0.at && fix.time < $0.at + $0.duration } }
        expectEqual(fixes.map(\.time), expected.map(\.time))
        expectLessThan(fixes.count, all.count - 100, "the gaps removed fixes")
        // A fix right after a gap starts a new track segment, others do not.
        let times = Set(fixes.map(\.time))
        for (index, fix) in fixes.enumerated().dropFirst() {
            let previousTick = (fix.time * 10 - 1).rounded() / 10
            expectEqual(fix.resumesAfterGap, !times.contains(previousTick), "fix \(index) at \(fix.time)")
        }
    }
}
