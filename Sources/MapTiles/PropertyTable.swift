import Protobuf

/// Every feature's properties as numbers, interned once when the index is built: distinct keys and distinct
/// values (each value already encoded as an MVT `Value` message), and per feature its (key, value) number
/// pairs. Tiles then de-duplicate by number instead of hashing strings (Vietnamese names are not ASCII, and
/// Swift compares such strings by canonical equivalence — slow per tile, fine once).
///
/// Value fields: strings → `string_value` (1), doubles → `double_value` (3), booleans → `bool_value` (7),
/// integers ≥ 0 → `uint_value` (5) and negative integers → `sint_value` (6) — the shortest varints; readers
/// (MapLibre, vector-tile-js, mapbox_vector_tile) turn all three integer fields into numbers and compare them
/// by value. `int_value` (4) and `float_value` (2) are never written. Values equal as `MapValue` are one
/// entry (so 3, 3.0 and "3" are three).
struct PropertyTable: Sendable {
    /// Distinct keys, in first-appearance order.
    let keys: [String]
    /// Distinct values as encoded `Value` messages (without tag and length), in first-appearance order.
    let valueMessages: [[UInt8]]
    /// Feature i's pairs are `pairs[starts[i] ..< starts[i + 1]]`, flattened key, value, key, value…
    let starts: [UInt32]
    let pairs: [UInt32]

    init(_ features: [MapFeature]) {
        var keys: [String] = [], keyIndex: [String: UInt32] = [:]
        var values: [[UInt8]] = [], valueIndex: [MapValue: UInt32] = [:]
        var starts: [UInt32] = [0], pairs: [UInt32] = []
        starts.reserveCapacity(features.count + 1)
        for feature in features {
            for property in feature.properties {
                let k: UInt32
                if let known = keyIndex[property.key] { k = known } else {
                    k = UInt32(keys.count); keys.append(property.key); keyIndex[property.key] = k
                }
                let v: UInt32
                if let known = valueIndex[property.value] { v = known } else {
                    v = UInt32(values.count); values.append(PropertyTable.message(property.value))
                    valueIndex[property.value] = v
                }
                pairs.append(k); pairs.append(v)
            }
            starts.append(UInt32(pairs.count))
        }
        self.keys = keys; self.valueMessages = values; self.starts = starts; self.pairs = pairs
    }

    /// The MVT `Value` message of `value`.
    static func message(_ value: MapValue) -> [UInt8] {
        var v = ProtobufWriter()
        switch value {
        case .string(let s): v.stringField(1, s)
        case .double(let d): v.doubleField(3, d)
        case .int(let i) where i >= 0: v.uintField(5, UInt64(i))
        case .int(let i): v.sintField(6, i)
        case .bool(let b): v.uintField(7, b ? 1 : 0)
        }
        return v.bytes
    }
}
