import ArrayBlob
import Foundation
import TestExpectations
import Testing
@testable import Routing

/// Subnetwork removal for snapping (GraphHopper's `prepare.min_network_size`): `RoadGraph.isSnappable`.
@Suite final class SubnetworkTests {
    /// `side` × `side` two-way residential grid, 100 m spacing, node ids 1…side², origin at (0, 0).
    static func grid(_ net: inout NetBuilder, side: Int) {
        func id(_ x: Int, _ y: Int) -> Int64 { Int64(y * side + x + 1) }
        for y in 0..<side { for x in 0..<side { net.node(id(x, y), Double(x) * 100, Double(y) * 100) } }
        for y in 0..<side {
            for x in 0..<side {
                if x + 1 < side { net.way([id(x, y), id(x + 1, y)], ["highway": "residential"]) }
                if y + 1 < side { net.way([id(x, y), id(x, y + 1)], ["highway": "residential"]) }
            }
        }
    }

    func edges(_ g: RoadGraph, wayID: Int64) -> [Int] {
        (0..<g.edgeCount).filter { g.storage.edgeWayID[$0] == wayID }
    }

    /// Big grid plus a separate 3-junction footway island 5 m from the query point (grid 55 m away): the point
    /// snaps to the grid and routes; before subnetwork removal it snapped onto the island (noRoute).
    @Test func testSnapSkipsSmallIslandAndRouteSucceeds() throws {
        var net = NetBuilder()
        Self.grid(&net, side: 4)  // x, y in 0…300
        net.node(9001, 360, 100); net.node(9002, 360, 150); net.node(9003, 360, 200)
        let i1 = net.way([9001, 9002], ["highway": "footway"])
        let i2 = net.way([9002, 9003], ["highway": "footway"])
        let g = net.build()
        let island = edges(g, wayID: i1) + edges(g, wayID: i2)
        expectEqual(island.count, 2)
        for e in island {
            expectFalse(g.isSnappable(edge: e, vehicle: .foot))
            expectFalse(g.isSnappable(edge: e, vehicle: .car), "not usable by car at all")
        }
        for e in 0..<g.edgeCount where !island.contains(e) {
            for v in Vehicle.allCases { expectTrue(g.isSnappable(edge: e, vehicle: v), "grid edge \(e) \(v)") }
        }
        expectEqual(g.subnetworkSummary(vehicle: .foot).unsnappableEdges, 2)
        expectEqual(g.subnetworkSummary(vehicle: .foot).largestComponentNodes, 16)
        expectEqual(g.subnetworkSummary(vehicle: .car).unsnappableEdges, 0)

        let q = NetBuilder.point(355, 150)
        let snap = try unwrap(g.snap(latitude: q.latitude, longitude: q.longitude, vehicle: .foot))
        expectFalse(island.contains(snap.edge))
        expectEqual(snap.distance, 55, accuracy: 1)
        expectEqual(Geo.distance(snap.point, NetBuilder.point(300, 150)), 0, accuracy: 0.5)
        let route = try Router.route(g, points: [q, NetBuilder.point(0, 0)], vehicle: .foot)
        expectEqual(route.distance, 300 + 150, accuracy: 1)
        assertConsistent(route)

        // A threshold the island reaches keeps it snappable (and then the route has nowhere to go).
        let loose = try RoadGraph(storage: g.storage, minNetworkSize: 3)
        expectEqual(loose.subnetworkSummary(vehicle: .foot).unsnappableEdges, 0)
        let near = try unwrap(loose.snap(latitude: q.latitude, longitude: q.longitude, vehicle: .foot))
        expectTrue(island.contains(near.edge))
        expectThrowsError(try Router.route(loose, points: [q, NetBuilder.point(0, 0)], vehicle: .foot))
        // Serialization is unaffected (derived data only).
        expectEqual(try RoadGraph(serialized: g.serialized()).storage, g.storage)
    }

