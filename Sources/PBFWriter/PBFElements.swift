/// A tag list as written: (key, value) pairs in the order given. Callers pass them sorted (or
/// otherwise in a fixed order) so that the output is the same on every run.
public typealias PBFTags = [(key: String, value: String)]

/// A relation member as written.
public struct PBFMember: Sendable, Equatable {
    public enum Kind: UInt64, Sendable { case node = 0, way = 1, relation = 2 }
    public var kind: Kind
    public var ref: Int64
    public var role: String

    public init(kind: Kind, ref: Int64, role: String) {
        self.kind = kind
        self.ref = ref
        self.role = role
    }
}

/// A bounding box in units of 1e-7 degree (the coordinates `PBFWriter` takes).
public struct PBFBoundingBox: Sendable, Equatable {
    public var minLatE7: Int64, minLonE7: Int64, maxLatE7: Int64, maxLonE7: Int64

    public init(minLatE7: Int64, minLonE7: Int64, maxLatE7: Int64, maxLonE7: Int64) {
        self.minLatE7 = minLatE7
        self.minLonE7 = minLonE7
        self.maxLatE7 = maxLatE7
        self.maxLonE7 = maxLonE7
    }
}
