/// Turns one feature's world geometry into MVT geometry commands for one tile: project to tile units, clip
/// to the tile plus buffer, simplify, quantize to integers, drop repeated points and degenerate parts, orient
/// rings (exterior positive surveyor's area with y down — clockwise on screen —, holes negative), and write
/// MoveTo/LineTo/ClosePath with zigzag deltas from a cursor that starts at (0, 0) for the feature.
struct TileGeometryEncoder {
    /// MVT geometry type (Feature.type).
    enum GeomType: UInt64 {
        case point = 1, line = 2, polygon = 3
    }

    let scale: Double          // world → tile units: 2^z · extent
    let originX: Double        // tile x · extent
    let originY: Double
    let clipper: TileClipper
    let tolerance: Double      // Douglas–Peucker tolerance in tile units; 0 for none

    init(tile: TileID, extent: Int, buffer: Int, tolerance: Double) {
        scale = Double(tile.tilesPerSide) * Double(extent)
        originX = Double(tile.x) * Double(extent)
        originY = Double(tile.y) * Double(extent)
        let b = Double(buffer), e = Double(extent)
        clipper = TileClipper(minX: -b, minY: -b, maxX: e + b, maxY: e + b)
        self.tolerance = tolerance
    }

    /// The feature's type and commands in this tile, or nil when nothing of it is left.
    func encode(_ geometry: MapGeometry) -> (GeomType, [UInt32])? {
        var commands = CommandWriter()
        switch geometry {
        case .points(let points):
            var kept: [(Int32, Int32)] = []
            for p in points {
                let t = project(p)
                if clipper.contains(t) { kept.append(quantize(t)) }
            }
            guard !kept.isEmpty else { return nil }
            commands.command(1, count: kept.count)
            for q in kept { commands.point(q) }
            return (.point, commands.words)
        case .lines(let lines):
            for line in lines {
                for part in clipper.clipLine(line.map(project)) {
                    let q = quantizeDeduplicated(DouglasPeucker.simplify(part, tolerance: tolerance))
                    guard q.count >= 2 else { continue }
                    commands.command(1, count: 1)
                    commands.point(q[0])
                    commands.command(2, count: q.count - 1)
                    for p in q.dropFirst() { commands.point(p) }
                }
            }
            return commands.words.isEmpty ? nil : (.line, commands.words)
        case .polygons(let polygons):
            for polygon in polygons {
                guard let exterior = polygon.first, var outer = ring(exterior) else { continue }
                if outer.area < 0 { outer.points.reverse() }
                commands.ring(outer.points)
                for hole in polygon.dropFirst() {
                    guard var inner = ring(hole) else { continue }
                    if inner.area > 0 { inner.points.reverse() }
                    commands.ring(inner.points)
                }
            }
            return commands.words.isEmpty ? nil : (.polygon, commands.words)
        }
    }

    // MARK: - steps

    func project(_ p: WorldPoint) -> TilePoint {
        TilePoint(x: p.x * scale - originX, y: p.y * scale - originY)
    }

    /// A ring clipped, simplified and quantized, with its doubled surveyor's area; nil when degenerate.
    private func ring(_ world: [WorldPoint]) -> (points: [(Int32, Int32)], area: Int64)? {
        guard world.count >= 3, var clipped = clipper.clipRing(world.map(project)) else { return nil }
        if tolerance > 0 {
            clipped.append(clipped[0])
            clipped = DouglasPeucker.simplify(clipped, tolerance: tolerance)
            clipped.removeLast()
        }
        var q = quantizeDeduplicated(clipped)
        while q.count > 1, q[q.count - 1] == q[0] { q.removeLast() }
        guard q.count >= 3 else { return nil }
        let area = TileGeometryEncoder.doubledArea(q)
        return area == 0 ? nil : (q, area)
    }

    private func quantize(_ p: TilePoint) -> (Int32, Int32) {
        (Int32(p.x.rounded()), Int32(p.y.rounded()))
    }

    private func quantizeDeduplicated(_ points: [TilePoint]) -> [(Int32, Int32)] {
        var out: [(Int32, Int32)] = []
        out.reserveCapacity(points.count)
        for p in points {
            let q = quantize(p)
            if let last = out.last, last == q { continue }
            out.append(q)
        }
        return out
    }

    /// Twice the surveyor's-formula area (Σ xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ) of a closed ring; positive is clockwise
    /// on screen (y down).
    static func doubledArea(_ ring: [(Int32, Int32)]) -> Int64 {
        var sum: Int64 = 0
        var prev = ring[ring.count - 1]
        for p in ring {
            sum += Int64(prev.0) * Int64(p.1) - Int64(p.0) * Int64(prev.1)
            prev = p
        }
        return sum
    }
}

/// Geometry command words with the per-feature cursor.
private struct CommandWriter {
    var words: [UInt32] = []
    var cursor: (Int32, Int32) = (0, 0)

    mutating func command(_ id: UInt32, count: Int) {
        words.append((id & 7) | (UInt32(count) << 3))
    }

    mutating func point(_ p: (Int32, Int32)) {
        words.append(ProtobufWriter.zigzag32(p.0 &- cursor.0))
        words.append(ProtobufWriter.zigzag32(p.1 &- cursor.1))
        cursor = p
    }

    /// MoveTo(1) + LineTo(n−1) + ClosePath; the first point is not repeated.
    mutating func ring(_ points: [(Int32, Int32)]) {
        command(1, count: 1)
        point(points[0])
        command(2, count: points.count - 1)
        for p in points.dropFirst() { point(p) }
        command(7, count: 1)
    }
}
