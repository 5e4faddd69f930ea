import MapTiles

/// The area a dataset's map covers: where a style opens (`center`, `zoom`) and a TileJSON's `bounds`.
public struct MapExtent: Sendable, Equatable {
    public var bounds: WorldBounds
    /// The zoom a style opens at.
    public var zoom: Double

    public init(bounds: WorldBounds, zoom: Double = 12) {
        self.bounds = bounds; self.zoom = zoom
    }

    /// The box around `features` (nil for none).
    public init?(features: [MapFeature], zoom: Double = 12) {
        var points: [WorldPoint] = []
        for feature in features {
            switch feature.geometry {
            case .points(let p): points += p
            case .lines(let lines): for line in lines { if let first = line.first { points.append(first) } }
            case .polygons(let polygons): for polygon in polygons { if let first = polygon.first?.first { points.append(first) } }
            }
        }
        guard let bounds = WorldBounds(enclosing: points) else { return nil }
        self.init(bounds: bounds, zoom: zoom)
    }

    /// The centre of the box.
    public var center: WorldPoint { WorldPoint(x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2) }

    /// `[west, south, east, north]` in degrees.
    public var degrees: [Double] {
        let northWest = WorldPoint(x: bounds.minX, y: bounds.minY), southEast = WorldPoint(x: bounds.maxX, y: bounds.maxY)
        return [northWest.longitude, southEast.latitude, southEast.longitude, northWest.latitude]
    }
}
