import ArrayBlob
import Foundation
import SeededRandom
@testable import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// The contraction hierarchy against the A*: same weight (and, for the same path, same pieces and distance) on
/// random pairs, snapped positions inside edges, bearings, multi-leg routes, turn restrictions and matrices.
@Suite final class ContractionHierarchyTests {
    struct Tally { var pairs = 0, samePath = 0, tiedOtherPath = 0, unreachable = 0, settledAStar = 0, settledCH = 0 }

    /// Compares one leg; weight must be equal (up to the association of the sums, 1e-9 relative), the pieces equal
    /// unless another path ties.
    static func compare(_ plain: RoadGraph, _ ch: RoadGraph, _ a: Snap, _ b: Snap, _ vehicle: Vehicle,
                        _ wsA: RouterWorkspace, _ wsC: RouterWorkspace, _ tally: inout Tally,
                        filePath: String = #filePath, line: Int = #line) {
        var failures: [String] = []
        compare(plain, ch, a, b, vehicle, wsA, wsC, &tally, &failures)
        for failure in failures { fail(failure, filePath: filePath, line: line) }
    }

    /// ``compare(_:_:_:_:_:_:_:_:file:line:)`` with its failures collected instead of asserted, for
    /// comparisons run off the test's thread (each thread with its own workspaces).
    static func compare(_ plain: RoadGraph, _ ch: RoadGraph, _ a: Snap, _ b: Snap, _ vehicle: Vehicle,
                        _ wsA: RouterWorkspace, _ wsC: RouterWorkspace, _ tally: inout Tally, _ failures: inout [String]) {
        let h = ch.contractionHierarchy(for: vehicle)!
        let x = plain.searchLeg(from: a, to: b, vehicle: vehicle, options: RouteOptions(), workspace: wsA)
        let y = ch.searchLegCH(h, from: a, to: b, vehicle: vehicle, options: RouteOptions(), workspace: wsC)
        tally.pairs += 1
        guard let x else {
            if y != nil { failures.append("\(vehicle) CH found a route the A* did not") }
            tally.unreachable += 1
            return
        }
        guard let y else { failures.append("\(vehicle) CH found no route (A* \(x.cost) s)"); return }
        tally.settledAStar += x.settled
        tally.settledCH += y.settled
        let same = x.pieces.map(\.dirEdge) == y.pieces.map(\.dirEdge)
        if same {
            tally.samePath += 1
            if x.cost != y.cost { failures.append("\(vehicle): same path, different weight (\(x.cost) ≠ \(y.cost))") }
        } else {
            tally.tiedOtherPath += 1
            if !(abs(x.cost - y.cost) <= 1e-9 * max(1, x.cost)) {
                failures.append("\(vehicle): different paths, weights differ (\(x.cost) ≠ \(y.cost))")
            }
        }
    }

    /// Random pairs for each vehicle in turn, `count` a vehicle, drawn from one generator in that
    /// order (as a loop over the vehicles drawing and comparing would), then compared with the A*
    /// two vehicles at a time (the A* over a whole city is seconds of a debug build per vehicle):
    /// each vehicle's tally, its failures asserted here, on the test's thread.
    static func compareRandomPairs(_ plain: RoadGraph, _ ch: RoadGraph, count: Int, rng: inout SeededRNG,
                                   filePath: String = #filePath, line: Int = #line) -> [(vehicle: Vehicle, tally: Tally)] {
        let vehicles = Vehicle.allCases
        var pairs: [[(Snap, Snap)]] = []
        for vehicle in vehicles {
            var drawn: [(Snap, Snap)] = []
            while drawn.count < count {
                guard let a = randomSnap(plain, vehicle, &rng), let b = randomSnap(plain, vehicle, &rng) else { continue }
                drawn.append((a, b))
            }
            pairs.append(drawn)
        }
        let results = VehicleResults(count: vehicles.count), drawnPairs = pairs
        DispatchQueue.concurrentPerform(iterations: vehicles.count) { index in
            let wsA = RouterWorkspace(graph: plain), wsC = RouterWorkspace(graph: plain)
            var tally = Tally(), failures: [String] = []
            for (a, b) in drawnPairs[index] { compare(plain, ch, a, b, vehicles[index], wsA, wsC, &tally, &failures) }
            results.set(index, tally, failures)
        }
        return vehicles.indices.map { index in
            let (tally, failures) = results.get(index)
            for failure in failures { fail(failure, filePath: filePath, line: line) }
            return (vehicles[index], tally)
        }
    }

