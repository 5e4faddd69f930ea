import ArrayBlob
import Platform

/// A position on the road network: a point on an edge (projected onto one of its segments), or a graph node.
public struct Snap: Sendable, Hashable {
    /// The edge the point lies on.
    public var edge: Int
    /// Segment index within the edge geometry (0 = from the base node to the first pillar).
    public var segment: Int
    /// Metres from the edge's base node along its geometry.
    public var distanceAlong: Double
    /// `distanceAlong / edge length` (0 when the edge has zero length).
    public var fraction: Double
    /// The snapped coordinate.
    public var point: GeoPoint
    /// Metres between the queried point and `point`.
    public var distance: Double
    /// The graph node when the point is exactly an edge end (a junction or dead end), else nil.
    public var node: Int?
    /// The one direction a route may leave this position in (true: base → adj), set by a
    /// bearing-filtered snap whose bearing allows one direction of the edge only; nil: either.
    public var departsForward: Bool? = nil
}

extension RoadGraph {
    /// Projects a point onto the nearest segment of an edge usable by `vehicle` (either direction; respecting
    /// `options`' avoidances and truck weight) that is not in a small disconnected subnetwork for the vehicle
    /// (`isSnappable(edge:vehicle:)`). Nil when nothing lies within `maxDistanceMeters`
    /// (default `options.maxSnapDistanceMeters`, 1000 m). With `bearing`, only segments the vehicle may
    /// travel in a direction the filter accepts are candidates (the nearest of those wins); the search
    /// from the snap leaves in the direction the bearing allows (`departsForward`; at an edge end the
    /// snap stays on the edge, `node` nil), unless the bearing allows both directions of the segment.
    public func snap(latitude: Double, longitude: Double, vehicle: Vehicle, options: RouteOptions = RouteOptions(),
                     maxDistanceMeters: Double? = nil, bearing: BearingFilter? = nil) -> Snap? {
        let maxDist = maxDistanceMeters ?? options.maxSnapDistanceMeters
        let grid = index.grid
        let s = storage
        guard s.edgeCount > 0, latitude.isFinite, longitude.isFinite else { return nil }
        let yScale = Geo.metresPerDegree
        let xScale = yScale * cos(latitude * Double.pi / 180)
        let snappable = index.stored.subnetworks.snappable
        let vehicleBit = UInt8(1) << UInt8(vehicle.rawValue)

        var bestD2 = Double.infinity
        var bestSeg = -1, bestT = 0.0
        var bestAlong = true, bestAgainst = true, bestLeaves = true
        let cxD = (longitude - grid.minLon) / grid.cellDeg, cyD = (latitude - grid.minLat) / grid.cellDeg
        guard abs(cxD) < 1e9, abs(cyD) < 1e9 else { return nil }
        let cx = Int(cxD.rounded(.down)), cy = Int(cyD.rounded(.down))
        var lastEdge = -1, lastUsable = false, lastForward = true, lastBackward = true

        func visit(cell c: Int) {
            for i in Int(grid.cellStart[c])..<Int(grid.cellStart[c + 1]) {
                let g = Int(grid.cellItems[i])
                let e = Int(grid.segEdge[g])
                if e != lastEdge {
                    lastEdge = e
                    // The bit implies access in some direction and speed > 0.
                    lastUsable = snappable[e] & vehicleBit != 0
                        && optionsAllow(edge: e, vehicle: vehicle, options: options)
                    if bearing != nil {
                        lastForward = isAccessible(edge: e, forward: true, vehicle: vehicle)
                        lastBackward = isAccessible(edge: e, forward: false, vehicle: vehicle)
                    }
                }
                guard lastUsable else { continue }
                let k = g - (Int(s.edgeGeometryStart[e]) + e)
                let (aLat, aLon) = pointE7(edge: e, index: k)
                let (bLat, bLon) = pointE7(edge: e, index: k + 1)
                let ax = (Double(aLon) / 1e7 - longitude) * xScale, ay = (Double(aLat) / 1e7 - latitude) * yScale
                let bx = (Double(bLon) / 1e7 - longitude) * xScale, by = (Double(bLat) / 1e7 - latitude) * yScale
                let dx = bx - ax, dy = by - ay
                var segmentAlong = true, segmentAgainst = true
                if let bearing {
                    // Planar azimuth of the segment base → adj (x east, y north).
                    var azimuth = atan2(dx, dy) * 180 / Double.pi
                    if azimuth < 0 { azimuth += 360 }
                    let along = lastForward && bearing.accepts(azimuth: azimuth)
                    let against = lastBackward && bearing.accepts(azimuth: azimuth >= 180 ? azimuth - 180 : azimuth + 180)
                    guard along || against else { continue }
                    segmentAlong = along
                    segmentAgainst = against
                }
                let len2 = dx * dx + dy * dy
                var t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0
                t = min(1, max(0, t))
                let px = ax + t * dx, py = ay + t * dy
                let d2 = px * px + py * py
                // With a bearing, at a graph node (where every edge there ties) prefer an edge the bearing
                // leaves the node along over one it arrives by.
                var leaves = true
                if bearing != nil && (t <= 0 || t >= 1) {
                    let atBase = t <= 0 && k == 0, atAdj = t >= 1 && k + 1 == segmentCount(edge: e)
                    leaves = !((atBase && !segmentAlong) || (atAdj && !segmentAgainst))
                }
                if d2 < bestD2 || (d2 == bestD2 && (leaves && !bestLeaves || (leaves == bestLeaves && g < bestSeg))) {
                    bestD2 = d2; bestSeg = g; bestT = t
                    bestAlong = segmentAlong; bestAgainst = segmentAgainst; bestLeaves = leaves
                }
            }
        }

        var r = 0
        while true {
            let ringMin = Double(max(0, r - 1)) * grid.cellMeters
            if ringMin > maxDist || (bestSeg >= 0 && ringMin * ringMin > bestD2) { break }
            // Stop once the ring lies entirely outside the grid and beyond the radius.
            let y0 = cy - r, y1 = cy + r, x0 = cx - r, x1 = cx + r
            if y1 < 0 && x1 < 0 && r > grid.nx + grid.ny + 2 { break }
            if y0 >= grid.ny || y1 < 0 || x0 >= grid.nx || x1 < 0 {
                if r > (grid.nx + grid.ny) * 2 + Int(maxDist / max(1, grid.cellMeters)) + 2 { break }
                r += 1
                continue
            }
            for y in max(0, y0)...min(grid.ny - 1, y1) {
                if y == y0 || y == y1 {
                    let xs = max(0, x0), xe = min(grid.nx - 1, x1)
                    if xs <= xe { for x in xs...xe { visit(cell: y * grid.nx + x) } }
                } else {
                    if x0 >= 0 && x0 < grid.nx { visit(cell: y * grid.nx + x0) }
                    if x1 >= 0 && x1 < grid.nx && x1 != x0 { visit(cell: y * grid.nx + x1) }
                }
            }
            r += 1
        }
        guard bestSeg >= 0 else { return nil }
        let e = Int(grid.segEdge[bestSeg])
        let k = bestSeg - (Int(s.edgeGeometryStart[e]) + e)
        var snap = makeSnap(edge: e, segment: k, t: bestT, queryLatitude: latitude, queryLongitude: longitude)
        if bearing != nil, bestAlong != bestAgainst {
            // Even at an edge end the position stays on the chosen edge, so the direction holds.
            snap.node = nil
            snap.departsForward = bestAlong
        }
        return snap.distance <= maxDist ? snap : nil
    }

