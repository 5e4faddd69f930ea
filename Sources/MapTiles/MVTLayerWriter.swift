/// Writes one MVT 2.1 layer: its features, and its key and value tables de-duplicated per layer
/// (first appearance order).
///
/// Value fields: strings → `string_value` (1), doubles → `double_value` (3), booleans → `bool_value` (7),
/// integers ≥ 0 → `uint_value` (5) and negative integers → `sint_value` (6) — the shortest varints; readers
/// (MapLibre, vector-tile-js, mapbox_vector_tile) turn all three integer fields into numbers and compare them
/// by value. `int_value` (4) and `float_value` (2) are never written.
struct MVTLayerWriter {
    let name: String
    let extent: Int
    private var features = ProtobufWriter()
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [MapValue] = []
    private var valueIndex: [MapValue: UInt32] = [:]
    private(set) var featureCount = 0

    init(name: String, extent: Int) {
        self.name = name; self.extent = extent
    }

    /// Appends a feature whose geometry is already encoded; returns the bytes it added to the features
    /// (its message, without table growth).
    @discardableResult
    mutating func add(id: UInt64?, properties: [MapProperty], type: TileGeometryEncoder.GeomType,
                      geometry: [UInt32]) -> Int {
        var tags: [UInt32] = []
        tags.reserveCapacity(properties.count * 2)
        for property in properties {
            tags.append(index(ofKey: property.key))
            tags.append(index(ofValue: property.value))
        }
        var feature = ProtobufWriter()
        if let id { feature.uintField(1, id) }
        feature.packedUInt32(2, tags)
        feature.uintField(3, type.rawValue)
        feature.packedUInt32(4, geometry)
        let before = features.count
        features.message(2, feature)
        featureCount += 1
        return features.count - before
    }

    /// The layer message (Tile.layers entry body).
    func encoded() -> ProtobufWriter {
        MVTLayerWriter.assemble(name: name, features: features, keys: keys, values: values, extent: extent)
    }

    private static func assemble(name: String, features: ProtobufWriter, keys: [String], values: [MapValue],
                                 extent: Int) -> ProtobufWriter {
        var layer = ProtobufWriter()
        layer.uintField(15, 2)
        layer.stringField(1, name)
        layer.append(features)
        for key in keys { layer.stringField(3, key) }
        for value in values {
            var v = ProtobufWriter()
            switch value {
            case .string(let s): v.stringField(1, s)
            case .double(let d): v.doubleField(3, d)
            case .int(let i) where i >= 0: v.uintField(5, UInt64(i))
            case .int(let i): v.sintField(6, i)
            case .bool(let b): v.uintField(7, b ? 1 : 0)
            }
            layer.message(4, v)
        }
        layer.uintField(5, UInt64(extent))
        return layer
    }

    private mutating func index(ofKey key: String) -> UInt32 {
        if let i = keyIndex[key] { return i }
        let i = UInt32(keys.count)
        keys.append(key); keyIndex[key] = i
        return i
    }

    private mutating func index(ofValue value: MapValue) -> UInt32 {
        if let i = valueIndex[value] { return i }
        let i = UInt32(values.count)
        values.append(value); valueIndex[value] = i
        return i
    }
}