    /// Each vehicle's tally and failures, written by the comparing threads.
    final class VehicleResults: @unchecked Sendable {
        // @unchecked: every access holds the lock.
        private let lock = NSLock()
        private var entries: [(Tally, [String])]
        init(count: Int) { entries = Array(repeating: (Tally(), []), count: count) }
        func set(_ index: Int, _ tally: Tally, _ failures: [String]) { lock.lock(); entries[index] = (tally, failures); lock.unlock() }
        func get(_ index: Int) -> (Tally, [String]) { lock.lock(); defer { lock.unlock() }; return entries[index] }
    }

    static func hierarchies(_ graph: RoadGraph) -> RoadGraph {
        graph.attaching(Vehicle.allCases.map { ContractionHierarchy.build(graph, vehicle: $0) })
    }

    nonisolated(unsafe) private static var q1q3Cached: (plain: RoadGraph, contracted: RoadGraph)?

    /// The Q1/Q3 graph (``RealDataTests/load()``) and the same graph with a hierarchy per vehicle,
    /// contracted once per process (seconds in a debug build) for every test that compares them.
    static func q1q3() throws -> (plain: RoadGraph, contracted: RoadGraph) {
        if let q1q3Cached { return q1q3Cached }
        let (_, graph) = try RealDataTests.load()
        let result = (graph, hierarchies(graph))
        q1q3Cached = result
        return result
    }

    /// A random point near a random node (so many snaps fall inside edges).
    static func randomSnap(_ graph: RoadGraph, _ vehicle: Vehicle, _ rng: inout SeededRNG) -> Snap? {
        let node = Int.random(in: 0..<graph.nodeCount, using: &rng)
        if Bool.random(using: &rng) {
            let p = graph.position(ofNode: node)
            return p.edge >= 0 && graph.isSnappable(edge: p.edge, vehicle: vehicle) ? p : nil
        }
        let c = graph.coordinate(ofNode: node)
        return graph.snap(latitude: c.latitude + Double.random(in: -0.0008...0.0008, using: &rng),
                          longitude: c.longitude + Double.random(in: -0.0008...0.0008, using: &rng), vehicle: vehicle)
    }

    @Test func testQ1Q3AllVehiclesMatchAStar() throws {
        let (graph, ch) = try Self.q1q3()
        var rng = SeededRNG(seed: 21)
        for (vehicle, tally) in Self.compareRandomPairs(graph, ch, count: 400, rng: &rng) {
            expectEqual(tally.pairs, 400)
            print("CH Q1/Q3 \(vehicle): \(tally)")
            expectGreaterThan(tally.samePath, tally.pairs * 9 / 10)
        }
    }

