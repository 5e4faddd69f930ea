/// A malformed protobuf message; `offset` is relative to the start of the decoded buffer.
/// With `element` set, the bytes are well-formed but that element (`way 7`) breaks `OSMLimits`.
struct ProtobufError: Error {
    var reason: String
    var offset: Int
    var element: String? = nil
}

/// A minimal, allocation-free protobuf wire-format reader over borrowed bytes.
///
/// Every read is bounds-checked and consumes at least one byte or throws, so loops
/// driven by `nextField()` always terminate. The bytes must outlive the reader.
struct ProtobufReader {
    /// Protobuf wire types (`tag & 7`).
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Offset of `bytes` within the outermost buffer, for error messages.
    private let baseOffset: Int

    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The current position within the outermost buffer.
    var offset: Int { baseOffset + position }

    private func error(_ reason: String) -> ProtobufError {
        ProtobufError(reason: reason, offset: offset)
    }

    /// Reads the next field key, or returns `nil` at the end of the message.
    mutating func nextField() throws(ProtobufError) -> (number: Int, wireType: WireType)? {
        if isAtEnd { return nil }
        let key = try readVarint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw error("invalid wire type \(key & 7)")
        }
        let number = key >> 3
        guard number > 0, number <= 536_870_911 else { throw error("invalid field number \(number)") }
        return (Int(number), wireType)
    }

    /// Reads a base-128 varint of at most 10 bytes.
    mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw error("truncated varint") }
            let byte = bytes[position]
            position += 1
            if shift == 63, byte > 1 { throw error("varint longer than 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// `int64` / `int32` / `enum` (two's complement, negative int32 sign-extended to 10 bytes).
    mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// `sint64` / `sint32` (zigzag).
    mutating func readSInt64() throws(ProtobufError) -> Int64 {
        Self.zigzag(try readVarint())
    }

    static func zigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// A length-delimited field's bytes (string, bytes, sub-message, packed array).
    mutating func readBytes() throws(ProtobufError) -> UnsafeRawBufferPointer {
        let length = try readVarint()
        guard length <= UInt64(bytes.count - position) else {
            throw error("length \(length) exceeds the \(bytes.count - position) remaining bytes")
        }
        let start = position
        position += Int(length)
        return UnsafeRawBufferPointer(rebasing: bytes[start ..< position])
    }

    /// A length-delimited field as a reader of its own (sub-message or packed array).
    mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
        let slice = try readBytes()
        return ProtobufReader(slice, baseOffset: baseOffset + position - slice.count)
    }

    mutating func readString() throws(ProtobufError) -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// Skips a field's value of any supported wire type.
    mutating func skip(_ wireType: WireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try readBytes()
        case .startGroup, .endGroup: throw error("deprecated group wire type")
        }
    }

    private mutating func advance(_ count: Int) throws(ProtobufError) {
        guard bytes.count - position >= count else { throw error("truncated fixed-width field") }
        position += count
    }

    /// Reads a repeated varint field, packed (wire type 2) or not (wire type 0), calling
    /// `body` for each raw value.
    mutating func forEachVarint(
        _ wireType: WireType, _ body: (UInt64) throws(ProtobufError) -> Void
    ) throws(ProtobufError) {
        switch wireType {
        case .varint:
            try body(try readVarint())
        case .lengthDelimited:
            var packed = try readMessage()
            while !packed.isAtEnd { try body(try packed.readVarint()) }
        default:
            throw error("repeated varint field has wire type \(wireType.rawValue)")
        }
    }

    /// Appends a repeated `uint32`/`int32`/`enum` field's values (packed or not), storing none
    /// once `values` holds `limit`; returns how many values this occurrence of the field has,
    /// stored or not — an element over a limit is refused with its true size without being held.
    @discardableResult
    mutating func appendVarints(_ wireType: WireType, to values: inout [UInt64], limit: Int = .max) throws(ProtobufError) -> Int {
        var count = 0
        try forEachVarint(wireType) { raw in
            count += 1
            if values.count < limit { values.append(raw) }
        }
        return count
    }

    /// Appends a repeated delta-coded `sint64` field's values, undoing the delta coding; a sum
    /// beyond 64 bits is an error (hostile input can neither trap nor wrap around into plausible
    /// values). `values` must hold only this field's earlier values: the running sum continues
    /// from its last element. Stores none once `values` holds `limit`; returns how many values
    /// this occurrence of the field has, stored or not.
    @discardableResult
    mutating func appendDeltaSInt64s(_ wireType: WireType, to values: inout [Int64], limit: Int = .max) throws(ProtobufError) -> Int {
        var running: Int64 = values.last ?? 0
        var count = 0
        let start = offset
        try forEachVarint(wireType) { raw throws(ProtobufError) in
            count += 1
            guard values.count < limit else { return }
            let (sum, overflow) = running.addingReportingOverflow(Self.zigzag(raw))
            guard !overflow else {
                throw ProtobufError(reason: "delta-coded value \(count) overflows 64 bits", offset: start)
            }
            running = sum
            values.append(running)
        }
        return count
    }
}
