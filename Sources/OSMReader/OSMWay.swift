/// An OpenStreetMap way: an ordered list of node references with tags.
public struct OSMWay: Sendable, Equatable {
    /// The OSM way identifier.
    public var id: Int64
    /// The referenced node identifiers, in order. Extracts may reference nodes they do not contain.
    public var nodeIDs: [Int64]
    /// The way's tags (`highway`, `oneway`, `name`, …).
    public var tags: [String: String]

    public init(id: Int64, nodeIDs: [Int64], tags: [String: String] = [:]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }
}
