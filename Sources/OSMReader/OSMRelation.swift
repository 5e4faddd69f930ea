/// An OpenStreetMap relation: an ordered list of typed, role-labelled members with tags
/// (turn restrictions, multipolygons, routes, …).
public struct OSMRelation: Sendable, Equatable {
    /// The kind of element a relation member refers to.
    public enum MemberType: String, Sendable, Equatable {
        case node, way, relation
    }

    /// One member of a relation.
    public struct Member: Sendable, Equatable {
        public var type: MemberType
        /// The identifier of the referenced node, way or relation.
        public var ref: Int64
        /// The member's role (`from`, `via`, `to`, `outer`, …); may be empty.
        public var role: String

        public init(type: MemberType, ref: Int64, role: String) {
            self.type = type
            self.ref = ref
            self.role = role
        }
    }

    /// The OSM relation identifier.
    public var id: Int64
    /// The members, in order.
    public var members: [Member]
    /// The relation's tags (`type=restriction`, `restriction=no_left_turn`, …).
    public var tags: [String: String]

    public init(id: Int64, members: [Member], tags: [String: String] = [:]) {
        self.id = id
        self.members = members
        self.tags = tags
    }
}
