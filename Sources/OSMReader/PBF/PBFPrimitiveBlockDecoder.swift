/// Decodes `OSMData` blobs (PrimitiveBlock) into OSM elements, reusing scratch arrays
/// across blocks so that only the delivered values allocate. Elements beyond `OSMLimits` are
/// refused (a `ProtobufError` naming the element), and so are coordinates that the block's
/// granularity and offsets take beyond 64 bits: the scratch arrays never hold more of one
/// element than the limits allow.
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
                let at = table.offset
                let string = try table.readString()
                if let problem = OSMLimits.stringProblem(string, what: nil) {
                    throw ProtobufError(reason: problem, offset: at, element: "string table entry \(strings.count)")
                }
                strings.append(string)
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

    /// A node's coordinates in degrees: `1e-9 × (offset + granularity × raw)`, computed without
    /// wrapping, on Earth — or the reason the node is refused.
    private func coordinates(lat rawLat: Int64, lon rawLon: Int64, node id: Int64,
                             at reader: ProtobufReader) throws(ProtobufError) -> (lat: Double, lon: Double) {
        func nanodegrees(_ raw: Int64, _ offset: Int64, _ name: String, _ field: String, _ bound: Int64) throws(ProtobufError) -> Int64 {
            let (scaled, overflow) = granularity.multipliedReportingOverflow(by: raw)
            let (sum, overflowSum) = offset.addingReportingOverflow(scaled)
            guard !overflow, !overflowSum else {
                throw ProtobufError(reason: "has \(name) \(field) \(offset) + granularity \(granularity) × \(raw) nanodegrees, beyond 64 bits",
                                    offset: reader.offset, element: "node \(id)")
            }
            guard sum >= -bound, sum <= bound else {
                throw ProtobufError(reason: "has \(name) \(Double(sum) / 1e9), outside -\(bound / 1_000_000_000)…\(bound / 1_000_000_000)",
                                    offset: reader.offset, element: "node \(id)")
            }
            return sum
        }
        let lat = try nanodegrees(rawLat, latOffset, "latitude", "lat_offset", 90_000_000_000)
        let lon = try nanodegrees(rawLon, lonOffset, "longitude", "lon_offset", 180_000_000_000)
        return (Double(lat) / 1e9, Double(lon) / 1e9)
    }

    /// Refuses an element whose repeated field holds more than `limit` values.
    private func check(_ count: Int, limit: Int, _ what: String, _ element: String, by whom: String = "OpenStreetMap allows",
                       at reader: ProtobufReader) throws(ProtobufError) {
        guard count > limit else { return }
        throw ProtobufError(reason: OSMLimits.tooMany(count, what, limit: limit, by: whom), offset: reader.offset, element: element)
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
        var keyCount = 0, valueCount = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readSInt64()
            case (2, _): keyCount += try reader.appendVarints(field.wireType, to: &keys, limit: OSMLimits.maxTags + 1)
            case (3, _): valueCount += try reader.appendVarints(field.wireType, to: &values, limit: OSMLimits.maxTags + 1)
            case (8, .varint): lat = try reader.readSInt64()
            case (9, .varint): lon = try reader.readSInt64()
            default: try reader.skip(field.wireType)
            }
        }
        try check(max(keyCount, valueCount), limit: OSMLimits.maxTags, "tags", "node \(id)", by: "the reader takes", at: reader)
        if keys.isEmpty, !options.untaggedNodes { return }
        let position = try coordinates(lat: lat, lon: lon, node: id, at: reader)
        let tags = options.nodeTags ? try tags(at: reader) : [:]
        handler.node(OSMNode(id: id, lat: position.lat, lon: position.lon, tags: tags))
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
                let first = next
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
                    try check((next - first) / 2, limit: OSMLimits.maxTags, "tags", "node \(ids[i])", by: "the reader takes", at: reader)
                    if options.nodeTags {
                        tags[try string(key, at: reader)] = try string(value, at: reader)
                    }
                }
            }
            if !tagged, !options.untaggedNodes { continue }
            let position = try coordinates(lat: lats[i], lon: lons[i], node: ids[i], at: reader)
            handler.node(OSMNode(id: ids[i], lat: position.lat, lon: position.lon, tags: tags))
        }
    }

    /// Way { id = 1 int64; keys = 2; vals = 3; info = 4; refs = 8 (packed delta sint64) }.
    private mutating func decodeWay(
        _ reader: inout ProtobufReader, handler: inout some OSMHandler
    ) throws(ProtobufError) {
        var id: Int64 = 0
        var keyCount = 0, valueCount = 0, refCount = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, _): keyCount += try reader.appendVarints(field.wireType, to: &keys, limit: OSMLimits.maxTags + 1)
            case (3, _): valueCount += try reader.appendVarints(field.wireType, to: &values, limit: OSMLimits.maxTags + 1)
            case (8, _): refCount += try reader.appendDeltaSInt64s(field.wireType, to: &refs, limit: OSMLimits.maxWayNodes + 1)
            default: try reader.skip(field.wireType)
            }
        }
        try check(refCount, limit: OSMLimits.maxWayNodes, "nodes", "way \(id)", at: reader)
        try check(max(keyCount, valueCount), limit: OSMLimits.maxTags, "tags", "way \(id)", by: "the reader takes", at: reader)
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
        var keyCount = 0, valueCount = 0, roleCount = 0, refCount = 0, typeCount = 0
        let memberLimit = OSMLimits.maxRelationMembers + 1
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, _): keyCount += try reader.appendVarints(field.wireType, to: &keys, limit: OSMLimits.maxTags + 1)
            case (3, _): valueCount += try reader.appendVarints(field.wireType, to: &values, limit: OSMLimits.maxTags + 1)
            case (8, _): roleCount += try reader.appendVarints(field.wireType, to: &roles, limit: memberLimit)
            case (9, _): refCount += try reader.appendDeltaSInt64s(field.wireType, to: &refs, limit: memberLimit)
            case (10, _): typeCount += try reader.appendVarints(field.wireType, to: &types, limit: memberLimit)
            default: try reader.skip(field.wireType)
            }
        }
        try check(max(roleCount, refCount, typeCount), limit: OSMLimits.maxRelationMembers, "members", "relation \(id)", at: reader)
        try check(max(keyCount, valueCount), limit: OSMLimits.maxTags, "tags", "relation \(id)", by: "the reader takes", at: reader)
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
