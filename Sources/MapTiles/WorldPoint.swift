import Foundation

/// A point in Web Mercator world coordinates: x from 0 (180° W) to 1 (180° E), y from 0 (85.05° N) to 1
/// (85.05° S), y down as on screen. Every zoom's tile grid divides this square, so features are projected
/// once and each tile only scales and offsets.
public struct WorldPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// Projects a WGS84 position (degrees); latitudes beyond ±85.0511° are clamped to the square.
    public init(latitude: Double, longitude: Double) {
        let lat = min(max(latitude, -85.05112878), 85.05112878) * .pi / 180
        x = (longitude + 180) / 360
        y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2
    }

    /// The WGS84 position (degrees) of this point.
    public var latitude: Double { atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi }
    public var longitude: Double { x * 360 - 180 }
}

/// An axis-aligned box in world coordinates (`WorldPoint`).
public struct WorldBounds: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The smallest box holding every point (nil for none).
    public init?<S: Sequence>(enclosing points: S) where S.Element == WorldPoint {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var b = WorldBounds(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let p = it.next() {
            b.minX = min(b.minX, p.x); b.maxX = max(b.maxX, p.x)
            b.minY = min(b.minY, p.y); b.maxY = max(b.maxY, p.y)
        }
        self = b
    }

    public func intersects(_ other: WorldBounds) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// This box grown by `margin` on every side.
    public func expanded(by margin: Double) -> WorldBounds {
        WorldBounds(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }
}
