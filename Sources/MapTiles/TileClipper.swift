/// A point in one tile's coordinates before quantization: units of the tile extent (0…extent across the
/// tile), y down.
struct TilePoint: Equatable {
    var x: Double
    var y: Double
}

/// Clips geometry in tile units to an axis-aligned rectangle (the tile plus its buffer): lines with
/// Liang–Barsky per segment (a line that leaves and comes back becomes several parts), rings with
/// Sutherland–Hodgman, points by containment. Boundaries are inclusive.
struct TileClipper {
    let minX: Double, minY: Double, maxX: Double, maxY: Double

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    func contains(_ p: TilePoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// The parts of `line` inside the rectangle, in order; each part has at least two points.
    func clipLine(_ line: [TilePoint]) -> [[TilePoint]] {
        guard line.count >= 2 else { return [] }
        // Fast path: wholly inside.
        if line.allSatisfy(contains) { return [line] }
        var parts: [[TilePoint]] = []
        var current: [TilePoint] = []
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            guard let (t0, t1) = segmentRange(a, b) else {
                if current.count >= 2 { parts.append(current) }
                current.removeAll(keepingCapacity: true)
                continue
            }
            let c0 = t0 > 0 ? lerp(a, b, t0) : a
            let c1 = t1 < 1 ? lerp(a, b, t1) : b
            if t0 > 0 || current.isEmpty {
                if current.count >= 2 { parts.append(current) }
                current = [c0]
            }
            current.append(c1)
            if t1 < 1 {
                if current.count >= 2 { parts.append(current) }
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// The ring clipped to the rectangle (Sutherland–Hodgman; the ring is implicitly closed), or nil when
    /// fewer than three points remain. Parts of a concave ring on either side of an excursion stay joined
    /// along the boundary, as the algorithm does.
    func clipRing(_ ring: [TilePoint]) -> [TilePoint]? {
        guard ring.count >= 3 else { return nil }
        if ring.allSatisfy(contains) { return ring }
        var out = ring
        out = clipEdge(out, inside: { $0.x >= minX }, cross: { a, b in intersectX(a, b, minX) })
        out = clipEdge(out, inside: { $0.x <= maxX }, cross: { a, b in intersectX(a, b, maxX) })
        out = clipEdge(out, inside: { $0.y >= minY }, cross: { a, b in intersectY(a, b, minY) })
        out = clipEdge(out, inside: { $0.y <= maxY }, cross: { a, b in intersectY(a, b, maxY) })
        return out.count >= 3 ? out : nil
    }

    // MARK: - helpers

    /// Liang–Barsky: the parameter range [t0, t1] ⊂ [0, 1] of segment a→b inside the rectangle.
    private func segmentRange(_ a: TilePoint, _ b: TilePoint) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - minX), (dx, maxX - a.x), (-dy, a.y - minY), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        return (t0, t1)
    }

    private func lerp(_ a: TilePoint, _ b: TilePoint, _ t: Double) -> TilePoint {
        TilePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    private func intersectX(_ a: TilePoint, _ b: TilePoint, _ x: Double) -> TilePoint {
        let t = (x - a.x) / (b.x - a.x)
        return TilePoint(x: x, y: a.y + (b.y - a.y) * t)
    }

    private func intersectY(_ a: TilePoint, _ b: TilePoint, _ y: Double) -> TilePoint {
        let t = (y - a.y) / (b.y - a.y)
        return TilePoint(x: a.x + (b.x - a.x) * t, y: y)
    }

    private func clipEdge(_ ring: [TilePoint], inside: (TilePoint) -> Bool,
                          cross: (TilePoint, TilePoint) -> TilePoint) -> [TilePoint] {
        RingEdgeClipping.clip(ring, inside: inside, crossing: cross)
    }
}
