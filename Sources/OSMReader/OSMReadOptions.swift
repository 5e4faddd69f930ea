/// What `OSMReader.read` decodes and delivers. Everything excluded here is skipped
/// without building Swift values, which is the cheap way to filter.
public struct OSMReadOptions: Sendable, Equatable {
    /// The element kinds to deliver.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let nodes = Kinds(rawValue: 1 << 0)
        public static let ways = Kinds(rawValue: 1 << 1)
        public static let relations = Kinds(rawValue: 1 << 2)
        public static let all: Kinds = [.nodes, .ways, .relations]
    }

    /// Element kinds to deliver (default: all).
    public var kinds: Kinds
    /// Deliver nodes that carry no tags (default `true`). Set to `false` for a POI pass:
    /// untagged nodes — the vast majority, plain way vertices — are then skipped.
    public var untaggedNodes: Bool
    /// Decode node tags (default `true`). Set to `false` for a geometry-only pass (e.g.
    /// resolving way vertices for routing): nodes are delivered with empty `tags`.
    /// `untaggedNodes == false` still skips nodes that have no tags in the file.
    public var nodeTags: Bool

    public init(kinds: Kinds = .all, untaggedNodes: Bool = true, nodeTags: Bool = true) {
        self.kinds = kinds
        self.untaggedNodes = untaggedNodes
        self.nodeTags = nodeTags
    }
}
