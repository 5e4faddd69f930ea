import Protobuf

/// Turns one feature's world geometry into MVT geometry commands for one tile: project to tile units, clip
/// to the tile plus buffer, simplify, quantize to integers, drop repeated points and degenerate parts, orient
/// rings (exterior positive surveyor's area with y down — clockwise on screen —, holes negative), and write
/// MoveTo/LineTo/ClosePath with zigzag deltas from a cursor that starts at (0, 0) for the feature.
///
/// One encoder serves one tile: it keeps scratch buffers between features so a feature costs no allocation
/// once they have grown, and appends every feature's commands to one shared buffer.
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

    private var projected: [TilePoint] = []
    private var simplified: [TilePoint] = []
    private var quantized: [(Int32, Int32)] = []
    private var dpScratch = DouglasPeucker.Scratch()

    init(tile: TileID, extent: Int, buffer: Int, tolerance: Double) {
        scale = Double(tile.tilesPerSide) * Double(extent)
        originX = Double(tile.x) * Double(extent)
        originY = Double(tile.y) * Double(extent)
        let b = Double(buffer), e = Double(extent)
        clipper = TileClipper(minX: -b, minY: -b, maxX: e + b, maxY: e + b)
        self.tolerance = tolerance
    }

    /// Appends the commands of feature `feature` of `flat` in this tile to `commands` and returns its type,
    /// or returns nil (and leaves `commands` as it was) when nothing of it is left.
    mutating func encode(_ feature: Int, of flat: FlatGeometry, into commands: inout [UInt32]) -> GeomType? {
        let start = commands.count
        let firstPart = Int(flat.featureParts[feature]), endPart = Int(flat.featureParts[feature + 1])
        guard firstPart < endPart else { return nil }
        var writer = CommandWriter()
        let type: GeomType
        switch flat.kinds[feature] {
        case .points:
            type = .point
            quantized.removeAll(keepingCapacity: true)
            for k in firstPart..<endPart {
                for j in Int(flat.partStarts[k])..<Int(flat.partStarts[k + 1]) {
                    let t = project(flat.points[j])
                    if clipper.contains(t) { quantized.append(quantize(t)) }
                }
            }
            guard !quantized.isEmpty else { return nil }
            writer.command(1, count: quantized.count, into: &commands)
            for q in quantized { writer.point(q, into: &commands) }
        case .lines:
            type = .line
            for k in firstPart..<endPart {
                projectPart(k, of: flat)
                if projected.allSatisfy(clipper.contains) {
                    appendLine(projected, writer: &writer, commands: &commands)
                } else {
                    for part in clipper.clipLine(projected) { appendLine(part, writer: &writer, commands: &commands) }
                }
            }
        case .polygons:
            type = .polygon
            var exteriorKept = false
            for k in firstPart..<endPart {
                let isExterior = flat.exterior[k]
                if !isExterior && !exteriorKept { continue }   // the hole of a dropped exterior
                guard let area = ring(k, of: flat) else {
                    if isExterior { exteriorKept = false }
                    continue
                }
                if isExterior { exteriorKept = true }
                writer.ring(quantized, reversed: isExterior ? area < 0 : area > 0, into: &commands)
            }
        }
        return commands.count > start ? type : nil
    }

    // MARK: - steps

    func project(_ p: WorldPoint) -> TilePoint {
        TilePoint(x: p.x * scale - originX, y: p.y * scale - originY)
    }

    private mutating func projectPart(_ k: Int, of flat: FlatGeometry) {
        projected.removeAll(keepingCapacity: true)
        for j in Int(flat.partStarts[k])..<Int(flat.partStarts[k + 1]) { projected.append(project(flat.points[j])) }
    }

    /// One line part, simplified, quantized and written; nothing when it collapses to a point.
    private mutating func appendLine(_ part: [TilePoint], writer: inout CommandWriter, commands: inout [UInt32]) {
        guard part.count >= 2 else { return }
        if tolerance > 0 {
            DouglasPeucker.simplify(part, tolerance: tolerance, into: &simplified, scratch: &dpScratch)
            quantizeDeduplicated(simplified)
        } else {
            quantizeDeduplicated(part)
        }
        guard quantized.count >= 2 else { return }
        writer.command(1, count: 1, into: &commands)
        writer.point(quantized[0], into: &commands)
        writer.command(2, count: quantized.count - 1, into: &commands)
        for i in 1..<quantized.count { writer.point(quantized[i], into: &commands) }
    }

    /// A ring clipped, simplified and quantized into `quantized`; its doubled surveyor's area, or nil when
    /// degenerate.
    private mutating func ring(_ k: Int, of flat: FlatGeometry) -> Int64? {
        guard flat.partStarts[k + 1] - flat.partStarts[k] >= 3 else { return nil }
        projectPart(k, of: flat)
        guard var clipped = clipper.clipRing(projected) else { return nil }
        if tolerance > 0 {
            clipped.append(clipped[0])
            DouglasPeucker.simplify(clipped, tolerance: tolerance, into: &simplified, scratch: &dpScratch)
            simplified.removeLast()
            quantizeDeduplicated(simplified)
        } else {
            quantizeDeduplicated(clipped)
        }
        while quantized.count > 1, quantized[quantized.count - 1] == quantized[0] { quantized.removeLast() }
        guard quantized.count >= 3 else { return nil }
        let area = TileGeometryEncoder.doubledArea(quantized)
        return area == 0 ? nil : area
    }

    private func quantize(_ p: TilePoint) -> (Int32, Int32) {
        (Int32(p.x.rounded()), Int32(p.y.rounded()))
    }

    private mutating func quantizeDeduplicated(_ points: [TilePoint]) {
        quantized.removeAll(keepingCapacity: true)
        for p in points {
            let q = quantize(p)
            if let last = quantized.last, last == q { continue }
            quantized.append(q)
        }
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
    var cursor: (Int32, Int32) = (0, 0)

    func command(_ id: UInt32, count: Int, into words: inout [UInt32]) {
        words.append((id & 7) | (UInt32(count) << 3))
    }

    mutating func point(_ p: (Int32, Int32), into words: inout [UInt32]) {
        words.append(ProtobufWriter.zigzag32(p.0 &- cursor.0))
        words.append(ProtobufWriter.zigzag32(p.1 &- cursor.1))
        cursor = p
    }

    /// MoveTo(1) + LineTo(n−1) + ClosePath; the first point is not repeated. `reversed` writes the ring the
    /// other way round, from the same first point.
    mutating func ring(_ points: [(Int32, Int32)], reversed: Bool, into words: inout [UInt32]) {
        command(1, count: 1, into: &words)
        point(points[0], into: &words)
        command(2, count: points.count - 1, into: &words)
        if reversed {
            for i in stride(from: points.count - 1, through: 1, by: -1) { point(points[i], into: &words) }
        } else {
            for i in 1..<points.count { point(points[i], into: &words) }
        }
        command(7, count: 1, into: &words)
    }
}