    @Test func testWholeCityAllVehiclesMatchAStar() throws {
        let graph = try WholeCityGraph.load()
        // 100 random pairs a vehicle (each an A* over the whole city): enough for the 90 % same-path bound to
        // mean something; CH_TEST_PAIRS asks for more.
        let pairsPerVehicle = Int(ProcessInfo.processInfo.environment["CH_TEST_PAIRS"] ?? "") ?? 100
        let (ch, built) = try WholeCityGraph.loadContracted()
        for (h, seconds) in built {
            let how = seconds.map { String(format: "this build, 2 vehicles at a time: %.1f s", $0) } ?? "built by an earlier run of the same code"
            print(String(format: "CH %@ (%@): %d states, %d arcs (%d shortcuts), %d bytes",
                         h.vehicle.name, how, h.stateCount, h.arcCount, h.shortcutCount, h.byteCount))
        }
        for v in Vehicle.allCases { expectNotNil(ch.contractionHierarchy(for: v)) }
        var rng = SeededRNG(seed: 2118)
        var total = 0
        for (vehicle, tally) in Self.compareRandomPairs(graph, ch, count: pairsPerVehicle, rng: &rng) {
            expectEqual(tally.pairs, pairsPerVehicle)
            total += tally.pairs
            print("CH whole city \(vehicle): \(tally)")
            expectGreaterThan(tally.samePath, tally.pairs * 9 / 10)
        }
        // Every turn restriction: from its arriving edge to its leaving edge and to the via node's other edges.
        let wsA = RouterWorkspace(graph: graph), wsC = RouterWorkspace(graph: graph)
        var restricted = Tally()
        let s = graph.storage
        for i in 0..<s.turnFromEdge.count {
            let from = Int(s.turnFromEdge[i] >> 1)
            let via = Int(s.turnFromEdge[i] & 1 == 0 ? s.edgeAdjNode[from] : s.edgeBaseNode[from])
            for slot in Int(graph.index.adjStart[via])..<Int(graph.index.adjStart[via + 1]) {
                let to = Int(graph.index.adjDirEdge[slot] >> 1)
                for vehicle in [Vehicle.car, .motorcycle, .bike] {
                    let a = Snap(edge: from, segment: 0, distanceAlong: s.edgeDistance[from] / 2, fraction: 0.5,
                                 point: graph.coordinate(ofNode: via), distance: 0, node: nil)
                    var b = a
                    b.edge = to; b.distanceAlong = s.edgeDistance[to] / 2
                    Self.compare(graph, ch, a, b, vehicle, wsA, wsC, &restricted)
                }
            }
        }
        print("CH whole city, legs across the \(s.turnFromEdge.count) turn restrictions: \(restricted)")
        print("CH whole city: \(total) random pairs compared with the A*")
    }

    /// The whole-city hierarchies the test cache stores read back as they were; a damaged file reads as none
    /// (so `WholeCityGraph` builds them anew).
    @Test func testStoredHierarchiesReadBackAndADamagedFileIsRefused() throws {
        let graph = RandomGraphTests.randomNetwork(seed: 7).build()
        let hierarchies = Vehicle.allCases.map { ContractionHierarchy.build(graph, vehicle: $0) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ch-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wholecity-ch-test.bin")
        WholeCityGraph.writeHierarchies(hierarchies, to: file)
        let back = try unwrap(WholeCityGraph.readHierarchies(file))
        expectEqual(back.map(\.vehicle), Vehicle.allCases)
        expectEqual(back.map { $0.serialized() }, hierarchies.map { $0.serialized() })
        for h in back { expectNotNil(graph.attaching([h]).contractionHierarchy(for: h.vehicle)) }
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [file.lastPathComponent], "no temporary file left")
        var bytes = try Data(contentsOf: file)
        bytes.removeLast(5)
        try bytes.write(to: file)
        expectNil(WholeCityGraph.readHierarchies(file), "truncated")
        expectNil(WholeCityGraph.readHierarchies(folder.appendingPathComponent("absent.bin")))
    }

