import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing
@testable import Routing

/// District 1 + 3 of Ho Chi Minh City (OSM 2018 extract shipped in DefaultData), read with a test-only XML reader.
@Suite final class RealDataTests {
    nonisolated(unsafe) static var cached: (RoadNetworkInput, RoadGraph)?

    static func load() throws -> (RoadNetworkInput, RoadGraph) {
        if let c = cached { return c }
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let path = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/DefaultData/Resources/data/osm/hcmc_q1_q3_2018.osm").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestFailure("no OSM extract at \(path)") }
        let t0 = monotonicMicros()
        let input = try TinyOSMXML.load(path: path)
        let t1 = monotonicMicros()
        let graph = RoadGraphBuilder.build(input)
        let t2 = monotonicMicros()
        print(String(format: "Q1/Q3: %d ways → %d graph nodes, %d edges, %d pillars; parse %.0f ms, build %.0f ms",
                     input.ways.count, graph.nodeCount, graph.edgeCount, graph.storage.pillarLatE7.count,
                     (t1 - t0) / 1000, (t2 - t1) / 1000))
        cached = (input, graph)
        return (input, graph)
    }

    @Test func testRandomPairsMatchPlainDijkstra() throws {
        let (input, graph) = try Self.load()
        let ws = RouterWorkspace(graph: graph)
        var rng = SeededRNG(seed: 2018)
        for (vehicle, count) in [(Vehicle.car, 140), (.motorcycle, 30), (.foot, 30)] {
            let raw = RawNetwork(input, speed: profileSpeed(vehicle))
            let ids = Array(raw.index.keys).sorted()
            var done = 0, unreachable = 0
            while done < count {
                let a = raw.index[ids.randomElement(using: &rng)!]!, b = raw.index[ids.randomElement(using: &rng)!]!
                guard let sa = graph.snap(latitude: raw.lat[a], longitude: raw.lon[a], vehicle: vehicle),
                      let sb = graph.snap(latitude: raw.lat[b], longitude: raw.lon[b], vehicle: vehicle),
                      sa.distance < 1e-6, sb.distance < 1e-6 else { continue }
                done += 1
                let expected = raw.shortest(from: a, to: b)
                let got = Router.travelTime(graph, from: sa, to: sb, vehicle: vehicle, workspace: ws)
                if let expected {
                    expectEqual(got?.seconds ?? -1, expected, accuracy: 1e-6 + expected * 1e-9, "\(vehicle) \(a)->\(b)")
                } else {
                    unreachable += 1
                    expectNil(got)
                }
            }
            print("real data \(vehicle): \(count) pairs match plain Dijkstra (\(unreachable) unreachable)")
        }
    }

    @Test func testOnewayStreetAgainstItsDirection() throws {
        let (input, graph) = try Self.load()
        // Lê Thánh Tôn (way 320379106) is oneway=yes in the 2018 data.
        let way = try unwrap(input.ways.first { $0.id == 320379106 })
        expectEqual(way.tags["oneway"], "yes")
        expectEqual(way.tags["name"], "Lê Thánh Tôn")
        var coord: [Int64: GeoPoint] = [:]
        for i in 0..<input.nodeIDs.count { coord[input.nodeIDs[i]] = GeoPoint(input.nodeLatitudes[i], input.nodeLongitudes[i]) }
        let first = coord[way.nodeIDs.first!]!, last = coord[way.nodeIDs.last!]!
        var wayLength = 0.0
        for k in 1..<way.nodeIDs.count { wayLength += Geo.distance(coord[way.nodeIDs[k - 1]]!, coord[way.nodeIDs[k]]!) }
        let with = try Router.route(graph, points: [first, last], vehicle: .car)
        expectEqual(with.distance, wayLength, accuracy: 1)
        let against = try Router.route(graph, points: [last, first], vehicle: .car)
        expectGreaterThan(against.distance, wayLength * 1.5, "car must detour against the one-way")
        let foot = try Router.route(graph, points: [last, first], vehicle: .foot)
        expectLessThanOrEqual(foot.distance, wayLength + 1, "foot may walk against the one-way")
        assertConsistent(against)
        assertConsistent(foot)
        print("Lê Thánh Tôn \(Int(wayLength)) m: car against → \(against.distance) m, \(against.instructions.count) steps: "
              + against.instructions.map { "\($0.sign) \($0.text) \($0.distance)" }.joined(separator: " | "))
    }

    /// Full routes between random nodes are consistent (``assertConsistent``); the search times
    /// are printed for a look, not asserted (speed figures: `Scripts/bench*`), so only the
    /// asserted routes' searches are timed (1000 more searches cost seconds of a debug build).
    @Test func testTimingsOnRandomRoutes() throws {
        let (_, graph) = try Self.load()
        let ws = RouterWorkspace(graph: graph)
        var rng = SeededRNG(seed: 77)
        var micros: [Double] = [], settled: [Double] = []
        var routeMicros: [Double] = []
        let n = graph.nodeCount
        var failures = 0
        while micros.count < 200 {
            let a = graph.position(ofNode: Int.random(in: 0..<n, using: &rng))
            let b = graph.position(ofNode: Int.random(in: 0..<n, using: &rng))
            let t0 = monotonicMicros()
            let r = Router.travelTime(graph, from: a, to: b, vehicle: .car, workspace: ws)
            let t1 = monotonicMicros()
            guard let r else { failures += 1; if failures > 5000 { break }; continue }
            micros.append(t1 - t0)
            settled.append(Double(r.settledNodes))
            let t2 = monotonicMicros()
            let full = try Router.route(graph, snaps: [a, b], vehicle: .car, workspace: ws)
            routeMicros.append(monotonicMicros() - t2)
            assertConsistent(full)
        }
        micros.sort(); settled.sort(); routeMicros.sort()
        print(String(format: "timing (this build) over %d car searches on %d nodes: p50 %.0f µs, p99 %.0f µs; settled p50 %.0f p99 %.0f; full route p50 %.0f µs",
                     micros.count, n, percentile(micros, 0.5), percentile(micros, 0.99),
                     percentile(settled, 0.5), percentile(settled, 0.99), percentile(routeMicros, 0.5)))
    }
}
