import ArrayBlob
import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// `TravelMatrix` cells against `Router.route` / `Router.travelTime` for the same pairs.
@Suite final class TravelMatrixTests {
    /// Random points inside the graph's node bounding box, snapped (most fall inside edges, not on nodes).
    static func randomSnaps(_ graph: RoadGraph, count: Int, vehicle: Vehicle, rng: inout SeededRNG) -> [Snap] {
        let lats = graph.storage.nodeLatE7.map { Double($0) / 1e7 }, lons = graph.storage.nodeLonE7.map { Double($0) / 1e7 }
        let latRange = lats.min()!...lats.max()!, lonRange = lons.min()!...lons.max()!
        var snaps: [Snap] = []
        while snaps.count < count {
            let lat = Double.random(in: latRange, using: &rng), lon = Double.random(in: lonRange, using: &rng)
            if let s = graph.snap(latitude: lat, longitude: lon, vehicle: vehicle, maxDistanceMeters: 150) { snaps.append(s) }
        }
        return snaps
    }

    /// `count` random snapped points, every pair of which is connected both ways (retries with new points).
    static func connectedSnaps(_ graph: RoadGraph, count: Int, vehicle: Vehicle, rng: inout SeededRNG) -> [Snap] {
        while true {
            let snaps = randomSnaps(graph, count: count, vehicle: vehicle, rng: &rng)
            let m = try! TravelMatrix.compute(graph, sources: snaps, destinations: snaps, vehicle: vehicle)
            if m.cells.allSatisfy({ $0 != nil }) { return snaps }
        }
    }

    /// A matrix cell against the route for that pair: weight exactly (same optimal cost), time and distance
    /// within 1 % (the route rounds per instruction; equally fast paths may differ in length).
    func assertCell(_ cell: TravelMatrix.Cell?, equals route: Route?, _ message: String,
                    filePath: String = #filePath, line: Int = #line) {
        guard let route else { expectNil(cell, message, filePath: filePath, line: line); return }
        guard let cell else { fail("nil cell but a route exists: " + message, filePath: filePath, line: line); return }
        expectEqual(cell.seconds, route.weight, accuracy: 1e-9 * max(1, route.weight), message, filePath: filePath, line: line)
        expectEqual(cell.seconds * 1000, Double(route.time), accuracy: 2 + Double(route.time) * 0.01, message,
                       filePath: filePath, line: line)
        expectEqual(cell.meters, route.distance, accuracy: 0.2 + route.distance * 0.01, message, filePath: filePath, line: line)
    }

    @Test func testTenByTenMatchesRouterOnRealGraphForTwoVehicles() throws {
        let (_, graph) = try RealDataTests.load()
        let ws = RouterWorkspace(graph: graph)
        var rng = SeededRNG(seed: 1010)
        for vehicle in [Vehicle.car, .motorcycle] {
            let sources = Self.randomSnaps(graph, count: 10, vehicle: vehicle, rng: &rng)
            var destinations = Self.randomSnaps(graph, count: 8, vehicle: vehicle, rng: &rng)
            // The same position as a source, and a second position on that source's edge.
            destinations.append(sources[3])
            let e = sources[5].edge
            let other = graph.makeSnap(edge: e, segment: 0, t: sources[5].fraction < 0.5 ? 0.9 : 0.1,
                                       queryLatitude: 0, queryLongitude: 0)
            destinations.append(other)
            let matrix = try TravelMatrix.compute(graph, sources: sources, destinations: destinations, vehicle: vehicle,
                                                  workspace: ws)
            expectEqual(matrix.sourceCount, 10)
            expectEqual(matrix.destinationCount, 10)
            var differentLength = 0, sumSeconds = 0.0
            for i in 0..<10 {
                for j in 0..<10 {
                    let route = try? Router.route(graph, snaps: [sources[i], destinations[j]], vehicle: vehicle, workspace: ws)
                    assertCell(matrix[i, j], equals: route, "\(vehicle) \(i)->\(j)")
                    if let route, let cell = matrix[i, j] {
                        if abs(cell.meters - route.distance) > 0.2 { differentLength += 1 }
                        sumSeconds += cell.seconds
                    }
                }
            }
            // On four threads, each with a workspace of its own, every cell is the same.
            let parallel = try TravelMatrix.compute(graph, sources: sources, destinations: destinations, vehicle: vehicle,
                                                    parallelism: 4)
            expectEqual(parallel, matrix, "parallel searches give the sequential matrix")
            expectEqual(matrix[3, 8]?.seconds, 0, "same position")
            expectEqual(matrix[3, 8]?.meters, 0)
            expectGreaterThan(sumSeconds, 0)
            print("matrix \(vehicle) 10×10: \(matrix.settledStates) states settled, \(differentLength) cells of another length (ties)")
        }
    }

