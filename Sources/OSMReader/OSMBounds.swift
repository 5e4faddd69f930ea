/// The bounding box a file declares for its data (`<bounds>` in XML, `HeaderBlock.bbox` in PBF).
/// Elements may lie outside it (ways touching the box keep all their nodes).
public struct OSMBounds: Sendable, Equatable {
    public var minLat: Double
    public var minLon: Double
    public var maxLat: Double
    public var maxLon: Double

    public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
    }
}
