/// Builds a `RoadGraph` from OSM-like input.
///
/// One graph serves every vehicle: topology and geometry are shared, each edge carries 2 access bits per
/// vehicle (forward/backward) and one speed byte per vehicle. Five separate graphs would repeat the geometry
/// (the largest part) five times for ~7 bytes per edge of savings.
///
/// Graph nodes are the OSM nodes where ways meet or end (and turn-restriction via nodes); the other nodes of a
/// way are kept, in order, as edge geometry ("pillars"), so polylines are exact and snapping projects onto the
/// real segments.
public enum RoadGraphBuilder {
    public static func build(_ input: RoadNetworkInput) -> RoadGraph {
        let storage = buildStorage(input)
        do {
            return try RoadGraph(storage: storage)
        } catch {
            fatalError("RoadGraphBuilder produced an inconsistent graph: \(error)")
        }
    }

    public static func buildStorage(_ input: RoadNetworkInput) -> RoadGraph.Storage {
        var nodeIndex: [Int64: Int32] = [:]
        nodeIndex.reserveCapacity(input.nodeIDs.count)
        for (i, id) in input.nodeIDs.enumerated() { nodeIndex[id] = Int32(i) }
        let lats = input.nodeLatitudes, lons = input.nodeLongitudes

        struct Run { var way: Int; var profile: Int; var nodes: [Int32] }
        var profiles: [VehicleProfiles.WayProfile] = []
        var runs: [Run] = []
        for (wi, way) in input.ways.enumerated() {
            guard let profile = VehicleProfiles.interpret(tags: way.tags) else { continue }
            let pi = profiles.count
            profiles.append(profile)
            var current: [Int32] = []
            func flush() {
                if current.count >= 2 { runs.append(Run(way: wi, profile: pi, nodes: current)) }
                current = []
            }
            for id in way.nodeIDs {
                guard let idx = nodeIndex[id] else { flush(); continue }
                if current.last == idx { continue }
                current.append(idx)
            }
            flush()
        }

        // Tower nodes: used twice or more (incl. twice by one way), run ends, restriction via nodes.
        var useCount = [UInt8](repeating: 0, count: input.nodeIDs.count)
        var tower = [Bool](repeating: false, count: input.nodeIDs.count)
        for run in runs {
            tower[Int(run.nodes[0])] = true
            tower[Int(run.nodes[run.nodes.count - 1])] = true
            for n in run.nodes where useCount[Int(n)] < 2 { useCount[Int(n)] += 1 }
        }
        for (i, c) in useCount.enumerated() where c >= 2 { tower[i] = true }
        for r in input.restrictions {
            if let idx = nodeIndex[r.viaNode], useCount[Int(idx)] > 0 { tower[Int(idx)] = true }
        }

        // Graph node ids in Morton (Z-order) of the coordinates, for memory locality of the search.
        var towers: [(key: UInt64, input: Int32)] = []
        for i in 0..<tower.count where tower[i] {
            towers.append((mortonKey(lats[i], lons[i]), Int32(i)))
        }
        towers.sort { $0.key < $1.key || ($0.key == $1.key && $0.input < $1.input) }
        var graphID = [Int32](repeating: -1, count: input.nodeIDs.count)
        var s = RoadGraph.EditableStorage()
        s.nodeLatE7.reserveCapacity(towers.count)
        for (gid, t) in towers.enumerated() {
            graphID[Int(t.input)] = Int32(gid)
            s.nodeLatE7.append(toE7(lats[Int(t.input)]))
            s.nodeLonE7.append(toE7(lons[Int(t.input)]))
            s.nodeOSMID.append(input.nodeIDs[Int(t.input)])
        }

        var nameIndex: [String: Int32] = ["": 0]
        s.names = [""]
        s.edgeGeometryStart = [0]
        var referencedWays = Set<Int64>()
        for r in input.restrictions { referencedWays.insert(r.fromWay); referencedWays.insert(r.toWay) }
        var wayEdges: [Int64: [Int32]] = [:]

        for run in runs {
            let way = input.ways[run.way]
            let p = profiles[run.profile]
            var speeds = p.speeds
            if let duration = p.ferryDurationSeconds {
                var length = 0.0
                for k in 1..<run.nodes.count {
                    let a = Int(run.nodes[k - 1]), b = Int(run.nodes[k])
                    length += Geo.distance(lats[a], lons[a], lats[b], lons[b])
                }
                let kmh = min(60, max(1, (length / duration * 3.6).rounded()))
                for v in 0..<speeds.count where speeds[v] > 0 { speeds[v] = UInt8(kmh) }
            }
            let nameID: Int32
            if let id = nameIndex[p.name] { nameID = id } else {
                nameID = Int32(s.names.count)
                nameIndex[p.name] = nameID
                s.names.append(p.name)
            }
            var maxWeight: UInt16 = 0
            if let kg = p.maxWeightKg { maxWeight = UInt16(min(65535, max(1, (kg / 10).rounded()))) }

            var start = 0
            var distance = 0.0
            var pillarsLat: [Int32] = [], pillarsLon: [Int32] = []
            for k in 1..<run.nodes.count {
                let a = Int(run.nodes[k - 1]), b = Int(run.nodes[k])
                distance += Geo.distance(fromE7(toE7(lats[a])), fromE7(toE7(lons[a])),
                                         fromE7(toE7(lats[b])), fromE7(toE7(lons[b])))
                if !tower[b] {
                    pillarsLat.append(toE7(lats[b]))
                    pillarsLon.append(toE7(lons[b]))
                    continue
                }
                let base = graphID[Int(run.nodes[start])], adj = graphID[b]
                if !(base == adj && pillarsLat.isEmpty) {
                    let e = Int32(s.edgeBaseNode.count)
                    s.edgeBaseNode.append(base)
                    s.edgeAdjNode.append(adj)
                    s.edgeDistance.append(distance)
                    s.edgeWayID.append(way.id)
                    s.edgeNameIndex.append(nameID)
                    s.edgeRoadClass.append(p.roadClass.rawValue)
                    s.edgeFlags.append(p.flags)
                    s.edgeAccess.append(p.access)
                    s.edgeSpeed.append(contentsOf: speeds)
                    s.edgeMaxWeight.append(maxWeight)
                    s.pillarLatE7.append(contentsOf: pillarsLat)
                    s.pillarLonE7.append(contentsOf: pillarsLon)
                    s.edgeGeometryStart.append(Int32(s.pillarLatE7.count))
                    if referencedWays.contains(way.id) { wayEdges[way.id, default: []].append(e) }
                }
                start = k
                distance = 0
                pillarsLat.removeAll(keepingCapacity: true)
                pillarsLon.removeAll(keepingCapacity: true)
            }
        }

        // Turn restrictions on directed edges (d = 2e: base→adj, 2e+1: adj→base).
        for r in input.restrictions {
            guard let vi = nodeIndex[r.viaNode], graphID[Int(vi)] >= 0,
                  let fromEdges = wayEdges[r.fromWay], let toEdges = wayEdges[r.toWay] else { continue }
            let v = graphID[Int(vi)]
            var incoming: [Int32] = [], outgoing: [Int32] = []
            for e in fromEdges {
                if s.edgeAdjNode[Int(e)] == v { incoming.append(2 * e) }
                if s.edgeBaseNode[Int(e)] == v { incoming.append(2 * e + 1) }
            }
            for e in toEdges {
                if s.edgeBaseNode[Int(e)] == v { outgoing.append(2 * e) }
                if s.edgeAdjNode[Int(e)] == v { outgoing.append(2 * e + 1) }
            }
            for din in incoming {
                for dout in outgoing {
                    if r.fromWay == r.toWay {
                        // Same way (no_u_turn): only the reversal of the arriving edge.
                        if dout != din ^ 1 { continue }
                    }
                    s.turnFromEdge.append(din)
                    s.turnToEdge.append(dout)
                    s.turnKind.append(r.kind.rawValue)
                    s.turnVehicles.append(r.vehicles.rawValue)
                }
            }
        }
        return RoadGraph.Storage(s)
    }

    @inline(__always) static func toE7(_ deg: Double) -> Int32 { Int32((deg * 1e7).rounded()) }
    @inline(__always) static func fromE7(_ v: Int32) -> Double { Double(v) / 1e7 }

    static func mortonKey(_ lat: Double, _ lon: Double) -> UInt64 {
        let y = UInt64(max(0, min(4_294_967_295, (lat + 90) / 180 * 4_294_967_295)))
        let x = UInt64(max(0, min(4_294_967_295, (lon + 180) / 360 * 4_294_967_295)))
        return spread(x) | (spread(y) << 1)
    }

    static func spread(_ v: UInt64) -> UInt64 {
        var x = v & 0xFFFF_FFFF
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333_3333_3333
        x = (x | (x << 1)) & 0x5555_5555_5555_5555
        return x
    }
}