    @Test func testSameEdgePartialValuesAndOnewayLoop() throws {
        let (_, graph) = try RealDataTests.load()
        let ws = RouterWorkspace(graph: graph)
        // A one-way edge for cars longer than 60 m: behind-the-start targets need a loop around the block.
        let s = graph.storage
        let e = try unwrap((0..<graph.edgeCount).first { e in
            graph.isAccessible(edge: e, forward: true, vehicle: .car) && !graph.isAccessible(edge: e, forward: false, vehicle: .car)
                && s.edgeDistance[e] > 60 && graph.segmentCount(edge: e) == 1 && graph.isSnappable(edge: e, vehicle: .car)
        })
        let a = graph.makeSnap(edge: e, segment: 0, t: 0.3, queryLatitude: 0, queryLongitude: 0)
        let b = graph.makeSnap(edge: e, segment: 0, t: 0.7, queryLatitude: 0, queryLongitude: 0)
        let matrix = try TravelMatrix.compute(graph, sources: [a, b], destinations: [a, b], vehicle: .car, workspace: ws)
        let forward = try unwrap(matrix[0, 1])
        expectEqual(forward.meters, b.distanceAlong - a.distanceAlong, accuracy: 1e-9)
        expectEqual(forward.seconds, (b.distanceAlong - a.distanceAlong) * 3.6 / graph.speedKmh(edge: e, vehicle: .car),
                       accuracy: 1e-6)
        expectEqual(matrix[0, 0], TravelMatrix.Cell(seconds: 0, meters: 0))
        expectEqual(matrix[1, 1], TravelMatrix.Cell(seconds: 0, meters: 0))
        for (i, j) in [(0, 1), (1, 0)] {
            let route = try? Router.route(graph, snaps: [[a, b][i], [a, b][j]], vehicle: .car, workspace: ws)
            assertCell(matrix[i, j], equals: route, "same edge \(i)->\(j)")
        }
        if let back = matrix[1, 0] { expectGreaterThan(back.meters, s.edgeDistance[e], "against the one-way: a loop") }
        // Foot may walk back along the edge.
        let foot = try TravelMatrix.compute(graph, sources: [b], destinations: [a], vehicle: .foot, workspace: ws)
        expectEqual(try unwrap(foot[0, 0]).meters, b.distanceAlong - a.distanceAlong, accuracy: 1e-9)
    }

