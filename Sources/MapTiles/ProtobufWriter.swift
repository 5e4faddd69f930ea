/// A minimal protocol-buffers writer: varints, zigzag, length-delimited and packed fields — just what MVT
/// needs. Fields are appended in call order; nested messages are written into their own writer first and then
/// appended with `message(_:_:)`.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    enum WireType: UInt8 {
        case varint = 0
        case lengthDelimited = 2
        case fixed64 = 1
    }

    init() {}

    var count: Int { bytes.count }

    mutating func reserve(_ n: Int) { bytes.reserveCapacity(n) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func tag(_ field: Int, _ wire: WireType) {
        varint(UInt64(field) << 3 | UInt64(wire.rawValue))
    }

    /// A varint field (uint32/uint64/int64 with non-negative values, enum, bool).
    mutating func uintField(_ field: Int, _ value: UInt64) {
        tag(field, .varint); varint(value)
    }

    /// A sint64 field (zigzag varint).
    mutating func sintField(_ field: Int, _ value: Int64) {
        tag(field, .varint); varint(ProtobufWriter.zigzag64(value))
    }

    /// A double field (fixed 64 bits, little-endian).
    mutating func doubleField(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits)); bits >>= 8 }
    }

    mutating func stringField(_ field: Int, _ value: String) {
        var s = value
        s.withUTF8 { utf8 in
            tag(field, .lengthDelimited)
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Raw, already encoded bytes of a nested message.
    mutating func message(_ field: Int, bytes nested: ArraySlice<UInt8>) {
        tag(field, .lengthDelimited)
        varint(UInt64(nested.count))
        bytes.append(contentsOf: nested)
    }

    /// A packed repeated uint32 field; nothing is written for an empty list.
    mutating func packedUInt32(_ field: Int, _ values: ArraySlice<UInt32>) {
        guard !values.isEmpty else { return }
        var length = 0
        for v in values { length += ProtobufWriter.varintSize(UInt64(v)) }
        tag(field, .lengthDelimited)
        varint(UInt64(length))
        for v in values { varint(UInt64(v)) }
    }

    static func zigzag64(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }

    static func zigzag32(_ n: Int32) -> UInt32 { UInt32(bitPattern: (n << 1) ^ (n >> 31)) }

    static func varintSize(_ value: UInt64) -> Int {
        var v = value, n = 1
        while v >= 0x80 { v >>= 7; n += 1 }
        return n
    }

    /// Appends another writer's bytes as they are (fields already tagged).
    mutating func append(_ other: ProtobufWriter) { bytes.append(contentsOf: other.bytes) }

    /// Bytes of a packed uint32 field with its tag (field < 16) and length; 0 for an empty list.
    static func packedSize(_ values: ArraySlice<UInt32>) -> Int {
        guard !values.isEmpty else { return 0 }
        var length = 0
        for v in values { length += varintSize(UInt64(v)) }
        return 1 + varintSize(UInt64(length)) + length
    }

    /// Bytes of a string field with its tag (field < 16) and length.
    static func stringFieldSize(_ value: String) -> Int {
        let n = value.utf8.count
        return 1 + varintSize(UInt64(n)) + n
    }
}
