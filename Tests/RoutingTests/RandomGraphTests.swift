import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// Search cost == independent plain Dijkstra on random small networks, incl. unreachable pairs.
@Suite final class RandomGraphTests {
    /// Test-local speed table (km/h), deliberately not read from the library.
    static func referenceSpeed(_ vehicle: Vehicle) -> (RoadWay, Bool) -> Double? {
        return { way, forward in
            let h = way.tags["highway"] ?? ""
            let table: [String: [Double]] = [
                "primary": [40, 42, 32, 15, 5], "residential": [25, 28, 18, 15, 5],
                "service": [15, 18, 10, 14, 5], "footway": [0, 0, 0, 0, 5],
            ]
            guard let s = table[h]?[vehicle.rawValue], s > 0 else { return nil }
            if vehicle == .foot { return s }
            var oneway = 0
            switch way.tags["oneway"] {
            case "yes": oneway = 1
            case "-1": oneway = -1
            case "no": oneway = 0
            default: oneway = way.tags["junction"] == "roundabout" ? 1 : 0
            }
            if oneway == 1 && !forward { return nil }
            if oneway == -1 && forward { return nil }
            return s
        }
    }

    static func randomNetwork(seed: UInt64) -> NetBuilder {
        var rng = SeededRNG(seed: seed)
        var net = NetBuilder()
        let w = 20, h = 15
        func id(_ x: Int, _ y: Int) -> Int64 { Int64(y * w + x + 1) }
        for y in 0..<h {
            for x in 0..<w {
                net.node(id(x, y), Double(x) * 100 + Double.random(in: -30...30, using: &rng),
                         Double(y) * 100 + Double.random(in: -30...30, using: &rng))
            }
        }
        let highways = ["primary", "residential", "residential", "service", "footway"]
        for _ in 0..<260 {
            var x = Int.random(in: 0..<w, using: &rng), y = Int.random(in: 0..<h, using: &rng)
            var ids = [id(x, y)]
            let len = Int.random(in: 1...7, using: &rng)
            for _ in 0..<len {
                let dir = Int.random(in: 0..<4, using: &rng)
                let nx = x + [1, -1, 0, 0][dir], ny = y + [0, 0, 1, -1][dir]
                guard nx >= 0, nx < w, ny >= 0, ny < h, !ids.contains(id(nx, ny)) else { continue }
                x = nx; y = ny
                ids.append(id(x, y))
            }
            guard ids.count >= 2 else { continue }
            var tags = ["highway": highways.randomElement(using: &rng)!]
            let r = Int.random(in: 0..<10, using: &rng)
            if r < 1 { tags["oneway"] = "yes" } else if r < 2 { tags["oneway"] = "-1" } else if r < 3 { tags["oneway"] = "no" }
            else if r < 4 && Bool.random(using: &rng) { tags["junction"] = "roundabout" }
            net.way(ids, tags)
        }
        return net
    }

    @Test func testSearchMatchesPlainDijkstraOnRandomGraphs() {
        var checked = 0, unreachable = 0, pillarStarts = 0
        let ws = RouterWorkspace()
        for seed in UInt64(1)...5 {
            let net = Self.randomNetwork(seed: seed)
            let graph = net.build()
            var rng = SeededRNG(seed: seed * 7919)
            for vehicle in [Vehicle.car, .bike, .foot] {
                let raw = RawNetwork(net.input, speed: Self.referenceSpeed(vehicle))
                let ids = Array(raw.index.keys).sorted()
                var done = 0
                while done < 67 {
                    let a = ids.randomElement(using: &rng)!, b = ids.randomElement(using: &rng)!
                    let ia = raw.index[a]!, ib = raw.index[b]!
                    let pa = GeoPoint(raw.lat[ia], raw.lon[ia]), pb = GeoPoint(raw.lat[ib], raw.lon[ib])
                    guard let sa = graph.snap(latitude: pa.latitude, longitude: pa.longitude, vehicle: vehicle),
                          let sb = graph.snap(latitude: pb.latitude, longitude: pb.longitude, vehicle: vehicle),
                          sa.distance < 1e-6, sb.distance < 1e-6 else { continue }
                    done += 1
                    if sa.node == nil { pillarStarts += 1 }
                    let expected = raw.shortest(from: ia, to: ib)
                    let got = Router.travelTime(graph, from: sa, to: sb, vehicle: vehicle, workspace: ws)
                    if let expected {
                        guard let got else {
                            fail("seed \(seed) \(vehicle) \(a)->\(b): expected \(expected) s, got no route"); continue
                        }
                        expectEqual(got.seconds, expected, accuracy: 1e-6 + expected * 1e-9,
                                       "seed \(seed) \(vehicle) \(a)->\(b)")
                    } else {
                        unreachable += 1
                        expectNil(got, "seed \(seed) \(vehicle) \(a)->\(b): expected no route")
                    }
                    checked += 1
                }
            }
        }
        expectGreaterThanOrEqual(checked, 1000)
        expectGreaterThan(unreachable, 10, "the random graphs should contain unreachable pairs")
        expectGreaterThan(pillarStarts, 50, "some starts should be edge-interior (pillar) positions")
        print("random graphs: \(checked) pairs, \(unreachable) unreachable, \(pillarStarts) edge-interior starts")
    }

    /// Full routes on random graphs: geometry/instruction invariants hold.
    @Test func testRouteInvariantsOnRandomGraphs() throws {
        let net = Self.randomNetwork(seed: 42)
        let graph = net.build()
        var rng = SeededRNG(seed: 4242)
        let ws = RouterWorkspace(graph: graph)
        var routes = 0
        for _ in 0..<200 {
            let p = (0..<3).map { _ in
                NetBuilder.point(Double.random(in: 0...1900, using: &rng), Double.random(in: 0...1400, using: &rng))
            }
            do {
                let r = try Router.route(graph, points: p, vehicle: .car, workspace: ws)
                assertConsistent(r)
                expectEqual(r.instructions.filter { $0.sign == 5 }.count, 1)
                routes += 1
            } catch .noRoute {
                continue
            } catch {
                fail("\(error)")
            }
        }
        expectGreaterThan(routes, 100)
    }
}
