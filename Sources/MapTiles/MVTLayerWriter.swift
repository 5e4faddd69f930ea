/// Writes one MVT 2.1 layer: its features, and its key and value tables de-duplicated per layer (in
/// first-appearance order), taken from the index's `PropertyTable`.
struct MVTLayerWriter {
    let name: String
    let extent: Int
    private let table: PropertyTable
    private var features = ProtobufWriter()
    private var keys: [UInt32] = []             // global key numbers, in layer order
    private var keyIndex: [UInt32: UInt32] = [:]
    private var values: [UInt32] = []
    private var valueIndex: [UInt32: UInt32] = [:]
    private var tags: [UInt32] = []             // scratch
    private(set) var featureCount = 0

    init(name: String, extent: Int, table: PropertyTable) {
        self.name = name; self.extent = extent; self.table = table
    }

    /// Appends feature `feature` (its position in the index) with geometry already encoded; returns the
    /// bytes it added (its message, without table growth).
    @discardableResult
    mutating func add(feature: Int, id: UInt64?, type: TileGeometryEncoder.GeomType, geometry: [UInt32]) -> Int {
        tags.removeAll(keepingCapacity: true)
        let start = Int(table.starts[feature]), end = Int(table.starts[feature + 1])
        var j = start
        while j < end {
            tags.append(local(key: table.pairs[j]))
            tags.append(local(value: table.pairs[j + 1]))
            j += 2
        }
        // Feature message length, then its fields written straight into the layer's features.
        var length = 0
        if let id { length += 1 + ProtobufWriter.varintSize(id) }
        length += ProtobufWriter.packedSize(tags) + 2 + ProtobufWriter.packedSize(geometry)
        let before = features.count
        features.tag(2, .lengthDelimited)
        features.varint(UInt64(length))
        if let id { features.uintField(1, id) }
        features.packedUInt32(2, tags)
        features.uintField(3, type.rawValue)
        features.packedUInt32(4, geometry)
        featureCount += 1
        return features.count - before
    }

    /// The layer message (a `Tile.layers` entry's body).
    func encoded() -> ProtobufWriter {
        var layer = ProtobufWriter()
        layer.reserve(features.count + 64 + keys.count * 16 + values.count * 24)
        layer.uintField(15, 2)
        layer.stringField(1, name)
        layer.append(features)
        for key in keys { layer.stringField(3, table.keys[Int(key)]) }
        for value in values { layer.message(4, bytes: table.valueMessages[Int(value)][...]) }
        layer.uintField(5, UInt64(extent))
        return layer
    }

    private mutating func local(key: UInt32) -> UInt32 {
        if let i = keyIndex[key] { return i }
        let i = UInt32(keys.count)
        keys.append(key); keyIndex[key] = i
        return i
    }

    private mutating func local(value: UInt32) -> UInt32 {
        if let i = valueIndex[value] { return i }
        let i = UInt32(values.count)
        values.append(value); valueIndex[value] = i
        return i
    }
}