    @Test func testUnreachablePairsAreNil() throws {
        // 1 — 2 (two-way), 2 → 3 (one-way), and a separate road 4 — 5.
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 200, 0); net.node(3, 400, 0); net.node(4, 0, 500); net.node(5, 300, 500)
        net.way([1, 2], ["highway": "residential"])
        net.way([2, 3], ["highway": "residential", "oneway": "yes"])
        net.way([4, 5], ["highway": "residential"])
        let graph = net.build()
        func node(_ x: Double, _ y: Double) -> Snap {
            let p = NetBuilder.point(x, y)
            return graph.position(ofNode: (0..<graph.nodeCount).first { graph.coordinate(ofNode: $0) == p }!)
        }
        let points = [node(0, 0), node(400, 0), node(0, 500)]
        let matrix = try TravelMatrix.compute(graph, sources: points, destinations: points, vehicle: .car)
        let ws = RouterWorkspace(graph: graph)
        var nils = 0
        for i in 0..<3 {
            for j in 0..<3 {
                let expected = Router.travelTime(graph, from: points[i], to: points[j], vehicle: .car, workspace: ws)
                expectEqual(matrix[i, j]?.seconds, expected?.seconds, "\(i)->\(j)")
                if matrix[i, j] == nil { nils += 1 }
            }
        }
        expectNotNil(matrix[0, 1], "with the one-way")
        expectNil(matrix[1, 0], "against the one-way")
        expectNil(matrix[0, 2], "another component")
        expectEqual(matrix[0, 1]?.meters ?? 0, 400, accuracy: 0.5)
        expectEqual(nils, 5, "only 0→0, 0→1, 1→1 and 2→2 have paths")
        // Foot ignores the one-way.
        let foot = try TravelMatrix.compute(graph, sources: [points[1]], destinations: [points[0]], vehicle: .foot)
        expectNotNil(foot[0, 0])
    }

    @Test func testTurnRestrictionsMatchTheAStar() {
        var net = RandomGraphTests.randomNetwork(seed: 12)
        var rng = SeededRNG(seed: 12 &* 31)
        var waysAt: [Int64: [Int64]] = [:]
        for w in net.ways { for n in Set(w.nodeIDs) { waysAt[n, default: []].append(w.id) } }
        let shared = waysAt.filter { $0.value.count >= 2 }.keys.sorted()
        for _ in 0..<80 {
            let v = shared.randomElement(using: &rng)!
            let ways = waysAt[v]!
            let from = ways.randomElement(using: &rng)!, to = ways.randomElement(using: &rng)!
            let kind: TurnRestriction.Kind = (from != to && Bool.random(using: &rng)) ? .only : .no
            net.restrictions.append(TurnRestriction(fromWay: from, viaNode: v, toWay: to, kind: kind))
        }
        let graph = net.build()
        expectGreaterThan(graph.searchStateCount, graph.nodeCount)
        let ws = RouterWorkspace(graph: graph)
        var snaps = Self.randomSnaps(graph, count: 14, vehicle: .car, rng: &rng)
        snaps += (0..<6).map { _ in graph.position(ofNode: Int.random(in: 0..<graph.nodeCount, using: &rng)) }
        let matrix = try! TravelMatrix.compute(graph, sources: snaps, destinations: snaps, vehicle: .car, workspace: ws)
        var reachable = 0
        for i in snaps.indices {
            for j in snaps.indices {
                let expected = Router.travelTime(graph, from: snaps[i], to: snaps[j], vehicle: .car, workspace: ws)
                if let expected {
                    reachable += 1
                    expectEqual(matrix[i, j]?.seconds ?? -1, expected.seconds, accuracy: 1e-9 * max(1, expected.seconds),
                                   "\(i)->\(j)")
                } else {
                    expectNil(matrix[i, j], "\(i)->\(j)")
                }
            }
        }
        expectGreaterThan(reachable, 200)
    }

    @Test func testDuplicatesAndCellLimit() throws {
        let (_, graph) = try RealDataTests.load()
        var rng = SeededRNG(seed: 5)
        let snaps = Self.randomSnaps(graph, count: 3, vehicle: .car, rng: &rng)
        let sources = [snaps[0], snaps[1], snaps[0]], destinations = [snaps[2], snaps[1], snaps[2]]
        let matrix = try TravelMatrix.compute(graph, sources: sources, destinations: destinations, vehicle: .car)
        let single = try TravelMatrix.compute(graph, sources: [snaps[0]], destinations: [snaps[2]], vehicle: .car)
        expectEqual(matrix[0, 0], single[0, 0])
        expectEqual(matrix[2, 2], single[0, 0])
        expectEqual(matrix[0, 0], matrix[2, 0])
        expectEqual(matrix[1, 1]?.seconds, 0)
        expectThrowsError(try TravelMatrix.compute(graph, sources: sources, destinations: destinations, vehicle: .car,
                                                      maxCells: 8)) { error in
            expectEqual(error as? TravelMatrix.TooManyCells, TravelMatrix.TooManyCells(requested: 9, maxCells: 8))
        }
        let empty = try TravelMatrix.compute(graph, sources: [], destinations: snaps, vehicle: .car)
        expectEqual(empty.cells.count, 0)
    }
}
