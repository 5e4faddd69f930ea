/// One tile of the XYZ (slippy-map) grid: zoom `z`, column `x` from the west, row `y` from the north.
///
/// `init(z:x:y:)` refuses coordinates no tile has (`z` outside 0…`maxZoom`, `x` or `y` outside 0..<2^z):
/// the API answers those with 400, never with an empty tile.
public struct TileID: Sendable, Hashable, CustomStringConvertible {
    /// The deepest zoom any tile request may name (MapLibre's own limit is 25; 24 keeps 2^z in 32 bits with room).
    public static let maxZoom = 24

    public let z: Int
    public let x: Int
    public let y: Int

    /// Nil when no tile has these coordinates.
    public init?(z: Int, x: Int, y: Int) {
        guard z >= 0, z <= TileID.maxZoom else { return nil }
        let n = 1 << z
        guard x >= 0, x < n, y >= 0, y < n else { return nil }
        self.z = z; self.x = x; self.y = y
    }

    /// Tiles per side at this zoom.
    public var tilesPerSide: Int { 1 << z }

    /// The tile's bounds in world coordinates (`WorldPoint`: 0…1, y down).
    public var worldBounds: WorldBounds {
        let n = Double(tilesPerSide)
        return WorldBounds(minX: Double(x) / n, minY: Double(y) / n, maxX: Double(x + 1) / n, maxY: Double(y + 1) / n)
    }

    /// The tile at `zoom` (≤ `z`) that holds this one: where an overzoomed request finds its data.
    public func ancestor(atZoom zoom: Int) -> TileID {
        precondition(zoom >= 0 && zoom <= z)
        let shift = z - zoom
        return TileID(z: zoom, x: x >> shift, y: y >> shift)!
    }

    /// The MBTiles (TMS) row of this tile: `2^z − 1 − y`.
    public var tmsRow: Int { tilesPerSide - 1 - y }

    public var description: String { "\(z)/\(x)/\(y)" }
}
