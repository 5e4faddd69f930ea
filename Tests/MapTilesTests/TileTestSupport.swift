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

/// SplitMix64: a small seeded generator (the test's own, so runs repeat).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
