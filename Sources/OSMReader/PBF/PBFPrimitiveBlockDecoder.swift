/// Decodes `OSMData` blobs (PrimitiveBlock) into OSM elements, reusing scratch arrays
/// across blocks so that only the delivered values allocate.
///
///     PrimitiveBlock { stringtable = 1; primitivegroup = 2 (repeated);
///                      granularity = 17 [100]; lat_offset = 19; lon_offset = 20 }
///     PrimitiveGroup { nodes = 1; dense = 2; ways = 3; relations = 4; changesets = 5 }
struct PBFPrimitiveBlockDecoder {
    let options: OSMReadOptions

    // Per-block state.
    private var strings: [String] = []
    private var granularity: Int64 = 100
    private var latOffset: Int64 = 0
    private var lonOffset: Int64 = 0
    private var groups: [ProtobufReader] = []

    // Scratch arrays.
    private var ids: [Int64] = []
    private var lats: [Int64] = []
    private var lons: [Int64] = []
    private var keys: [UInt64] = []
    private var values: [UInt64] = []
    private var refs: [Int64] = []
    private var types: [UInt64] = []

    init(options: OSMReadOptions) {
        self.options = options
    }

    mutating func decode(
        _ bytes: UnsafeRawBufferPointer, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        strings.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        granularity = 100
        latOffset = 0
        lonOffset = 0

        // Scalars (granularity, offsets) follow the groups on the wire: scan first.
        var block = ProtobufReader(bytes)
        while let field = try block.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): try readStringTable(block.readMessage())
            case (2, .lengthDelimited): groups.append(try block.readMessage())
            case (17, .varint): granularity = try block.readInt64()
            case (19, .varint): latOffset = try block.readInt64()
            case (20, .varint): lonOffset = try block.readInt64()
            default: try block.skip(field.wireType)
            }
        }
        guard granularity > 0 else {
            throw ProtobufError(reason: "granularity \(granularity) is not positive", offset: 0)
        }

        for index in groups.indices {
            var group = groups[index]
            while let field = try group.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited) where options.kinds.contains(.nodes):
                    var node = try group.readMessage()
                    try decodeNode(&node, handler: &handler)
                case (2, .lengthDelimited) where options.kinds.contains(.nodes):
                    var dense = try group.readMessage()
                    try decodeDenseNodes(&dense, handler: &handler)
                case (3, .lengthDelimited) where options.kinds.contains(.ways):
                    var way = try group.readMessage()
                    try decodeWay(&way, handler: &handler)
                case (4, .lengthDelimited) where options.kinds.contains(.relations):
                    var relation = try group.readMessage()
                    try decodeRelation(&relation, handler: &handler)
                default:
                    try group.skip(field.wireType)
                }
            }
        }
    }

    /// StringTable { s = 1 (repeated bytes) }; entry 0 is the empty string by convention.
    private mutating func readStringTable(_ table: ProtobufReader) throws(ProtobufError) {
        var table = table
        while let field = try table.nextField() {
            if field.number == 1, field.wireType == .lengthDelimited {
                strings.append(try table.readString())
            } else {
                try table.skip(field.wireType)
            }
        }
    }

    private func string(_ index: UInt64, at reader: ProtobufReader) throws(ProtobufError) -> String {
        guard index < UInt64(strings.count) else {
            throw ProtobufError(
                reason: "string index \(index) outside the \(strings.count)-entry string table",
                offset: reader.offset)
        }
        return strings[Int(index)]
    }

    private func degrees(_ raw: Int64, offset: Int64) -> Double {
        Double(offset &+ granularity &* raw) / 1e9
    }

    /// Parallel `keys`/`values` string indexes → tags.
    private func tags(at reader: ProtobufReader) throws(ProtobufError) -> [String: String] {
        guard keys.count == values.count else {
            throw ProtobufError(
                reason: "\(keys.count) keys but \(values.count) values", offset: reader.offset)
        }
        var tags: [String: String] = [:]
        if keys.isEmpty { return tags }
        tags.reserveCapacity(keys.count)
        for i in keys.indices {
            tags[try string(keys[i], at: reader)] = try string(values[i], at: reader)
        }
        return tags
    }

    /// Node { id = 1 sint64; keys = 2; vals = 3; info = 4; lat = 8 sint64; lon = 9 sint64 }.
    private mutating func decodeNode(
        _ reader: inout ProtobufReader, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readSInt64()
            case (2, _): try reader.appendVarints(field.wireType, to: &keys)
            case (3, _): try reader.appendVarints(field.wireType, to: &values)
            case (8, .varint): lat = try reader.readSInt64()
            case (9, .varint): lon = try reader.readSInt64()
            default: try reader.skip(field.wireType)
            }
        }
        if keys.isEmpty, !options.untaggedNodes { return }
        let tags = options.nodeTags ? try tags(at: reader) : [:]
        handler.node(OSMNode(id: id, lat: degrees(lat, offset: latOffset),
                             lon: degrees(lon, offset: lonOffset), tags: tags))
    }

    /// DenseNodes { id = 1; denseinfo = 5; lat = 8; lon = 9 (packed delta sint64);
    /// keys_vals = 10 (packed int32: key, value, …, 0 after each node; empty if no node has tags) }.
    private mutating func decodeDenseNodes(
        _ reader: inout ProtobufReader, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        ids.removeAll(keepingCapacity: true)
        lats.removeAll(keepingCapacity: true)
        lons.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)  // keys_vals
        while let field = try reader.nextField() {
            switch field.number {
            case 1: try reader.appendDeltaSInt64s(field.wireType, to: &ids)
            case 8: try reader.appendDeltaSInt64s(field.wireType, to: &lats)
            case 9: try reader.appendDeltaSInt64s(field.wireType, to: &lons)
            case 10: try reader.appendVarints(field.wireType, to: &keys)
            default: try reader.skip(field.wireType)
            }
        }
        guard ids.count == lats.count, ids.count == lons.count else {
            throw ProtobufError(
                reason: "DenseNodes has \(ids.count) ids, \(lats.count) lats, \(lons.count) lons",
                offset: reader.offset)
        }
        let keysVals = keys
        var next = 0
        for i in ids.indices {
            var tags: [String: String] = [:]
            var tagged = false
            if !keysVals.isEmpty {
                while true {
                    guard next < keysVals.count else {
                        throw ProtobufError(
                            reason: "DenseNodes keys_vals ends before node \(i) of \(ids.count)",
                            offset: reader.offset)
                    }
                    let key = keysVals[next]
                    next += 1
                    if key == 0 { break }
                    guard next < keysVals.count else {
                        throw ProtobufError(reason: "DenseNodes keys_vals lacks a value", offset: reader.offset)
                    }
                    let value = keysVals[next]
                    next += 1
                    tagged = true
                    if options.nodeTags {
                        tags[try string(key, at: reader)] = try string(value, at: reader)
                    }
                }
            }
            if !tagged, !options.untaggedNodes { continue }
            handler.node(OSMNode(id: ids[i], lat: degrees(lats[i], offset: latOffset),
                                 lon: degrees(lons[i], offset: lonOffset), tags: tags))
        }
    }

    /// Way { id = 1 int64; keys = 2; vals = 3; info = 4; refs = 8 (packed delta sint64) }.
    private mutating func decodeWay(
        _ reader: inout ProtobufReader, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        var id: Int64 = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, _): try reader.appendVarints(field.wireType, to: &keys)
            case (3, _): try reader.appendVarints(field.wireType, to: &values)
            case (8, _): try reader.appendDeltaSInt64s(field.wireType, to: &refs)
            default: try reader.skip(field.wireType)
            }
        }
        // A copy of exactly the way's nodes: `Array(refs)` would hand the way the reused buffer,
        // with the capacity of the longest way so far (a handler keeping millions of ways held
        // gigabytes of unused capacity).
        handler.way(OSMWay(id: id, nodeIDs: refs.withUnsafeBufferPointer { Array($0) }, tags: try tags(at: reader)))
    }

    /// Relation { id = 1 int64; keys = 2; vals = 3; info = 4; roles_sid = 8 (packed int32);
    /// memids = 9 (packed delta sint64); types = 10 (packed enum NODE = 0, WAY = 1, RELATION = 2) }.
    private mutating func decodeRelation(
        _ reader: inout ProtobufReader, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        var id: Int64 = 0
        var roles: [UInt64] = []
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, _): try reader.appendVarints(field.wireType, to: &keys)
            case (3, _): try reader.appendVarints(field.wireType, to: &values)
            case (8, _): try reader.appendVarints(field.wireType, to: &roles)
            case (9, _): try reader.appendDeltaSInt64s(field.wireType, to: &refs)
            case (10, _): try reader.appendVarints(field.wireType, to: &types)
            default: try reader.skip(field.wireType)
            }
        }
        guard roles.count == refs.count, types.count == refs.count else {
            throw ProtobufError(
                reason: "Relation \(id) has \(refs.count) memids, \(roles.count) roles, \(types.count) types",
                offset: reader.offset)
        }
        var members: [OSMRelation.Member] = []
        members.reserveCapacity(refs.count)
        for i in refs.indices {
            let type: OSMRelation.MemberType
            switch types[i] {
            case 0: type = .node
            case 1: type = .way
            case 2: type = .relation
            default:
                throw ProtobufError(reason: "Relation \(id) has member type \(types[i])", offset: reader.offset)
            }
            members.append(.init(type: type, ref: refs[i], role: try string(roles[i], at: reader)))
        }
        handler.relation(OSMRelation(id: id, members: members, tags: try tags(at: reader)))
    }
}