    @Test func testRandomRestrictionNetworksMatchAStar() {
        let wsA = RouterWorkspace(), wsC = RouterWorkspace()
        var tally = Tally()
        for seed in UInt64(11)...13 {
            var net = RandomGraphTests.randomNetwork(seed: seed)
            var rng = SeededRNG(seed: seed &* 31)
            var waysAt: [Int64: [Int64]] = [:]
            for w in net.ways { for n in Set(w.nodeIDs) { waysAt[n, default: []].append(w.id) } }
            let shared = waysAt.filter { $0.value.count >= 2 }.keys.sorted()
            for _ in 0..<80 {
                let v = shared.randomElement(using: &rng)!
                let ws = waysAt[v]!
                let from = ws.randomElement(using: &rng)!, to = ws.randomElement(using: &rng)!
                let kind: TurnRestriction.Kind = (from != to && Bool.random(using: &rng)) ? .only : .no
                net.restrictions.append(TurnRestriction(fromWay: from, viaNode: v, toWay: to, kind: kind, vehicles: .motorVehicles))
            }
            let graph = net.build()
            let ch = Self.hierarchies(graph)
            for vehicle in [Vehicle.car, .bike] {
                var done = 0
                while done < 300 {
                    guard var a = Self.randomSnap(graph, vehicle, &rng), let b = Self.randomSnap(graph, vehicle, &rng) else { continue }
                    if a.node == nil && done % 3 == 0 { a.departsForward = Bool.random(using: &rng) }
                    Self.compare(graph, ch, a, b, vehicle, wsA, wsC, &tally)
                    done += 1
                }
            }
        }
        // These synthetic grids are full of exactly tied paths (equal lengths and speeds): weights are asserted
        // equal in `compare`, the path may be another one.
        print("CH random restriction networks: \(tally)")
        expectGreaterThan(tally.samePath, tally.pairs / 3)
    }

    @Test func testRoutesMatrixOptionsAndStorage() throws {
        let (graph, ch) = try Self.q1q3()
        var rng = SeededRNG(seed: 5)
        // Multi-leg routes: identical Route values but for settled counts.
        var legs = 0
        while legs < 40 {
            let snaps = (0..<4).compactMap { _ in Self.randomSnap(graph, .car, &rng) }
            guard snaps.count == 4, let x = try? Router.route(graph, snaps: snaps, vehicle: .car) else { continue }
            let y = try Router.route(ch, snaps: snaps, vehicle: .car)
            expectEqual(x.weight, y.weight, accuracy: 1e-9 * x.weight)
            if x.points == y.points {
                expectEqual(x.distance, y.distance)
                expectEqual(x.time, y.time)
                expectEqual(x.instructions.map(\.text), y.instructions.map(\.text))
                expectEqual(x.segmentSeconds, y.segmentSeconds)
            }
            legs += 3
        }
        // Options the hierarchy cannot answer fall back to the A* (same settled count as the A*) — unless the graph
        // has no edge they concern.
        let a = graph.position(ofNode: 10), b = graph.position(ofNode: graph.nodeCount - 10)
        let wsA = RouterWorkspace(graph: graph)
        let h0 = ch.contractionHierarchy(for: .truck)!
        expectFalse(h0.canAnswer(options: RouteOptions(avoidToll: true), usableSpecial: EdgeFlag.toll))
        expectTrue(h0.canAnswer(options: RouteOptions(avoidToll: true), usableSpecial: EdgeFlag.ferry))
        expectFalse(h0.canAnswer(options: RouteOptions(truckCapacityKg: 20_000), usableSpecial: 0x80))
        expectTrue(h0.canAnswer(options: RouteOptions(), usableSpecial: 0xFF))
        for opts in [RouteOptions(avoidToll: true), RouteOptions(avoidFerry: true), RouteOptions(truckCapacityKg: 20_000)] {
            let uses = ch.usableHierarchy(.truck, opts) != nil
            let special = ch.usableSpecial[Vehicle.truck.rawValue]
            let concerned = (opts.avoidToll && special & EdgeFlag.toll != 0) || (opts.avoidFerry && special & EdgeFlag.ferry != 0)
                || (opts.truckCapacityKg != nil && special & 0x80 != 0)
            expectEqual(uses, !concerned, "\(opts)")
            let x = Router.travelTime(graph, from: a, to: b, vehicle: .truck, options: opts, workspace: wsA)
            let y = Router.travelTime(ch, from: a, to: b, vehicle: .truck, options: opts, workspace: wsA)
            expectEqual(x?.seconds ?? -1, y?.seconds ?? -1, accuracy: 1e-9 * (x?.seconds ?? 1))
            if !uses { expectEqual(x?.settledNodes, y?.settledNodes, "fallback = the A*") }
            print("CH options \(opts): \(uses ? "hierarchy" : "A* fallback")")
        }
        // Matrix: same cells.
        for vehicle in [Vehicle.car, .foot] {
            let pts = (0..<40).compactMap { _ in Self.randomSnap(graph, vehicle, &rng) }
            let src = Array(pts.prefix(20)), dst = Array(pts.suffix(20)) + [pts[0]]
            let m1 = try TravelMatrix.compute(graph, sources: src, destinations: dst, vehicle: vehicle)
            let m2 = try TravelMatrix.compute(ch, sources: src, destinations: dst, vehicle: vehicle)
            // Seconds: the hierarchy's association of the same sums (1e-9 relative); metres: the same path's unless
            // an equally fast one was chosen.
            var same = 0
            for (c1, c2) in zip(m1.cells, m2.cells) {
                expectEqual(c1 == nil, c2 == nil)
                guard let c1, let c2 else { continue }
                expectEqual(c1.seconds, c2.seconds, accuracy: 1e-9 * max(1, c1.seconds))
                if abs(c1.meters - c2.meters) <= 1e-6 * max(1, c1.meters) { same += 1 }
            }
            expectGreaterThan(same, m1.cells.count * 95 / 100)
            print("CH matrix \(vehicle) \(src.count)×\(dst.count): \(same) of \(m1.cells.count) cells with the same metres; settled \(m1.settledStates) → \(m2.settledStates)")
        }
        // Storage round trip; a hierarchy of another graph is not attached.
        let h = ch.contractionHierarchy(for: .car)!
        let back = try ContractionHierarchy(serialized: h.serialized())
        expectEqual(back.upHead, h.upHead)
        expectEqual(back.downWeight, h.downWeight)
        expectEqual(back.arcSecond, h.arcSecond)
        expectNotNil(graph.attaching([back]).contractionHierarchy(for: .car))
        let other = RandomGraphTests.randomNetwork(seed: 3).build()
        expectNil(other.attaching([back]).contractionHierarchy(for: .car))
        var bytes = h.serialized()
        bytes.removeLast(3)
        expectThrowsError(try ContractionHierarchy(serialized: bytes))
    }