    /// Number of segments of an edge (pillars + 1).
    func segmentCount(edge e: Int) -> Int {
        Int(storage.edgeGeometryStart[e + 1] - storage.edgeGeometryStart[e]) + 1
    }

    /// Point `index` (0 = base node … segmentCount = adj node) of edge `e`, 1e-7 degrees.
    @inline(__always) func pointE7(edge e: Int, index: Int) -> (Int32, Int32) {
        let s = storage
        if index == 0 { let n = Int(s.edgeBaseNode[e]); return (s.nodeLatE7[n], s.nodeLonE7[n]) }
        let gs = Int(s.edgeGeometryStart[e])
        if index - 1 < Int(s.edgeGeometryStart[e + 1]) - gs {
            return (s.pillarLatE7[gs + index - 1], s.pillarLonE7[gs + index - 1])
        }
        let n = Int(s.edgeAdjNode[e]); return (s.nodeLatE7[n], s.nodeLonE7[n])
    }

    func point(edge e: Int, index: Int) -> GeoPoint {
        let (la, lo) = pointE7(edge: e, index: index)
        return GeoPoint(Double(la) / 1e7, Double(lo) / 1e7)
    }

    /// Distance from the base node to point `index` along edge `e`.
    func distanceAlong(edge e: Int, toPoint index: Int) -> Double {
        if index >= segmentCount(edge: e) { return storage.edgeDistance[e] }
        var d = 0.0
        var p = point(edge: e, index: 0)
        if index == 0 { return 0 }
        for i in 1...index {
            let q = point(edge: e, index: i)
            d += Geo.distance(p, q)
            p = q
        }
        return d
    }

    func makeSnap(edge e: Int, segment k: Int, t: Double, queryLatitude: Double, queryLongitude: Double) -> Snap {
        let a = point(edge: e, index: k), b = point(edge: e, index: k + 1)
        let segs = segmentCount(edge: e)
        var node: Int?
        var p: GeoPoint
        let length = storage.edgeDistance[e]
        var along: Double
        if t <= 0 {
            p = a
            along = distanceAlong(edge: e, toPoint: k)
            if k == 0 { node = Int(storage.edgeBaseNode[e]); along = 0 }
        } else if t >= 1 {
            p = b
            along = distanceAlong(edge: e, toPoint: k + 1)
            if k + 1 == segs { node = Int(storage.edgeAdjNode[e]); along = length }
        } else {
            p = GeoPoint(a.latitude + t * (b.latitude - a.latitude), a.longitude + t * (b.longitude - a.longitude))
            along = distanceAlong(edge: e, toPoint: k) + Geo.distance(a, p)
        }
        along = min(length, max(0, along))
        let fraction = length > 0 ? along / length : 0
        return Snap(edge: e, segment: k, distanceAlong: along, fraction: fraction, point: p,
                    distance: Geo.distance(queryLatitude, queryLongitude, p.latitude, p.longitude), node: node)
    }

    /// The position of a graph node (as a `Snap` with `node` set), e.g. for node-to-node queries.
    public func position(ofNode node: Int) -> Snap {
        let s = storage
        let st = Int(index.adjStart[node]), en = Int(index.adjStart[node + 1])
        let c = coordinate(ofNode: node)
        guard st < en else {
            return Snap(edge: -1, segment: 0, distanceAlong: 0, fraction: 0, point: c, distance: 0, node: node)
        }
        let d = Int(index.adjDirEdge[st])
        let e = d >> 1
        if d & 1 == 0 {
            return Snap(edge: e, segment: 0, distanceAlong: 0, fraction: 0, point: c, distance: 0, node: node)
        }
        return Snap(edge: e, segment: segmentCount(edge: e) - 1, distanceAlong: s.edgeDistance[e],
                    fraction: 1, point: c, distance: 0, node: node)
    }
}
