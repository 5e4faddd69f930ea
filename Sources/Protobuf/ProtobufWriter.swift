/// Appends Protocol Buffers wire-format fields to a byte array in call order: varints, zigzag
/// `sint`, fixed 64-bit doubles, length-delimited bytes/strings/nested messages and packed repeated
/// varints — what the OSM PBF, MVT and glyph PBF messages need. A nested message is written into its
/// own writer first (or its length computed ahead with the size helpers) and then appended.
public struct ProtobufWriter: Sendable {
    /// The encoded fields so far.
    public var bytes: [UInt8] = []

    /// The wire types used here.
    public enum WireType: UInt8, Sendable {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    public init(capacity: Int = 0) {
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// Bytes written so far.
    @inlinable public var count: Int { bytes.count }

    public mutating func reserve(_ n: Int) { bytes.reserveCapacity(n) }

    // MARK: Values without a tag

    /// A base-128 varint, least significant group first.
    @inlinable public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A field key: the field number and wire type.
    @inlinable public mutating func tag(_ field: Int, _ wire: WireType) {
        varint(UInt64(field) << 3 | UInt64(wire.rawValue))
    }

    /// Bytes that are already encoded fields of this message, as they are.
    public mutating func appendRaw<Bytes: Collection<UInt8>>(_ encodedFields: Bytes) { bytes.append(contentsOf: encodedFields) }

    /// Another writer's fields, as they are.
    public mutating func append(_ other: ProtobufWriter) { bytes.append(contentsOf: other.bytes) }

    // MARK: Fields

    /// A varint field: `uint32`/`uint64`, enum, bool.
    @inlinable public mutating func uintField(_ field: Int, _ value: UInt64) {
        tag(field, .varint); varint(value)
    }

    /// An `int32`/`int64` field (two's complement: a negative value takes 10 bytes).
    @inlinable public mutating func intField(_ field: Int, _ value: Int64) {
        tag(field, .varint); varint(UInt64(bitPattern: value))
    }

    /// A `sint32`/`sint64` field (zigzag varint, so small negative numbers stay short).
    @inlinable public mutating func sintField(_ field: Int, _ value: Int64) {
        tag(field, .varint); varint(Self.zigzag(value))
    }

    /// A `double` field (fixed 64 bits, little-endian).
    public mutating func doubleField(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits)); bits >>= 8 }
    }

    /// A `bytes` field (or a nested message already encoded).
    @inlinable public mutating func bytesField<Bytes: Collection<UInt8>>(_ field: Int, _ value: Bytes) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `string` field, UTF-8.
    public mutating func stringField(_ field: Int, _ value: String) {
        var s = value
        s.withUTF8 { bytesField(field, $0) }
    }

    /// A nested message field from its encoded bytes.
    @inlinable public mutating func message(_ field: Int, bytes nested: ArraySlice<UInt8>) { bytesField(field, nested) }

    /// A nested message field from a writer.
    public mutating func message(_ field: Int, _ nested: ProtobufWriter) { bytesField(field, nested.bytes) }

    /// A nested message field, encoded by `build` into its own writer.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        bytesField(field, nested.bytes)
    }

    /// A packed repeated varint field (`uint32`, `uint64`, enum); nothing is written for an empty list.
    @inlinable public mutating func packedUInt32(_ field: Int, _ values: ArraySlice<UInt32>) {
        guard !values.isEmpty else { return }
        var length = 0
        for v in values { length += Self.varintSize(UInt64(v)) }
        tag(field, .lengthDelimited)
        varint(UInt64(length))
        for v in values { varint(UInt64(v)) }
    }

    /// A packed repeated varint field of 64-bit values; nothing is written for an empty list.
    public mutating func packedUInt64(_ field: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var length = 0
        for v in values { length += Self.varintSize(v) }
        tag(field, .lengthDelimited)
        varint(UInt64(length))
        for v in values { varint(v) }
    }

    /// A packed repeated `sint64` field, delta-coded (each value minus the previous, the first minus 0),
    /// as OSM PBF dense nodes and way refs; nothing is written for an empty list.
    public mutating func packedDeltaSInt64(_ field: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        var length = 0, previous: Int64 = 0
        for value in values { length += Self.varintSize(Self.zigzag(value &- previous)); previous = value }
        tag(field, .lengthDelimited)
        varint(UInt64(length))
        previous = 0
        for value in values { varint(Self.zigzag(value &- previous)); previous = value }
    }

    // MARK: Sizes and encodings

    /// Zigzag: `(n << 1) ^ (n >> 63)`.
    @inlinable public static func zigzag(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }

    /// Zigzag of a 32-bit value: `(n << 1) ^ (n >> 31)`.
    @inlinable public static func zigzag(_ n: Int32) -> UInt32 { UInt32(bitPattern: (n << 1) ^ (n >> 31)) }

    /// Zigzag of a 64-bit value (the MVT writer's name).
    @inlinable public static func zigzag64(_ n: Int64) -> UInt64 { zigzag(n) }

    /// Zigzag of a 32-bit value (the MVT writer's name).
    @inlinable public static func zigzag32(_ n: Int32) -> UInt32 { zigzag(n) }

    /// Bytes of `value` as a varint.
    @inlinable public static func varintSize(_ value: UInt64) -> Int {
        var v = value, n = 1
        while v >= 0x80 { v >>= 7; n += 1 }
        return n
    }

    /// Bytes of a packed uint32 field with its tag (field < 16) and length; 0 for an empty list.
    @inlinable public static func packedSize(_ values: ArraySlice<UInt32>) -> Int {
        guard !values.isEmpty else { return 0 }
        var length = 0
        for v in values { length += varintSize(UInt64(v)) }
        return 1 + varintSize(UInt64(length)) + length
    }

    /// Bytes of a string field with its tag (field < 16) and length.
    public static func stringFieldSize(_ value: String) -> Int {
        let n = value.utf8.count
        return 1 + varintSize(UInt64(n)) + n
    }
}
