import Foundation

/// Why a box or zoom range names no tiles: the cover refuses it rather than guessing.
public enum TileCoverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A latitude outside −90…90, a longitude outside −180…180, or a value that is not finite.
    case invalidCoordinate(String)
    /// South above north, or west east of east (a box across the antimeridian must be given as two boxes).
    case invertedBox(String)
    /// A zoom outside 0…`TileID.maxZoom`.
    case invalidZoom(Int)

    public var description: String {
        switch self {
        case .invalidCoordinate(let what): return "invalid coordinate: \(what)"
        case .invertedBox(let what): return "inverted box: \(what)"
        case .invalidZoom(let z): return "zoom \(z) is outside 0…\(TileID.maxZoom)"
        }
    }
}

/// The tiles of one zoom that cover a box: columns `columns`, rows `rows` (XYZ, y down), walked row by row.
///
/// A box edge that falls exactly on a tile edge does not pull in the tile beyond it; a box of zero width
/// or height still covers the tile it lies in. `count` is computed, never materialised, so a deep zoom over
/// a wide box costs nothing until it is walked.
public struct TileCover: Sequence, Sendable, Hashable {
    public let z: Int
    public let columns: ClosedRange<Int>
    public let rows: ClosedRange<Int>

    /// The tiles at zoom `z` covering `bounds` (world coordinates; parts outside 0…1 are clamped).
    public init(z: Int, covering bounds: WorldBounds) throws(TileCoverError) {
        guard z >= 0, z <= TileID.maxZoom else { throw .invalidZoom(z) }
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
            throw .invalidCoordinate("world bounds \(bounds) are not finite")
        }
        guard bounds.minX <= bounds.maxX, bounds.minY <= bounds.maxY else {
            throw .invertedBox("world bounds \(bounds)")
        }
        let n = 1 << z
        func first(_ v: Double) -> Int { Swift.min(Swift.max(Int((v * Double(n)).rounded(.down)), 0), n - 1) }
        // The last tile: exclusive at a tile edge, so 0.5 at z1 ends in tile 0, not 1.
        func last(_ v: Double, from lower: Int) -> Int {
            Swift.max(Swift.min(Int((v * Double(n)).rounded(.up)) - 1, n - 1), lower)
        }
        let minX = first(bounds.minX), minY = first(bounds.minY)
        self.z = z
        self.columns = minX...last(bounds.maxX, from: minX)
        self.rows = minY...last(bounds.maxY, from: minY)
    }

    /// The tiles at zoom `z` covering a WGS84 box (degrees).
    public init(z: Int, west: Double, south: Double, east: Double, north: Double) throws(TileCoverError) {
        try self.init(z: z, covering: TileCover.worldBounds(west: west, south: south, east: east, north: north))
    }

    /// One cover per zoom of `zooms`, shallowest first.
    public static func covers(west: Double, south: Double, east: Double, north: Double,
                              zooms: ClosedRange<Int>) throws(TileCoverError) -> [TileCover] {
        guard zooms.lowerBound >= 0 else { throw .invalidZoom(zooms.lowerBound) }
        guard zooms.upperBound <= TileID.maxZoom else { throw .invalidZoom(zooms.upperBound) }
        let world = try worldBounds(west: west, south: south, east: east, north: north)
        var out: [TileCover] = []
        for z in zooms { out.append(try TileCover(z: z, covering: world)) }
        return out
    }

    /// A WGS84 box (degrees) in world coordinates, checked.
    public static func worldBounds(west: Double, south: Double, east: Double, north: Double) throws(TileCoverError) -> WorldBounds {
        for (name, value, limit) in [("west", west, 180.0), ("east", east, 180), ("south", south, 90), ("north", north, 90)] {
            guard value.isFinite, abs(value) <= limit else { throw .invalidCoordinate("\(name) = \(value)") }
        }
        guard south <= north else { throw .invertedBox("south \(south) > north \(north)") }
        guard west <= east else { throw .invertedBox("west \(west) > east \(east)") }
        let northWest = WorldPoint(latitude: north, longitude: west)
        let southEast = WorldPoint(latitude: south, longitude: east)
        return WorldBounds(minX: northWest.x, minY: northWest.y, maxX: southEast.x, maxY: southEast.y)
    }

    /// How many tiles the cover holds.
    public var count: Int { columns.count * rows.count }

    public var underestimatedCount: Int { count }

    public func contains(_ tile: TileID) -> Bool {
        tile.z == z && columns.contains(tile.x) && rows.contains(tile.y)
    }

    public func makeIterator() -> Iterator { Iterator(cover: self) }

    /// Walks the cover row by row, west to east.
    public struct Iterator: IteratorProtocol {
        let cover: TileCover
        var x: Int
        var y: Int

        init(cover: TileCover) {
            self.cover = cover
            x = cover.columns.lowerBound
            y = cover.rows.lowerBound
        }

        public mutating func next() -> TileID? {
            guard y <= cover.rows.upperBound else { return nil }
            let tile = TileID(z: cover.z, x: x, y: y)
            x += 1
            if x > cover.columns.upperBound { x = cover.columns.lowerBound; y += 1 }
            return tile
        }
    }
}
