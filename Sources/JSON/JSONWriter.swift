/// Writes compact JSON straight into bytes, for hot paths that would otherwise build a
/// `JSONValue` tree only to serialize it. The output is byte-identical to `JSONSerializer`'s
/// for the same document (same number and string forms); commas are placed automatically.
///
///     var writer = JSONWriter()
///     writer.beginObject()
///     writer.key("name"); writer.string("Chợ Bến Thành")
///     writer.key("lat"); writer.number(10.7725)
///     writer.endObject()
///     let body = writer.bytes   // {"name":"Chợ Bến Thành","lat":10.7725}
public struct JSONWriter {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8]
    /// Whether a value was just completed in the current container (the next one needs a comma).
    private var afterValue = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        afterValue = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        afterValue = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        afterValue = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        afterValue = true
    }

    /// An object member's name; the member's value is written next.
    public mutating func key(_ name: String) {
        separate()
        JSONSerializer.writeString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    /// A member with a string value.
    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// A member with an integer value.
    public mutating func member(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    /// A member with a boolean value.
    public mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A member with a number value (as `number(_:)`).
    public mutating func member(_ name: String, number value: Double) {
        key(name)
        number(value)
    }

    public mutating func string(_ value: String) {
        separate()
        JSONSerializer.writeString(value, into: &bytes)
        afterValue = true
    }

    public mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        afterValue = true
    }

    /// As `JSONValue.number`: integral values without a fraction, non-finite ones as `null`.
    public mutating func number(_ value: Double) {
        separate()
        JSONSerializer.writeNumber(value, into: &bytes)
        afterValue = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
        afterValue = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        afterValue = true
    }

    /// Any value, through `JSONSerializer`.
    public mutating func value(_ value: JSONValue) {
        separate()
        JSONSerializer.write(value, into: &bytes)
        afterValue = true
    }

    private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }
}
