import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// Random networks with random turn restrictions against an independent edge-based Dijkstra over raw OSM
/// segments (state = node + arriving segment). U-turns are allowed at junctions and dead ends (like the library)
/// but not in the middle of a way.
@Suite final class RandomRestrictionTests {
    struct Segment { var from: Int; var to: Int; var way: Int64; var seconds: Double; var reverse: Int }

    struct Reference {
        var index: [Int64: Int] = [:]
        var lat: [Double] = [], lon: [Double] = []
        var segments: [Segment] = []
        var out: [[Int]] = []
        var isJunction: [Bool] = []
        var restrictionsAt: [Int: [TurnRestriction]] = [:]

        init(_ input: RoadNetworkInput, vehicle: Vehicle, speed: (RoadWay, Bool) -> Double?) {
            var coord: [Int64: (Double, Double)] = [:]
            for i in 0..<input.nodeIDs.count { coord[input.nodeIDs[i]] = (input.nodeLatitudes[i], input.nodeLongitudes[i]) }
            var uses: [Int64: Int] = [:]
            var ends = Set<Int64>()
            for w in input.ways where speed(w, true) != nil || speed(w, false) != nil {
                for id in w.nodeIDs { uses[id, default: 0] += 1 }
                ends.insert(w.nodeIDs.first!); ends.insert(w.nodeIDs.last!)
            }
            for r in input.restrictions { ends.insert(r.viaNode) }
            func idx(_ id: Int64) -> Int {
                if let i = index[id] { return i }
                let i = lat.count
                index[id] = i
                lat.append(coord[id]!.0); lon.append(coord[id]!.1); out.append([])
                isJunction.append((uses[id] ?? 0) >= 2 || ends.contains(id))
                return i
            }
            for w in input.ways {
                let f = speed(w, true), b = speed(w, false)
                if f == nil && b == nil { continue }
                for k in 1..<w.nodeIDs.count {
                    let a = idx(w.nodeIDs[k - 1]), c = idx(w.nodeIDs[k])
                    let d = Geo.distance(lat[a], lon[a], lat[c], lon[c])
                    let s1 = segments.count
                    segments.append(Segment(from: a, to: c, way: w.id, seconds: f.map { d * 3.6 / $0 } ?? .infinity, reverse: s1 + 1))
                    segments.append(Segment(from: c, to: a, way: w.id, seconds: b.map { d * 3.6 / $0 } ?? .infinity, reverse: s1))
                    out[a].append(s1); out[c].append(s1 + 1)
                }
            }
            for r in input.restrictions where r.vehicles.contains(vehicle) {
                if let v = index[r.viaNode] { restrictionsAt[v, default: []].append(r) }
            }
        }

        func allowed(arriving a: Int, leaving l: Int) -> Bool {
            let v = segments[l].from
            let inSeg = segments[a], outSeg = segments[l]
            if l == inSeg.reverse && !isJunction[v] { return false }
            var onlyTargets: [Int64] = []
            for r in restrictionsAt[v] ?? [] where r.fromWay == inSeg.way {
                if r.kind == .no {
                    if r.toWay == outSeg.way && (r.fromWay != r.toWay || l == inSeg.reverse) { return false }
                } else {
                    onlyTargets.append(r.toWay)
                }
            }
            return onlyTargets.isEmpty || onlyTargets.contains(outSeg.way)
        }

        func shortest(from s: Int, to t: Int) -> Double? {
            if s == t { return 0 }
            // States: segment ids (arrived at segments[i].to), plus the start.
            var dist = [Double](repeating: .infinity, count: segments.count)
            var heap = MinHeap()
            for l in out[s] where segments[l].seconds.isFinite {
                if segments[l].seconds < dist[l] { dist[l] = segments[l].seconds; heap.push(dist[l], l) }
            }
            while !heap.isEmpty {
                let (d, a) = heap.pop()
                if d > dist[a] { continue }
                let v = segments[a].to
                if v == t { return d }
                for l in out[v] where segments[l].seconds.isFinite && allowed(arriving: a, leaving: l) {
                    let nd = d + segments[l].seconds
                    if nd < dist[l] { dist[l] = nd; heap.push(nd, l) }
                }
            }
            return nil
        }
    }

    @Test func testRestrictedSearchMatchesEdgeBasedDijkstra() {
        var checked = 0, differing = 0
        let ws = RouterWorkspace()
        for seed in UInt64(11)...13 {
            var net = RandomGraphTests.randomNetwork(seed: seed)
            var rng = SeededRNG(seed: seed &* 31)
            // Random restrictions at nodes shared by ≥ 2 ways.
            var waysAt: [Int64: [Int64]] = [:]
            for w in net.ways { for n in Set(w.nodeIDs) { waysAt[n, default: []].append(w.id) } }
            let shared = waysAt.filter { $0.value.count >= 2 }.keys.sorted()
            for _ in 0..<80 {
                let v = shared.randomElement(using: &rng)!
                let ws = waysAt[v]!
                let from = ws.randomElement(using: &rng)!, to = ws.randomElement(using: &rng)!
                let kind: TurnRestriction.Kind = (from != to && Bool.random(using: &rng)) ? .only : .no
                let vehicles: VehicleSet = Int.random(in: 0..<4, using: &rng) == 0 ? [.car, .bike] : .motorVehicles
                net.restrictions.append(TurnRestriction(fromWay: from, viaNode: v, toWay: to, kind: kind, vehicles: vehicles))
            }
            let graph = net.build()
            expectGreaterThan(graph.searchStateCount, graph.nodeCount)
            let plain = RoadGraphBuilder.build(RoadNetworkInput(nodes: net.nodes, ways: net.ways))
            for vehicle in [Vehicle.car, .bike] {
                let ref = Reference(net.input, vehicle: vehicle, speed: RandomGraphTests.referenceSpeed(vehicle))
                let towers = (0..<ref.lat.count).filter { ref.isJunction[$0] }
                var done = 0
                while done < 120 {
                    let a = towers.randomElement(using: &rng)!, b = towers.randomElement(using: &rng)!
                    guard let sa = graph.snap(latitude: ref.lat[a], longitude: ref.lon[a], vehicle: vehicle),
                          let sb = graph.snap(latitude: ref.lat[b], longitude: ref.lon[b], vehicle: vehicle),
                          sa.distance < 1e-6, sb.distance < 1e-6, sa.node != nil, sb.node != nil else { continue }
                    done += 1
                    let expected = ref.shortest(from: a, to: b)
                    let got = Router.travelTime(graph, from: sa, to: sb, vehicle: vehicle, workspace: ws)
                    if let expected {
                        expectEqual(got?.seconds ?? -1, expected, accuracy: 1e-6 + expected * 1e-9,
                                       "seed \(seed) \(vehicle) \(a)->\(b)")
                        if got != nil, let p = Router.travelTime(plain, from: plain.snap(latitude: ref.lat[a], longitude: ref.lon[a], vehicle: vehicle)!,
                                                            to: plain.snap(latitude: ref.lat[b], longitude: ref.lon[b], vehicle: vehicle)!,
                                                            vehicle: vehicle, workspace: ws), p.seconds < expected - 1e-6 {
                            differing += 1
                        }
                    } else {
                        expectNil(got, "seed \(seed) \(vehicle) \(a)->\(b): expected no route")
                    }
                    checked += 1
                }
            }
        }
        expectGreaterThan(differing, 10, "restrictions should change some routes")
        print("random restrictions: \(checked) pairs checked, \(differing) made slower by restrictions")
    }
}
