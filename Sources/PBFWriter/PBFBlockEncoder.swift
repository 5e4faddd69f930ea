import Protobuf

/// Collects the entities of one PrimitiveBlock — all of one kind, in the order added — and
/// encodes it: a string table (index 0 = "", the others in order of first use), one
/// PrimitiveGroup, granularity 100 (coordinates in 1e-7 degree), offsets 0.
///
///     PrimitiveBlock { stringtable = 1; primitivegroup = 2; granularity = 17 }
///     PrimitiveGroup { dense = 2; ways = 3; relations = 4 }
struct PBFBlockEncoder {
    enum Kind { case nodes, ways, relations }

    private(set) var kind: Kind = .nodes
    private(set) var count = 0

    private var strings: [String] = [""]
    private var stringIndex: [String: UInt64] = ["": 0]

    // Dense nodes.
    private var ids: [Int64] = []
    private var lats: [Int64] = []
    private var lons: [Int64] = []
    private var keysVals: [UInt64] = []
    private var anyNodeTags = false
    // Ways and relations: each already encoded as a message.
    private var group = ProtobufWriter()

    var isEmpty: Bool { count == 0 }

    mutating func reset(kind: Kind) {
        self.kind = kind
        count = 0
        strings.removeAll(keepingCapacity: true)
        strings.append("")
        stringIndex.removeAll(keepingCapacity: true)
        stringIndex[""] = 0
        ids.removeAll(keepingCapacity: true)
        lats.removeAll(keepingCapacity: true)
        lons.removeAll(keepingCapacity: true)
        keysVals.removeAll(keepingCapacity: true)
        anyNodeTags = false
        group = ProtobufWriter()
    }

    private mutating func index(_ string: String) -> UInt64 {
        if let index = stringIndex[string] { return index }
        let index = UInt64(strings.count)
        strings.append(string)
        stringIndex[string] = index
        return index
    }

    mutating func addNode(id: Int64, latE7: Int64, lonE7: Int64, tags: PBFTags) {
        ids.append(id)
        lats.append(latE7)
        lons.append(lonE7)
        for tag in tags {
            keysVals.append(index(tag.key))
            keysVals.append(index(tag.value))
        }
        keysVals.append(0)
        if !tags.isEmpty { anyNodeTags = true }
        count += 1
    }

    /// Way { id = 1; keys = 2; vals = 3; refs = 8 (delta) }.
    mutating func addWay(id: Int64, refs: [Int64], tags: PBFTags) {
        var way = ProtobufWriter(capacity: 16 + refs.count * 3)
        way.intField(1, id)
        way.packedUInt64(2, tags.map { index($0.key) })
        way.packedUInt64(3, tags.map { index($0.value) })
        way.packedDeltaSInt64(8, refs)
        group.message(3, way)
        count += 1
    }

    /// Relation { id = 1; keys = 2; vals = 3; roles_sid = 8; memids = 9 (delta); types = 10 }.
    mutating func addRelation(id: Int64, members: [PBFMember], tags: PBFTags) {
        var relation = ProtobufWriter()
        relation.intField(1, id)
        relation.packedUInt64(2, tags.map { index($0.key) })
        relation.packedUInt64(3, tags.map { index($0.value) })
        relation.packedUInt64(8, members.map { index($0.role) })
        relation.packedDeltaSInt64(9, members.map(\.ref))
        relation.packedUInt64(10, members.map(\.kind.rawValue))
        group.message(4, relation)
        count += 1
    }

    /// The PrimitiveBlock's bytes.
    func encoded() -> [UInt8] {
        var table = ProtobufWriter()
        for string in strings { table.stringField(1, string) }
        var block = ProtobufWriter(capacity: table.bytes.count + group.bytes.count + ids.count * 8 + 64)
        block.message(1, table)
        switch kind {
        case .nodes:
            // DenseNodes { id = 1; lat = 8; lon = 9 (delta); keys_vals = 10 (empty when no node has tags) }.
            var dense = ProtobufWriter(capacity: ids.count * 8)
            dense.packedDeltaSInt64(1, ids)
            dense.packedDeltaSInt64(8, lats)
            dense.packedDeltaSInt64(9, lons)
            if anyNodeTags { dense.packedUInt64(10, keysVals) }
            var nodeGroup = ProtobufWriter()
            nodeGroup.message(2, dense)
            block.message(2, nodeGroup)
        case .ways, .relations:
            block.message(2, group)
        }
        block.intField(17, 100)
        return block.bytes
    }
}
