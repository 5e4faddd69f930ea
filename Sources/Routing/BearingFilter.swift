/// A direction of travel a snapped position must allow: `degrees` clockwise from north, give or
/// take `tolerance` (Mapbox's `bearings=deg,range`). Snapping keeps only segments the vehicle may
/// travel within the tolerance of `degrees` (in their stored or their reverse direction).
public struct BearingFilter: Sendable, Hashable {
    /// [0, 360).
    public var degrees: Double
    /// [0, 180]; 180 accepts every direction.
    public var tolerance: Double

    public init(degrees: Double, tolerance: Double) {
        let d = degrees.truncatingRemainder(dividingBy: 360)
        self.degrees = d < 0 ? d + 360 : d
        self.tolerance = min(180, max(0, tolerance))
    }

    /// Whether travelling at `azimuth` degrees lies within the tolerance.
    public func accepts(azimuth: Double) -> Bool {
        var delta = abs(azimuth - degrees).truncatingRemainder(dividingBy: 360)
        if delta > 180 { delta = 360 - delta }
        return delta <= tolerance
    }
}
