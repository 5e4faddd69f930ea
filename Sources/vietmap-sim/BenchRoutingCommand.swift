import Dataset
import DefaultData
import Dispatch
import Foundation
import ArrayBlob
import Platform
import Routing
import Scenarios
import SeededRandom

/// `vietmap-sim bench-routing` (for Scripts/bench-routing; prints figures, asserts nothing): A* vs contraction
/// hierarchy on one road graph — CH build time, arcs and bytes per vehicle, route p50/p99 and settled states of
/// both on the same random node pairs (and how many weights differ), a 25 × 25 matrix both ways. Options: ``spec``.
enum BenchRoutingCommand {
    static let spec = CommandSpec(
        name: "bench-routing",
        summary: "A* vs contraction hierarchy figures on one road graph (benchmarks; Scripts/bench-routing)",
        positionals: .none,
        discussion: """
            Prints, for each vehicle: the contraction hierarchy's build time, arcs and bytes; route p50/p99 and
            settled states of A* and of the hierarchy on the same random node pairs (and how many weights
            differ); full routes through the hierarchy; a 25 × 25 matrix both ways. Asserts nothing.
            """,
        options: [
            .option("osm", "FILE", repeatable: true, "an OSM file to build the graph from (repeatable; default: the embedded whole-city PBF)"),
            .option("db", "FILE", "take the road graph of this dataset instead of --osm"),
            .option("tile", "K", .integer(1...1024), "K copies of the graph side by side (west → east) joined by stitch edges: a synthetic bigger graph (default 1)"),
            .option("pairs", "N", .integer(1...10_000_000), "routes through the hierarchy per vehicle (default 1000)"),
            .option("astar-pairs", "M", .integer(0...10_000_000), "of those, how many A* routes too (default min(N, 300))"),
            .option("vehicles", "V[,V…]", "vehicles to build and route (\(Vehicle.allCases.map(\.name).joined(separator: ", ")); default car,motorcycle)"),
            .option("witness", "N", .integer(1...100_000_000), "witness-search settle limit of the build (default \(ContractionHierarchy.defaultWitnessSettleLimit), the import's)"),
            .option("simulation", "M", .integer(1...100_000_000), "settle limit of the build's simulated contractions (default \(ContractionHierarchy.defaultSimulationSettleLimit), the import's)"),
            .flag("simulate-neighbours", "re-simulate neighbours' edge differences after each contraction"),
        ],
        run: { try run($0) })

