import Foundation
import MapTiles

/// Where a coordinate falls at a zoom: its tile and its position in that tile's units.
struct TilePosition {
    let z: Int, x: Int, y: Int
    /// Position in tile units (extent 4096).
    let u: Double, v: Double

    init(lat: Double, lng: Double, z: Int, extent: Double = 4096) {
        let world = WorldPoint(latitude: lat, longitude: lng)
        let n = Double(1 << z)
        let fx = world.x * n, fy = world.y * n
        self.z = z; x = Int(fx.rounded(.down)); y = Int(fy.rounded(.down))
        u = (fx - Double(x)) * extent; v = (fy - Double(y)) * extent
    }

    /// Distance in tile units from this position to the nearest segment (or single point) of `parts`.
    func distance(to parts: [[VectorTileReader.Point]]) -> Double {
        var best = Double.infinity
        for part in parts {
            if part.count == 1 { best = min(best, hypot(Double(part[0].x) - u, Double(part[0].y) - v)) }
            for (a, b) in zip(part, part.dropFirst()) {
                let ax = Double(a.x), ay = Double(a.y), dx = Double(b.x) - ax, dy = Double(b.y) - ay
                let length2 = dx * dx + dy * dy
                let t = length2 == 0 ? 0 : max(0, min(1, ((u - ax) * dx + (v - ay) * dy) / length2))
                best = min(best, hypot(ax + t * dx - u, ay + t * dy - v))
            }
        }
        return best
    }
}
