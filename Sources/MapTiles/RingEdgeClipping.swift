/// One step of Sutherland–Hodgman polygon clipping, for any point type: the ring cut by one edge of the clip
/// rectangle (`inside` says which side is kept, `crossing` where a segment meets the edge). The vector tile
/// cutter (`TileClipper`) and the raster projection (`TilePixelProjection`) both clip rings with it.
enum RingEdgeClipping {
    static func clip<Point>(_ ring: [Point], inside: (Point) -> Bool, crossing: (Point, Point) -> Point) -> [Point] {
        guard let last = ring.last else { return ring }
        var out: [Point] = []
        out.reserveCapacity(ring.count + 4)
        var previous = last
        var previousInside = inside(previous)
        for point in ring {
            let pointInside = inside(point)
            if pointInside {
                if !previousInside { out.append(crossing(previous, point)) }
                out.append(point)
            } else if previousInside {
                out.append(crossing(previous, point))
            }
            previous = point
            previousInside = pointInside
        }
        return out
    }
}