    /// Ferry, toll and maxweight edges: the options that concern them fall back to the A* and give its answers.
    @Test func testOptionsFallBackToAStar() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 1000, 0); net.node(3, 500, 800)
        net.way([1, 2], ["route": "ferry", "name": "Phà"])
        net.way([1, 3], ["highway": "service", "toll": "yes", "name": "Thu Phí"])
        net.way([3, 2], ["highway": "service", "maxweight": "10", "name": "Cầu Yếu"])
        let g = net.build()
        let ch = Self.hierarchies(g)
        let a = g.snap(latitude: NetBuilder.point(0, 0).latitude, longitude: NetBuilder.point(0, 0).longitude, vehicle: .truck)!
        let b = g.snap(latitude: NetBuilder.point(1000, 0).latitude, longitude: NetBuilder.point(1000, 0).longitude, vehicle: .truck)!
        expectNotNil(ch.usableHierarchy(.truck, RouteOptions()))
        for opts in [RouteOptions(avoidFerry: true), RouteOptions(avoidToll: true), RouteOptions(avoidFerry: true, truckCapacityKg: 12_000)] {
            expectNil(ch.usableHierarchy(.truck, opts), "\(opts)")
            let ws = RouterWorkspace()
            let x = Router.travelTime(g, from: a, to: b, vehicle: .truck, options: opts, workspace: ws)
            let y = Router.travelTime(ch, from: a, to: b, vehicle: .truck, options: opts, workspace: ws)
            expectEqual(x?.seconds, y?.seconds)
            expectEqual(x?.settledNodes, y?.settledNodes)
        }
        let ws = RouterWorkspace()
        let plain = Router.travelTime(g, from: a, to: b, vehicle: .truck, workspace: ws)
        let fast = Router.travelTime(ch, from: a, to: b, vehicle: .truck, workspace: ws)
        expectEqual(plain?.seconds, fast?.seconds, "ferry allowed: the hierarchy answers")
    }
}