    /// A graph that is one small component (far below 200 nodes) stays snappable: the largest component always is.
    /// Equal-size largest components are all kept.
    @Test func testTinyGraphsStaySnappable() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 100, 0); net.node(3, 200, 0)
        net.way([1, 2, 3], ["highway": "footway"])
        let g = net.build()
        expectEqual(g.nodeCount, 2)
        expectTrue(g.isSnappable(edge: 0, vehicle: .foot))
        expectEqual(g.subnetworkSummary(vehicle: .foot).largestComponentNodes, 2)
        expectNotNil(g.snap(latitude: NetBuilder.point(150, 20).latitude,
                               longitude: NetBuilder.point(150, 20).longitude, vehicle: .foot))
        expectEqual(try Router.route(g, points: [NetBuilder.point(10, 5), NetBuilder.point(190, 5)],
                                        vehicle: .foot).distance, 180, accuracy: 1)

        var two = NetBuilder()
        two.node(1, 0, 0); two.node(2, 100, 0); two.node(3, 0, 500); two.node(4, 100, 500)
        two.way([1, 2], ["highway": "residential"]); two.way([3, 4], ["highway": "residential"])
        let g2 = two.build()
        for e in 0..<g2.edgeCount { expectTrue(g2.isSnappable(edge: e, vehicle: .car)) }
        expectEqual(g2.subnetworkSummary(vehicle: .car).unsnappableEdges, 0)

        // Empty graph: nothing to snap, no crash.
        var none = RoadGraph.EditableStorage()
        none.edgeGeometryStart = [0]
        let empty = try RoadGraph(storage: RoadGraph.Storage(none))
        expectEqual(empty.subnetworkSummary(vehicle: .car).largestComponentNodes, 0)
        expectNil(empty.snap(latitude: 10.77, longitude: 106.7, vehicle: .car))
    }

    /// A one-way loop is one strongly connected component; a one-way dead-end chain's nodes are each their own.
    @Test func testOnewayComponents() throws {
        // One-way loop 1→2→3→4→1 (4 junctions) next to a two-way 3-junction piece: the loop is the largest.
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 100, 0); net.node(3, 100, 100); net.node(4, 0, 100)
        for (a, b) in [(1, 2), (2, 3), (3, 4), (4, 1)] as [(Int64, Int64)] {
            net.way([a, b], ["highway": "residential", "oneway": "yes"])
        }
        net.node(11, 400, 0); net.node(12, 500, 0); net.node(13, 600, 0)
        let p1 = net.way([11, 12], ["highway": "residential"]), p2 = net.way([12, 13], ["highway": "residential"])
        let g = net.build()
        let piece = edges(g, wayID: p1) + edges(g, wayID: p2)
        expectEqual(g.subnetworkSummary(vehicle: .car).largestComponentNodes, 4)
        expectEqual(g.subnetworkSummary(vehicle: .car).unsnappableEdges, 2)
        for e in 0..<g.edgeCount { expectEqual(g.isSnappable(edge: e, vehicle: .car), !piece.contains(e)) }
        let around = try Router.route(g, points: [NetBuilder.point(50, 0), NetBuilder.point(0, 50)], vehicle: .car)
        expectEqual(around.distance, 50 + 100 + 100 + 50, accuracy: 1)

        // 3×3 two-way grid, then a one-way chain leaving its corner (200, 0): 3 → 21 → 22 → 23.
        var chain = NetBuilder()
        Self.grid(&chain, side: 3)
        chain.node(21, 300, 0); chain.node(22, 400, 0); chain.node(23, 500, 0)
        let c1 = chain.way([3, 21], ["highway": "residential", "oneway": "yes"])
        let c2 = chain.way([21, 22], ["highway": "residential", "oneway": "yes"])
        let c3 = chain.way([22, 23], ["highway": "residential", "oneway": "yes"])
        let h = chain.build()
        expectEqual(h.subnetworkSummary(vehicle: .car).largestComponentNodes, 9)
        expectEqual(h.subnetworkSummary(vehicle: .foot).largestComponentNodes, 12, "foot ignores oneway")
        let e1 = try unwrap(edges(h, wayID: c1).first), e2 = try unwrap(edges(h, wayID: c2).first)
        let e3 = try unwrap(edges(h, wayID: c3).first)
        expectTrue(h.isSnappable(edge: e1, vehicle: .car), "its tail is in the main component")
        expectFalse(h.isSnappable(edge: e2, vehicle: .car))
        expectFalse(h.isSnappable(edge: e3, vehicle: .car))
        expectEqual(h.subnetworkSummary(vehicle: .car).unsnappableEdges, 2)
        for e in [e1, e2, e3] { expectTrue(h.isSnappable(edge: e, vehicle: .foot)) }
        // Car snaps past the chain's far end back to the chain's first edge; routing into it is allowed.
        let far = NetBuilder.point(500, 10)
        let s = try unwrap(h.snap(latitude: far.latitude, longitude: far.longitude, vehicle: .car))
        expectEqual(s.edge, e1)
        expectEqual(try Router.route(h, points: [NetBuilder.point(0, 0), far], vehicle: .car).distance, 300,
                       accuracy: 1)
    }

    /// The raw Tarjan: directed cycles, dead-end chains, and a 300k-node path (iterative, no stack overflow).
    @Test func testStrongComponentsDirect() {
        /// CSR from arcs; arcs marked `false` are present but not usable for bit 1.
        func run(_ n: Int, _ arcs: [(Int, Int, Bool)]) -> (comp: [Int32], size: [Int32]) {
            var start = [Int32](repeating: 0, count: n + 1)
            for (a, _, _) in arcs { start[a + 1] += 1 }
            for i in 0..<n { start[i + 1] += start[i] }
            var head = [Int32](repeating: 0, count: arcs.count), usable = [UInt8](repeating: 0, count: arcs.count)
            var fill = start
            for (a, b, ok) in arcs { head[Int(fill[a])] = Int32(b); usable[Int(fill[a])] = ok ? 2 : 1; fill[a] += 1 }
            let scc = StrongComponents(nodeCount: n)
            scc.run(adjStart: start, slotHead: head, slotUsable: usable, bit: 2)
            return (Array(UnsafeBufferPointer(start: scc.component, count: n)), scc.size)
        }
        // 0→1→2→0 cycle, 2→3→4 chain, 4→3 unusable for this bit.
        let r = run(5, [(0, 1, true), (1, 2, true), (2, 0, true), (2, 3, true), (3, 4, true), (4, 3, false)])
        expectEqual(r.size.count, 3)
        expectEqual(r.comp[0], r.comp[1]); expectEqual(r.comp[1], r.comp[2])
        expectNotEqual(r.comp[3], r.comp[4]); expectNotEqual(r.comp[2], r.comp[3])
        expectEqual(r.size[Int(r.comp[0])], 3); expectEqual(r.size[Int(r.comp[4])], 1)
        // Two cycles joined one way only stay separate; a self loop is a 1-node component.
        let r2 = run(5, [(0, 1, true), (1, 0, true), (1, 2, true), (2, 3, true), (3, 2, true), (4, 4, true)])
        expectEqual(r2.size.sorted(), [1, 2, 2])
        expectNotEqual(r2.comp[1], r2.comp[2])
        // Deep: one 300k-node cycle (DFS depth 300k), then the same path without the closing arc.
        let n = 300_000
        var arcs = (0..<(n - 1)).map { ($0, $0 + 1, true) }
        arcs.append((n - 1, 0, true))
        expectEqual(run(n, arcs).size, [Int32(n)])
        arcs[arcs.count - 1].2 = false
        let path = run(n, arcs)
        expectEqual(path.size.count, n)
        expectEqual(Set(path.comp).count, n)
    }

    /// Central HCMC: the start used to snap onto a small isolated footway piece for foot (noRoute).
    @Test func testRealDataPointPairRoutesForEveryVehicle() throws {
        let (_, graph) = try RealDataTests.load()
        let a = GeoPoint(10.7769, 106.7008), b = GeoPoint(10.7798, 106.6990)
        for v in Vehicle.allCases {
            let r = try Router.route(graph, points: [a, b], vehicle: v)
            expectGreaterThan(r.distance, 300, "\(v)")
            expectLessThan(r.distance, 2000, "\(v)")
            assertConsistent(r)
            let summary = graph.subnetworkSummary(vehicle: v)
            expectGreaterThan(summary.largestComponentNodes, graph.nodeCount * 17 / 20, "\(v) main component")
            expectLessThan(summary.unsnappableEdges, graph.edgeCount / 50, "\(v)")
            print("Q1/Q3 subnetworks \(v): largest \(summary.largestComponentNodes) of \(graph.nodeCount) nodes, "
                  + "\(summary.unsnappableEdges) of \(graph.edgeCount) edges unsnappable; route \(r.distance) m")
        }
    }
}
