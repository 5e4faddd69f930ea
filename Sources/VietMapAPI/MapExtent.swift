import ArrayBlob
import MapTiles
import Routing

/// The area a dataset's map covers: where a style opens (`center`, `zoom`) and a TileJSON's `bounds`.
public struct MapExtent: Sendable, Equatable {
    public var bounds: WorldBounds
    /// Where a style opens: the box's centre unless given.
    public var center: WorldPoint
    /// The zoom a style opens at.
    public var zoom: Double

    public init(bounds: WorldBounds, center: WorldPoint? = nil, zoom: Double = 12) {
        self.bounds = bounds
        self.center = center ?? WorldPoint(x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2)
        self.zoom = zoom
    }

    /// The box around `features` (nil for none), centred on the box.
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

    /// The road graph's box, centred on the median junction (so a dataset of two distant extracts opens on the
    /// larger one, not between them); nil for a graph without nodes.
    public init?(graph: RoadGraph, zoom: Double = 12) {
        let count = graph.nodeCount
        guard count > 0 else { return nil }
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(count); ys.reserveCapacity(count)
        for node in 0..<count {
            let p = WorldPoint(latitude: Double(graph.storage.nodeLatE7[node]) / 1e7, longitude: Double(graph.storage.nodeLonE7[node]) / 1e7)
            xs.append(p.x); ys.append(p.y)
        }
        let bounds = WorldBounds(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
        xs.sort(); ys.sort()
        self.init(bounds: bounds, center: WorldPoint(x: xs[count / 2], y: ys[count / 2]), zoom: zoom)
    }

    /// `[west, south, east, north]` in degrees.
    public var degrees: [Double] {
        let northWest = WorldPoint(x: bounds.minX, y: bounds.minY), southEast = WorldPoint(x: bounds.maxX, y: bounds.maxY)
        return [northWest.longitude, southEast.latitude, southEast.longitude, northWest.latitude]
    }
}
