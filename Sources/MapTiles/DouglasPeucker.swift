/// Douglas–Peucker simplification in tile units: drops the points of a polyline that lie within
/// `tolerance` of the chord that replaces them. The first and last points are always kept, so a road edge
/// handed over junction to junction keeps its junctions.
enum DouglasPeucker {
    /// Reusable buffers for `simplify(_:tolerance:into:scratch:)`.
    struct Scratch {
        var keep: [Bool] = []
        var stack: [(Int, Int)] = []
    }

    /// `points` simplified into `out` (replacing its contents), with no allocation once the buffers have grown.
    static func simplify(_ points: [TilePoint], tolerance: Double, into out: inout [TilePoint], scratch: inout Scratch) {
        out.removeAll(keepingCapacity: true)
        guard tolerance > 0, points.count > 2 else { out.append(contentsOf: points); return }
        scratch.keep.removeAll(keepingCapacity: true)
        scratch.keep.append(contentsOf: repeatElement(false, count: points.count))
        scratch.keep[0] = true; scratch.keep[points.count - 1] = true
        let tol2 = tolerance * tolerance
        scratch.stack.removeAll(keepingCapacity: true)
        scratch.stack.append((0, points.count - 1))
        while let (first, last) = scratch.stack.popLast() {
            guard last - first > 1 else { continue }
            var maxDist = -1.0, index = first
            let a = points[first], b = points[last]
            for i in (first + 1)..<last {
                let d = squaredSegmentDistance(points[i], a, b)
                if d > maxDist { maxDist = d; index = i }
            }
            if maxDist > tol2 {
                scratch.keep[index] = true
                scratch.stack.append((first, index))
                scratch.stack.append((index, last))
            }
        }
        for i in points.indices where scratch.keep[i] { out.append(points[i]) }
    }

    /// Squared distance from `p` to segment a–b (to `a` when the segment is a point).
    static func squaredSegmentDistance(_ p: TilePoint, _ a: TilePoint, _ b: TilePoint) -> Double {
        var x = a.x, y = a.y
        let dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b.x; y = b.y } else if t > 0 { x += dx * t; y += dy * t }
        }
        let ex = p.x - x, ey = p.y - y
        return ex * ex + ey * ey
    }
}
