import Protobuf

/// Per-tile scratch that maps the index's key and value numbers to a layer's table positions: arrays the
/// size of the index's tables, stamped with the layer, so a lookup is an array read, not a hash.
struct LayerTableScratch {
    var keyStamp: [UInt32], keyLocal: [UInt32]
    var valueStamp: [UInt32], valueLocal: [UInt32]
    var stamp: UInt32 = 0

    init(_ table: PropertyTable) {
        keyStamp = Array(repeating: 0, count: table.keys.count); keyLocal = keyStamp
        valueStamp = Array(repeating: 0, count: table.valueMessages.count); valueLocal = valueStamp
    }
}

/// Writes one MVT 2.1 layer: its features, and its key and value tables de-duplicated per layer (in
/// first-appearance order), taken from the index's `PropertyTable`.
struct MVTLayerWriter {
    let name: String
    let extent: Int
    private let table: PropertyTable
    private var features = ProtobufWriter()
    private var keys: [UInt32] = []             // global key numbers, in layer order
    private var values: [UInt32] = []
    private let stamp: UInt32
    private var tags: [UInt32] = []             // scratch
    private(set) var featureCount = 0

    /// A layer; `scratch` is shared by the layers of one tile (each takes a new stamp).
    init(name: String, extent: Int, table: PropertyTable, scratch: inout LayerTableScratch) {
        self.name = name; self.extent = extent; self.table = table
        scratch.stamp += 1
        stamp = scratch.stamp
    }

    /// Appends feature `feature` (its position in the index) with geometry already encoded; returns the
    /// bytes it added (its message, without table growth).
    @discardableResult
    mutating func add(feature: Int, id: UInt64?, type: TileGeometryEncoder.GeomType, geometry: ArraySlice<UInt32>,
                      scratch: inout LayerTableScratch) -> Int {
        tags.removeAll(keepingCapacity: true)
        let start = Int(table.starts[feature]), end = Int(table.starts[feature + 1])
        var j = start
        while j < end {
            let k = Int(table.pairs[j]), v = Int(table.pairs[j + 1])
            if scratch.keyStamp[k] != stamp {
                scratch.keyStamp[k] = stamp; scratch.keyLocal[k] = UInt32(keys.count); keys.append(UInt32(k))
            }
            if scratch.valueStamp[v] != stamp {
                scratch.valueStamp[v] = stamp; scratch.valueLocal[v] = UInt32(values.count); values.append(UInt32(v))
            }
            tags.append(scratch.keyLocal[k])
            tags.append(scratch.valueLocal[v])
            j += 2
        }
        // Feature message length, then its fields written straight into the layer's features.
        var length = 0
        if let id { length += 1 + ProtobufWriter.varintSize(id) }
        length += ProtobufWriter.packedSize(tags[...]) + 2 + ProtobufWriter.packedSize(geometry)
        let before = features.count
        features.tag(2, .lengthDelimited)
        features.varint(UInt64(length))
        if let id { features.uintField(1, id) }
        features.packedUInt32(2, tags[...])
        features.uintField(3, type.rawValue)
        features.packedUInt32(4, geometry)
        featureCount += 1
        return features.count - before
    }

    /// Writes the layer as field `field` of `tile` (`Tile.layers` = 3), its length computed first so the
    /// features are copied once.
    func write(asField field: Int, into tile: inout ProtobufWriter) {
        var length = 2 + ProtobufWriter.stringFieldSize(name) + features.count
        for key in keys { length += ProtobufWriter.stringFieldSize(table.keys[Int(key)]) }
        for value in values {
            let n = table.valueMessages[Int(value)].count
            length += 1 + ProtobufWriter.varintSize(UInt64(n)) + n
        }
        length += 1 + ProtobufWriter.varintSize(UInt64(extent))
        let start = tile.count
        tile.tag(field, .lengthDelimited)
        tile.varint(UInt64(length))
        tile.uintField(15, 2)
        tile.stringField(1, name)
        tile.append(features)
        for key in keys { tile.stringField(3, table.keys[Int(key)]) }
        for value in values { tile.message(4, bytes: table.valueMessages[Int(value)][...]) }
        tile.uintField(5, UInt64(extent))
        assert(tile.count - start == 1 + ProtobufWriter.varintSize(UInt64(length)) + length)
    }
}
