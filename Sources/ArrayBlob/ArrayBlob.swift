/// Arrays of plain values in one byte blob, the format of the datasets' stored structures (the
/// road graph, the search index): a 4-byte magic, a `UInt32` version, then each array as its
/// element count (`UInt64`) followed by its elements' bytes; integers little-endian, arrays in the
/// machine's order (little-endian on every platform Swift runs on here).
public struct ArrayBlobWriter {
    public private(set) var bytes: [UInt8] = []

    public init(magic: String, version: UInt32) {
        bytes += Array(magic.utf8)
        append(version)
    }

    public mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    public mutating func append<T: BitwiseCopyable>(_ array: [T]) {
        append(UInt64(array.count))
        array.withUnsafeBytes { bytes += $0 }
    }

    /// A string: its UTF-8 length (`UInt32`), then its bytes.
    public mutating func append(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes += text.utf8
    }
}

/// Reads what ``ArrayBlobWriter`` wrote, in the same order; throws on a short or foreign blob and
/// on counts that do not fit in it, so a damaged blob never traps.
public struct ArrayBlobReader {
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// Reads `bytes`, which must stay valid while the reader is used.
    public init(_ bytes: UnsafeRawBufferPointer, magic: String, version: UInt32) throws(Malformed) {
        self.bytes = bytes
        let expected = Array(magic.utf8)
        guard bytes.count >= expected.count + 4, expected.elementsEqual(bytes[0..<expected.count]) else {
            throw Malformed(reason: "not a \(magic) blob")
        }
        offset = expected.count
        let found = try value(UInt32.self)
        guard found == version else { throw Malformed(reason: "version \(found), expected \(version)") }
    }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func value<T: FixedWidthInteger>(_: T.Type) throws(Malformed) -> T {
        let raw = try take(MemoryLayout<T>.size)
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: raw) }
        return T(littleEndian: value)
    }

    public mutating func array<T: BitwiseCopyable>(_: T.Type = T.self) throws(Malformed) -> [T] {
        guard let count = Int(exactly: try value(UInt64.self)) else { throw Malformed(reason: "truncated") }
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard !overflow else { throw Malformed(reason: "truncated") }
        let raw = try take(size)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = count
        }
    }

    public mutating func string() throws(Malformed) -> String {
        let length = Int(try value(UInt32.self))
        return String(decoding: try take(length), as: UTF8.self)
    }

    private mutating func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= bytes.count - offset else { throw Malformed(reason: "truncated") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
