import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// `TourPlanner`: optimality (brute force) for small tours, heuristic ≥ nearest neighbour, determinism, routes.
@Suite final class TourPlannerTests {
    /// All orders of `items`.
    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        var out: [[Int]] = []
        for (k, first) in items.enumerated() {
            var rest = items
            rest.remove(at: k)
            for p in permutations(rest) { out.append([first] + p) }
        }
        return out
    }

    static func cost(_ order: [Int], _ costs: [[Double]], roundTrip: Bool) -> Double {
        var total = 0.0
        for k in 1..<order.count { total += costs[order[k - 1]][order[k]] }
        if roundTrip { total += costs[order.last!][order[0]] }
        return total
    }

    /// The route re-snaps the snapped points: equal up to floating-point noise.
    func assertSameWaypoints(_ got: [GeoPoint], _ expected: [GeoPoint], filePath: String = #filePath, line: Int = #line) {
        expectEqual(got.count, expected.count, filePath: filePath, line: line)
        for (g, e) in zip(got, expected) { expectLessThan(Geo.distance(g, e), 0.01, filePath: filePath, line: line) }
    }

    static func randomCosts(_ n: Int, rng: inout SeededRNG, asymmetric: Bool) -> [[Double]] {
        let xs = (0..<n).map { _ in Double.random(in: 0...1000, using: &rng) }
        let ys = (0..<n).map { _ in Double.random(in: 0...1000, using: &rng) }
        return (0..<n).map { i in
            (0..<n).map { j in
                let d = ((xs[i] - xs[j]) * (xs[i] - xs[j]) + (ys[i] - ys[j]) * (ys[i] - ys[j])).squareRoot()
                return i == j ? 0 : d * (asymmetric ? Double.random(in: 1...1.6, using: &rng) : 1)
            }
        }
    }

    @Test func testRoundTripOverFivePointsIsNoLongerThanAnyPermutation() throws {
        let (_, graph) = try RealDataTests.load()
        var rng = SeededRNG(seed: 55)
        let snaps = TravelMatrixTests.connectedSnaps(graph, count: 5, vehicle: .car, rng: &rng)
        let points = snaps.map(\.point)
        let tour = try TourPlanner.route(graph, points: points, vehicle: .car, roundTrip: true)
        let n = 5
        let costs = (0..<n).map { i in (0..<n).map { j in tour.matrix[i, j]?.seconds ?? .infinity } }
        expectTrue(tour.plan.isExact)
        expectEqual(tour.plan.order.first, 0)
        expectEqual(tour.plan.order.sorted(), Array(0..<n))
        var worst = 0.0
        for rest in Self.permutations(Array(1..<n)) {
            let c = Self.cost([0] + rest, costs, roundTrip: true)
            expectLessThanOrEqual(tour.plan.cost, c + 1e-9, "order \([0] + rest)")
            worst = max(worst, c)
        }
        expectLessThan(tour.plan.cost, worst, "the points should make the order matter")
        // The drawable route: through the points in order and back, one via instruction per intermediate stop.
        expectEqual(tour.route.legs.count, n)
        expectEqual(tour.route.weight, tour.plan.cost, accuracy: 1e-6 * tour.plan.cost)
        expectEqual(tour.route.instructions.filter { $0.sign == Instruction.reachedVia }.count, n - 1)
        assertSameWaypoints(tour.route.snappedWaypoints, (tour.plan.order + [0]).map { snaps[$0].point })
        assertConsistent(tour.route)
    }

    @Test func testHeldKarpMatchesBruteForceOnRandomMatrices() {
        var rng = SeededRNG(seed: 8)
        for trial in 0..<30 {
            let n = 3 + trial % 6
            let costs = Self.randomCosts(n, rng: &rng, asymmetric: trial % 2 == 1)
            let roundTrip = trial % 3 != 0
            let start = trial % n
            let end: Int? = roundTrip || trial % 4 == 0 ? nil : (start + 1) % n
            let plan = TourPlanner.plan(costs: costs, roundTrip: roundTrip, start: start, end: end)
            var best = Double.infinity
            let others = (0..<n).filter { $0 != start }
            for rest in Self.permutations(others) where end == nil || rest.last == end {
                best = min(best, Self.cost([start] + rest, costs, roundTrip: roundTrip))
            }
            expectTrue(plan.isExact)
            expectEqual(plan.order.first, start)
            if let end { expectEqual(plan.order.last, end) }
            expectEqual(plan.order.sorted(), Array(0..<n))
            expectEqual(plan.cost, best, accuracy: 1e-9 * best, "trial \(trial)")
            expectEqual(plan.cost, Self.cost(plan.order, costs, roundTrip: roundTrip), accuracy: 1e-9 * best)
        }
    }

    @Test func testHeuristicIsNoWorseThanNearestNeighbourAndNearExact() {
        var rng = SeededRNG(seed: 1215)
        var strictlyBetter = 0
        for trial in 0..<24 {
            let n = 12 + trial % 4
            let costs = Self.randomCosts(n, rng: &rng, asymmetric: trial % 2 == 0)
            let roundTrip = trial % 3 != 2
            let end: Int? = roundTrip || trial % 2 == 0 ? nil : n - 1
            let plan = TourPlanner.plan(costs: costs, roundTrip: roundTrip, end: end)
            let problem = TourProblem(costs: costs, roundTrip: roundTrip, start: 0, end: end)
            let greedy = Self.cost(problem.nearestNeighbour(), costs, roundTrip: roundTrip)
            expectFalse(plan.isExact)
            expectEqual(plan.order.first, 0)
            if let end { expectEqual(plan.order.last, end) }
            expectEqual(plan.order.sorted(), Array(0..<n))
            expectLessThanOrEqual(plan.cost, greedy + 1e-9, "trial \(trial)")
            if plan.cost < greedy - 1e-6 { strictlyBetter += 1 }
        }
        expectGreaterThan(strictlyBetter, 12, "2-opt/Or-opt should usually improve on the greedy tour")
        // Against the optimum where it is still cheap to know (10 points, exact vs heuristic on the same input).
        var worstRatio = 1.0
        for _ in 0..<20 {
            let costs = Self.randomCosts(10, rng: &rng, asymmetric: false)
            let problem = TourProblem(costs: costs, roundTrip: true, start: 0, end: nil)
            let exact = problem.penalized(problem.heldKarp())
            let heuristic = problem.penalized(problem.improved(problem.nearestNeighbour()))
            expectGreaterThanOrEqual(heuristic, exact - 1e-9)
            worstRatio = max(worstRatio, heuristic / exact)
        }
        expectLessThan(worstRatio, 1.15, "heuristic within 15 % of the optimum on 10 random points")
        print(String(format: "heuristic: %d/24 strictly better than nearest neighbour; worst 10-point ratio to exact %.3f",
                     strictlyBetter, worstRatio))
    }

    @Test func testDeterministicAndFixedEnds() throws {
        var rng = SeededRNG(seed: 99)
        for n in [6, 14] {
            let costs = Self.randomCosts(n, rng: &rng, asymmetric: true)
            let a = TourPlanner.plan(costs: costs, roundTrip: false, start: 2, end: 4)
            let b = TourPlanner.plan(costs: costs, roundTrip: false, start: 2, end: 4)
            expectEqual(a, b)
            expectEqual(a.order.first, 2)
            expectEqual(a.order.last, 4)
            // An end equal to the start is a round trip.
            expectEqual(TourPlanner.plan(costs: costs, roundTrip: false, start: 3, end: 3),
                           TourPlanner.plan(costs: costs, roundTrip: true, start: 3))
        }
        // Ties: all costs equal → the index order.
        let flat = (0..<12).map { i in (0..<12).map { j in i == j ? 0.0 : 1.0 } }
        expectEqual(TourPlanner.plan(costs: flat, roundTrip: true).order, Array(0..<12))
        expectEqual(TourPlanner.plan(costs: [[0]], roundTrip: true).order, [0])
    }

    @Test func testUnreachableLegsAreAvoidedWhenPossible() {
        // 0 → 2 and 1 → 0 missing: the only finite round trip is 0 → 1 → 2 → 0.
        let inf = Double.infinity
        let costs: [[Double]] = [[0, 5, inf], [inf, 0, 1], [1, 9, 0]]
        let plan = TourPlanner.plan(costs: costs, roundTrip: true)
        expectEqual(plan.order, [0, 1, 2])
        expectEqual(plan.cost, 7)
        // No finite tour at all: infinite cost.
        let cut: [[Double]] = [[0, inf, inf], [inf, 0, 1], [inf, 1, 0]]
        expectEqual(TourPlanner.plan(costs: cut, roundTrip: true).cost, inf)
    }

    @Test func testTwelvePointTourOnRealGraph() throws {
        let (_, graph) = try RealDataTests.load()
        var rng = SeededRNG(seed: 1212)
        let snaps = TravelMatrixTests.connectedSnaps(graph, count: 12, vehicle: .motorcycle, rng: &rng)
        let open = try TourPlanner.route(graph, points: snaps.map(\.point), vehicle: .motorcycle, roundTrip: false, end: 11)
        expectFalse(open.plan.isExact)
        expectEqual(open.plan.order.first, 0)
        expectEqual(open.plan.order.last, 11)
        expectEqual(open.route.legs.count, 11)
        expectEqual(open.route.weight, open.plan.cost, accuracy: 1e-6 * open.plan.cost)
        assertSameWaypoints(open.route.snappedWaypoints, open.plan.order.map { snaps[$0].point })
        assertConsistent(open.route)
        let costs = (0..<12).map { i in (0..<12).map { j in open.matrix[i, j]?.seconds ?? .infinity } }
        let problem = TourProblem(costs: costs, roundTrip: false, start: 0, end: 11)
        expectLessThanOrEqual(open.plan.cost, Self.cost(problem.nearestNeighbour(), costs, roundTrip: false) + 1e-9)
        expectLessThanOrEqual(open.plan.cost, Self.cost(Array(0..<12), costs, roundTrip: false) + 1e-9,
                                 "no worse than the given order")
        let again = try TourPlanner.route(graph, points: snaps.map(\.point), vehicle: .motorcycle, roundTrip: false, end: 11)
        expectEqual(again.plan, open.plan)
        expectThrowsError(try TourPlanner.route(graph, points: [snaps[0].point], vehicle: .car, roundTrip: true)) {
            expectEqual($0 as? RoutingError, .tooFewPoints)
        }
    }
}
