/// An OpenStreetMap node: a point with an identifier and optional tags.
public struct OSMNode: Sendable, Equatable {
    /// The OSM node identifier (positive in published data; negative for uncommitted edits).
    public var id: Int64
    /// Latitude in degrees (WGS 84).
    public var lat: Double
    /// Longitude in degrees (WGS 84).
    public var lon: Double
    /// The node's tags; empty for most nodes (plain way vertices), and always empty when
    /// `OSMReadOptions.nodeTags` is `false`.
    public var tags: [String: String]

    public init(id: Int64, lat: Double, lon: Double, tags: [String: String] = [:]) {
        self.id = id
        self.lat = lat
        self.lon = lon
        self.tags = tags
    }
}
