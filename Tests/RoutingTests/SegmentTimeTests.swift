import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// `Route.segmentSeconds`: one time per segment, each the length of the segment at its edge's
/// speed, adding up to every instruction's time and to the route's.
@Suite final class SegmentTimeTests {
    @Test func testSegmentSecondsAreTheEdgesTimesAndSumToTheInstructions() throws {
        let (_, graph) = try RealDataTests.load()
        var rng = SeededRNG(seed: 20)
        var checked = 0, differingFromAnEvenSpread = 0
        while checked < 40 {
            let a = graph.coordinate(ofNode: Int.random(in: 0..<graph.nodeCount, using: &rng))
            let b = graph.coordinate(ofNode: Int.random(in: 0..<graph.nodeCount, using: &rng))
            let via = graph.coordinate(ofNode: Int.random(in: 0..<graph.nodeCount, using: &rng))
            guard let route = try? Router.route(graph, points: [a, via, b], vehicle: checked % 2 == 0 ? .car : .motorcycle),
                  route.points.count > 2 else { continue }
            checked += 1
            expectEqual(route.segmentSeconds.count, route.points.count - 1)
            expectTrue(route.segmentSeconds.allSatisfy { $0 >= 0 && $0.isFinite })
            expectEqual(route.segmentSeconds.reduce(0, +), Double(route.time) / 1000, accuracy: 0.001)
            for instruction in route.instructions where instruction.interval.count > 1 {
                let range = instruction.interval.lowerBound..<instruction.interval.upperBound
                let seconds = range.map { route.segmentSeconds[$0] }.reduce(0, +)
                expectEqual(seconds, Double(instruction.time) / 1000, accuracy: 0.002)
                // Speeds within one instruction may differ (a street changing class): not an even spread.
                let speeds = range.compactMap { i -> Double? in
                    let s = route.segmentSeconds[i]
                    return s > 0 ? Geo.distance(route.points[i], route.points[i + 1]) / s : nil
                }
                if let low = speeds.min(), let high = speeds.max(), high - low > 0.5 { differingFromAnEvenSpread += 1 }
            }
        }
        print("segmentSeconds: \(checked) routes; \(differingFromAnEvenSpread) instructions hold roads of different speeds")
    }
}