    static func run(_ parsed: CommandLineArguments) throws -> Int32 {
        let pairs = parsed.integer("pairs") ?? 1000
        let astarPairs = parsed.integer("astar-pairs") ?? min(pairs, 300)
        let tile = parsed.integer("tile") ?? 1
        var vehicles: [Vehicle] = []
        for name in (parsed.value("vehicles") ?? "car,motorcycle").split(separator: ",", omittingEmptySubsequences: false) {
            guard let v = Vehicle(name: String(name)) else {
                throw UsageError("--vehicles must be names from \(Vehicle.allCases.map(\.name).joined(separator: ", ")) separated by commas, got '\(name.prefix(40))'")
            }
            vehicles.append(v)
        }
        if parsed.value("db") != nil && !parsed.all("osm").isEmpty {
            throw UsageError("give --db or --osm, not both")
        }
        var t0 = now()
        var graph: RoadGraph
        if let db = parsed.value("db") {
            guard let g = try RoadGraphStore.load(databasePath: db) else { throw CLIError("\(db): no road graph") }
            graph = g
        } else {
            let files = parsed.all("osm").map { URL(fileURLWithPath: $0) }
            graph = try RoadGraphImport.graph(osmFiles: files.isEmpty ? [DefaultData.hcmcPBF] : files)
        }
        print(String(format: "graph: %d nodes, %d edges, %d states (read %.3f s, RSS %d MB)", graph.nodeCount,
                     graph.edgeCount, graph.searchStateCount, now() - t0, rssMB()))
        if tile > 1 {
            t0 = now()
            graph = try RoadGraph(storage: sideBySide(graph.storage, copies: tile))
            print(String(format: "tiled ×%d: %d nodes, %d edges, %d states (%.1f s)", tile, graph.nodeCount,
                         graph.edgeCount, graph.searchStateCount, now() - t0))
        }
        let plain = graph
        var hierarchies: [ContractionHierarchy] = []
        for v in vehicles {
            t0 = now()
            let ch = ContractionHierarchy.build(
                plain, vehicle: v,
                witnessSettleLimit: parsed.integer("witness") ?? ContractionHierarchy.defaultWitnessSettleLimit,
                simulationSettleLimit: parsed.integer("simulation") ?? ContractionHierarchy.defaultSimulationSettleLimit,
                simulateNeighbours: parsed.has("simulate-neighbours"))
            let s = now() - t0
            hierarchies.append(ch)
            print(String(format: "CH build %@: %.2f s, %d states, %d arcs (%d shortcuts), %.1f MB (%.1f B/state); RSS %d MB",
                         v.name, s, ch.stateCount, ch.arcCount, ch.shortcutCount, Double(ch.byteCount) / 1e6,
                         Double(ch.byteCount) / Double(ch.stateCount), rssMB()))
        }
        let withCH = plain.attaching(hierarchies)
        let ws = RouterWorkspace(graph: plain)
        for v in vehicles {
            var rng = SeededGenerator(seed: 42 &+ UInt64(v.rawValue))
            var chMicros: [Double] = [], chSettled: [Double] = [], aMicros: [Double] = [], aSettled: [Double] = []
            var mismatches = 0, compared = 0, unreachable = 0, attempts = 0
            while chMicros.count < pairs && attempts < pairs * 20 {
                attempts += 1
                let a = plain.position(ofNode: Int(rng.next() % UInt64(plain.nodeCount)))
                let b = plain.position(ofNode: Int(rng.next() % UInt64(plain.nodeCount)))
                guard a.edge >= 0, b.edge >= 0, plain.isSnappable(edge: a.edge, vehicle: v),
                      plain.isSnappable(edge: b.edge, vehicle: v) else { continue }
                let c0 = now()
                let c = Router.travelTime(withCH, from: a, to: b, vehicle: v, workspace: ws)
                let c1 = now()
                guard let c else { unreachable += 1; continue }
                chMicros.append((c1 - c0) * 1e6); chSettled.append(Double(c.settledNodes))
                if aMicros.count < astarPairs {
                    let a0 = now()
                    let r = Router.travelTime(plain, from: a, to: b, vehicle: v, workspace: ws)
                    aMicros.append((now() - a0) * 1e6); aSettled.append(Double(r?.settledNodes ?? 0))
                    compared += 1
                    if let r, abs(r.seconds - c.seconds) > 1e-9 * max(1, r.seconds) { mismatches += 1 }
                }
            }
            chMicros.sort(); chSettled.sort(); aMicros.sort(); aSettled.sort()
            print(String(format: "%@ A*: %d routes p50 %.3f ms p99 %.3f ms, settled p50 %.0f p99 %.0f", v.name,
                         aMicros.count, pct(aMicros, 0.5) / 1000, pct(aMicros, 0.99) / 1000, pct(aSettled, 0.5), pct(aSettled, 0.99)))
            print(String(format: "%@ CH: %d routes p50 %.3f ms p99 %.3f ms, settled p50 %.0f p99 %.0f; weights differing from A*: %d of %d; unreachable pairs skipped %d",
                         v.name, chMicros.count, pct(chMicros, 0.5) / 1000, pct(chMicros, 0.99) / 1000, pct(chSettled, 0.5),
                         pct(chSettled, 0.99), mismatches, compared, unreachable))
            // Full routes (geometry + instructions) through the CH.
            var full: [Double] = []
            for _ in 0..<min(200, pairs) {
                let a = plain.position(ofNode: Int(rng.next() % UInt64(plain.nodeCount)))
                let b = plain.position(ofNode: Int(rng.next() % UInt64(plain.nodeCount)))
                let r0 = now()
                if (try? Router.route(withCH, snaps: [a, b], vehicle: v, workspace: ws)) != nil { full.append((now() - r0) * 1e6) }
            }
            full.sort()
            print(String(format: "%@ CH full route (instructions, geometry): p50 %.3f ms p99 %.3f ms", v.name,
                         pct(full, 0.5) / 1000, pct(full, 0.99) / 1000))
            // 25 × 25 matrix.
            var snaps: [Snap] = []
            while snaps.count < 50 {
                let s = plain.position(ofNode: Int(rng.next() % UInt64(plain.nodeCount)))
                if s.edge >= 0 && plain.isSnappable(edge: s.edge, vehicle: v) { snaps.append(s) }
            }
            let src = Array(snaps.prefix(25)), dst = Array(snaps.suffix(25))
            var m0 = now()
            _ = try TravelMatrix.compute(withCH, sources: dst, destinations: src, vehicle: v, workspace: ws)
            let chMatrixFirst = now() - m0
            m0 = now()
            let mc = try TravelMatrix.compute(withCH, sources: src, destinations: dst, vehicle: v, workspace: ws)
            let chMatrix = now() - m0
            m0 = now()
            let ma = try TravelMatrix.compute(plain, sources: src, destinations: dst, vehicle: v, workspace: ws)
            let aMatrix = now() - m0
            var differ = 0
            for (x, y) in zip(mc.cells, ma.cells) where (x == nil) != (y == nil)
                || (x != nil && abs(x!.seconds - y!.seconds) > 1e-9 * max(1, y!.seconds)) { differ += 1 }
            print(String(format: "%@ matrix 25×25: CH %.2f ms (reversed pairs before: %.2f ms; %d settled), Dijkstra %.1f ms (%d settled); cells differing (seconds > 1e-9 relative): %d",
                         v.name, chMatrix * 1000, chMatrixFirst * 1000, mc.settledStates, aMatrix * 1000, ma.settledStates, differ))
        }
        print("RSS at end: \(rssMB()) MB")
        return 0
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    static func pct(_ a: [Double], _ p: Double) -> Double { a.isEmpty ? 0 : a[min(a.count - 1, Int(Double(a.count) * p))] }
    static func rssMB() -> Int { (ProcessMemory.residentBytes() ?? 0) >> 20 }

    /// `copies` copies of the graph side by side (each shifted east by the graph's width + 0.01°), consecutive copies
    /// joined by 40 two-way stitch edges (a primary road: 50/40/40/15/5 km/h) between the east-most nodes of one and
    /// the west-most of the next, paired by latitude.
    static func sideBySide(_ s: RoadGraph.Storage, copies: Int) -> RoadGraph.Storage {
        var out = RoadGraph.EditableStorage()
        let n = s.nodeCount, e = s.edgeCount
        let minLon = s.nodeLonE7.min() ?? 0, maxLon = s.nodeLonE7.max() ?? 0
        let shift = Int32(maxLon - minLon) + 100_000
        out.names = (0..<s.nameCount).map(s.name(at:))
        for k in 0..<copies {
            let dn = Int32(k * n), dx = shift * Int32(k)
            out.nodeLatE7 += s.nodeLatE7
            out.nodeLonE7 += s.nodeLonE7.map { $0 + dx }
            out.nodeOSMID += s.nodeOSMID.map { $0 + Int64(k) * 10_000_000_000 }
            out.edgeBaseNode += s.edgeBaseNode.map { $0 + dn }
            out.edgeAdjNode += s.edgeAdjNode.map { $0 + dn }
            out.edgeDistance += s.edgeDistance
            out.edgeWayID += s.edgeWayID.map { $0 + Int64(k) * 10_000_000_000 }
            out.edgeNameIndex += s.edgeNameIndex
            out.edgeRoadClass += s.edgeRoadClass
            out.edgeFlags += s.edgeFlags
            out.edgeAccess += s.edgeAccess
            out.edgeSpeed += s.edgeSpeed
            out.edgeMaxWeight += s.edgeMaxWeight
            let base = out.pillarLatE7.count
            if k == 0 { out.edgeGeometryStart = [0] }
            out.edgeGeometryStart += s.edgeGeometryStart.dropFirst().map { $0 + Int32(base) }
            out.pillarLatE7 += s.pillarLatE7
            out.pillarLonE7 += s.pillarLonE7.map { $0 + dx }
            out.turnFromEdge += s.turnFromEdge.map { $0 + Int32(2 * k * e) }
            out.turnToEdge += s.turnToEdge.map { $0 + Int32(2 * k * e) }
            out.turnKind += s.turnKind
            out.turnVehicles += s.turnVehicles
        }
        // Stitches: nodes that have edges, east-most / west-most 40 of one copy, paired by latitude.
        var degree = [Int](repeating: 0, count: n)
        for i in 0..<e { degree[Int(s.edgeBaseNode[i])] += 1; degree[Int(s.edgeAdjNode[i])] += 1 }
        let used = (0..<n).filter { degree[$0] >= 2 }
        let east = used.sorted { s.nodeLonE7[$0] > s.nodeLonE7[$1] }.prefix(40).sorted { s.nodeLatE7[$0] < s.nodeLatE7[$1] }
        let west = used.sorted { s.nodeLonE7[$0] < s.nodeLonE7[$1] }.prefix(40).sorted { s.nodeLatE7[$0] < s.nodeLatE7[$1] }
        let primary = RoadClass.primary.rawValue
        for k in 0..<(copies - 1) {
            for (a, b) in zip(east, west) {
                let na = a + k * n, nb = b + (k + 1) * n
                let pa = GeoPoint(Double(out.nodeLatE7[na]) / 1e7, Double(out.nodeLonE7[na]) / 1e7)
                let pb = GeoPoint(Double(out.nodeLatE7[nb]) / 1e7, Double(out.nodeLonE7[nb]) / 1e7)
                out.edgeBaseNode.append(Int32(na)); out.edgeAdjNode.append(Int32(nb))
                out.edgeDistance.append(Geo.distance(pa, pb))
                out.edgeWayID.append(-Int64(out.edgeWayID.count))
                out.edgeNameIndex.append(0)
                out.edgeRoadClass.append(primary)
                out.edgeFlags.append(0)
                out.edgeAccess.append(0x3FF)
                out.edgeSpeed += [50, 40, 40, 15, 5]
                out.edgeMaxWeight.append(0)
                out.edgeGeometryStart.append(out.edgeGeometryStart.last!)
            }
        }
        return RoadGraph.Storage(out)
    }
}
