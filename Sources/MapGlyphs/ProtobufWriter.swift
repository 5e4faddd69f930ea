/// A minimal Protocol Buffers encoder for the glyph PBF: varints, zigzag `sint32`, and
/// length-delimited fields (bytes, strings, nested messages), appended to a byte array in the
/// order they are written.
struct ProtobufWriter {
    /// The encoded message so far.
    private(set) var bytes: [UInt8] = []

    private static let varintType: UInt32 = 0
    private static let lengthDelimitedType: UInt32 = 2

    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private mutating func writeKey(field: UInt32, type: UInt32) {
        writeVarint(UInt64((field << 3) | type))
    }

    /// A `uint32` field.
    mutating func writeUInt32(field: UInt32, _ value: UInt32) {
        writeKey(field: field, type: Self.varintType)
        writeVarint(UInt64(value))
    }

    /// A `sint32` field: zigzag `(n << 1) ^ (n >> 31)`, so small negative numbers stay short.
    mutating func writeSInt32(field: UInt32, _ value: Int32) {
        writeKey(field: field, type: Self.varintType)
        writeVarint(UInt64(Self.zigzag(value)))
    }

    static func zigzag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// A `bytes` field (or a nested message already encoded).
    mutating func writeBytes<C: Collection>(field: UInt32, _ value: C) where C.Element == UInt8 {
        writeKey(field: field, type: Self.lengthDelimitedType)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `string` field, UTF-8.
    mutating func writeString(field: UInt32, _ value: String) {
        writeBytes(field: field, Array(value.utf8))
    }

    /// Bytes that are already encoded fields of this message.
    mutating func appendRaw(_ encodedFields: [UInt8]) {
        bytes.append(contentsOf: encodedFields)
    }

    /// A nested message field, encoded by `body` into its own writer.
    mutating func writeMessage(field: UInt32, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        writeBytes(field: field, nested.bytes)
    }
}
