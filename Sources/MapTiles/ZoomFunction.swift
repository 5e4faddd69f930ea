import Foundation

/// A number that depends on the zoom (a line width, a circle radius): stops interpolated like MapLibre's
/// `["interpolate", ["exponential", base], ["zoom"], z0, v0, z1, v1, …]` (base 1 is linear), held constant
/// before the first stop and after the last.
public struct ZoomFunction: Sendable, Hashable {
    /// One stop: `value` at `zoom`.
    public struct Stop: Sendable, Hashable {
        public var zoom: Double
        public var value: Double
        public init(_ zoom: Double, _ value: Double) { self.zoom = zoom; self.value = value }
    }

    /// Sorted by zoom (the initialiser sorts them); never empty.
    public let stops: [Stop]
    /// Exponential base (> 0); 1 interpolates linearly.
    public let base: Double

    /// Stops in any order; no stops means 0 everywhere; a base ≤ 0 or not finite is taken as 1.
    public init(stops: [Stop], base: Double = 1) {
        let sorted = stops.filter { $0.zoom.isFinite && $0.value.isFinite }.sorted { $0.zoom < $1.zoom }
        self.stops = sorted.isEmpty ? [Stop(0, 0)] : sorted
        self.base = base.isFinite && base > 0 ? base : 1
    }

    /// The same value at every zoom.
    public static func constant(_ value: Double) -> ZoomFunction { ZoomFunction(stops: [Stop(0, value)]) }

    /// The value at `zoom`.
    public func value(at zoom: Double) -> Double {
        guard let first = stops.first, let last = stops.last else { return 0 }
        if zoom <= first.zoom { return first.value }
        if zoom >= last.zoom { return last.value }
        var upper = 1
        while stops[upper].zoom < zoom { upper += 1 }
        let a = stops[upper - 1], b = stops[upper]
        let span = b.zoom - a.zoom
        guard span > 0 else { return b.value }
        let t: Double
        if base == 1 {
            t = (zoom - a.zoom) / span
        } else {
            t = (pow(base, zoom - a.zoom) - 1) / (pow(base, span) - 1)
        }
        return a.value + (b.value - a.value) * t
    }
}
