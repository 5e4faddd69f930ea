/// Appends protobuf wire-format fields to a byte array: varints, zigzag sint64, length-delimited
/// bytes/strings/messages and packed repeated varints — what the OSM PBF messages need.
struct ProtobufEncoder {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    private mutating func key(_ field: Int, _ wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }

    /// `int32`/`int64`/`uint32`/enum field.
    mutating func int(_ field: Int, _ value: Int64) { key(field, 0); varint(UInt64(bitPattern: value)) }
    /// `sint32`/`sint64` field.
    mutating func sint(_ field: Int, _ value: Int64) { key(field, 0); varint(Self.zigzag(value)) }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        key(field, 2)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

    mutating func message(_ field: Int, _ message: ProtobufEncoder) { bytes(field, message.bytes) }

    /// Packed repeated varints (uint32/int32/enum); nothing when `values` is empty.
    mutating func packed(_ field: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var inner = ProtobufEncoder(capacity: values.count * 2)
        for value in values { inner.varint(value) }
        bytes(field, inner.bytes)
    }

    /// Packed repeated sint64, delta-coded (each value minus the previous, the first minus 0).
    mutating func packedDelta(_ field: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        var inner = ProtobufEncoder(capacity: values.count * 3)
        var previous: Int64 = 0
        for value in values {
            inner.varint(Self.zigzag(value &- previous))
            previous = value
        }
        bytes(field, inner.bytes)
    }
}
