/// A point in a raster tile's pixels: x to the east, y down, (0, 0) the tile's north-west corner.
struct PixelPoint: Equatable {
    var x: Double
    var y: Double

    var isFinite: Bool { x.isFinite && y.isFinite }
}

/// World coordinates → pixels of one raster tile (`(p.x · 2^z − x) · 256 · scale`), cut to a margin around the
/// tile: what lies beyond the margin is never drawn, and Cairo's 24.8 fixed-point coordinates would overflow on
/// a deep tile's far-away vertices. The margin is wide enough that cut ends and edges stay out of sight under
/// any stroke narrower than it.
struct TilePixelProjection {
    let tileSize: Double
    let margin: Double
    private let scale: Double
    private let originX: Double
    private let originY: Double
    private let minP: Double
    private let maxP: Double

    init(tile: TileID, pixelsPerTile: Double, margin: Double) {
        let n = Double(tile.tilesPerSide)
        scale = n * pixelsPerTile
        originX = Double(tile.x) * pixelsPerTile
        originY = Double(tile.y) * pixelsPerTile
        tileSize = pixelsPerTile
        self.margin = margin
        minP = -margin
        maxP = pixelsPerTile + margin
    }

    func project(_ p: WorldPoint) -> PixelPoint {
        PixelPoint(x: p.x * scale - originX, y: p.y * scale - originY)
    }

    /// Whether `p` lies inside the margin box (grown by `extra`); false for points that are not finite.
    func isNear(_ p: PixelPoint, extra: Double = 0) -> Bool {
        p.x >= minP - extra && p.x <= maxP + extra && p.y >= minP - extra && p.y <= maxP + extra
    }

    /// The parts of a line inside the margin box, each at least two points; appended to `runs`. Points that are
    /// not finite (NaN, infinity) are left out, here and in `ring`.
    func appendRuns(of line: [WorldPoint], to runs: inout [[PixelPoint]]) {
        guard line.count >= 2 else { return }
        var points = line.map(project)
        if !points.allSatisfy(\.isFinite) { points = points.filter(\.isFinite) }
        guard points.count >= 2 else { return }
        var lo = points[0], hi = points[0]
        for p in points {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y); hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        if hi.x < minP || lo.x > maxP || hi.y < minP || lo.y > maxP { return }
        if lo.x >= minP && hi.x <= maxP && lo.y >= minP && hi.y <= maxP {
            runs.append(points)
            return
        }
        var run: [PixelPoint] = []
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            guard let (ca, cb) = cutSegment(a, b) else {
                if run.count >= 2 { runs.append(run) }
                run = []
                continue
            }
            if run.isEmpty || run[run.count - 1] != ca {
                if run.count >= 2 { runs.append(run) }
                run = [ca]
            }
            run.append(cb)
            if cb != b {
                if run.count >= 2 { runs.append(run) }
                run = []
            }
        }
        if run.count >= 2 { runs.append(run) }
    }

    /// The segment a→b cut to the margin box (Liang–Barsky), nil when none of it is inside.
    private func cutSegment(_ a: PixelPoint, _ b: PixelPoint) -> (PixelPoint, PixelPoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - minP), (dx, maxP - a.x), (-dy, a.y - minP), (dy, maxP - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil }; if r > t0 { t0 = r } } else { if r < t0 { return nil }; if r < t1 { t1 = r } }
            }
        }
        let ca = t0 == 0 ? a : PixelPoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let cb = t1 == 1 ? b : PixelPoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (ca, cb)
    }

    /// A ring in pixels cut to the margin box (Sutherland–Hodgman); empty when nothing of it is inside.
    /// Edges the cut adds run along the margin box, out of sight.
    func ring(_ ring: [WorldPoint]) -> [PixelPoint] {
        guard ring.count >= 3 else { return [] }
        var points = ring.map(project)
        if !points.allSatisfy(\.isFinite) { points = points.filter(\.isFinite) }
        guard points.count >= 3 else { return [] }
        var lo = points[0], hi = points[0]
        for p in points {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y); hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        if hi.x < minP || lo.x > maxP || hi.y < minP || lo.y > maxP { return [] }
        if lo.x >= minP && hi.x <= maxP && lo.y >= minP && hi.y <= maxP { return points }
        if lo.x < minP { points = cutRing(points, axisX: true, bound: minP, keepGreater: true) }
        if hi.x > maxP { points = cutRing(points, axisX: true, bound: maxP, keepGreater: false) }
        if lo.y < minP { points = cutRing(points, axisX: false, bound: minP, keepGreater: true) }
        if hi.y > maxP { points = cutRing(points, axisX: false, bound: maxP, keepGreater: false) }
        return points.count >= 3 ? points : []
    }

    private func cutRing(_ points: [PixelPoint], axisX: Bool, bound: Double, keepGreater: Bool) -> [PixelPoint] {
        func inside(_ p: PixelPoint) -> Bool {
            let v = axisX ? p.x : p.y
            return keepGreater ? v >= bound : v <= bound
        }
        func crossing(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
            if axisX {
                let t = (bound - a.x) / (b.x - a.x)
                return PixelPoint(x: bound, y: a.y + t * (b.y - a.y))
            }
            let t = (bound - a.y) / (b.y - a.y)
            return PixelPoint(x: a.x + t * (b.x - a.x), y: bound)
        }
        return RingEdgeClipping.clip(points, inside: inside, crossing: crossing)
    }
}
