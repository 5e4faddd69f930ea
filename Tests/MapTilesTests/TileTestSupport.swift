import Foundation
@testable import MapTiles

/// Test support: world points named by tile units of a tile (exact for integer units: powers of two), and a
/// seeded generator so generated data is the same every run.
enum TileUnits {
    static func world(_ tile: TileID, _ u: Double, _ v: Double, extent: Double = 4096) -> WorldPoint {
        let n = Double(tile.tilesPerSide)
        return WorldPoint(x: (Double(tile.x) + u / extent) / n, y: (Double(tile.y) + v / extent) / n)
    }

    static func line(_ tile: TileID, _ points: [(Double, Double)]) -> [WorldPoint] {
        points.map { world(tile, $0.0, $0.1) }
    }

    static func points(_ pairs: [(Int, Int)]) -> [VectorTileReader.Point] {
        pairs.map { VectorTileReader.Point(x: $0.0, y: $0.1) }
    }
}
