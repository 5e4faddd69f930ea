/// Arrays of plain values in one byte blob, the format of the datasets' stored structures (the
/// road graph, the search index): a 4-byte magic, a `UInt32` version, then each array as its
/// element count (`UInt64`) followed by its elements' bytes; integers little-endian, arrays in the
/// machine's order (little-endian on every platform Swift runs on here). Each array's count starts
/// at a multiple of 8 bytes from the blob's start (zero bytes pad the gap), so a blob stored at an
/// aligned offset is read in place (``ArrayBlobReader/stored(_:)``).
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
        pad()
        append(UInt64(array.count))
        array.withUnsafeBytes { bytes += $0 }
    }

    public mutating func append<T: BitwiseCopyable>(_ array: StoredArray<T>) {
        pad()
        append(UInt64(array.count))
        array.withUnsafeBytes { bytes += $0 }
    }

    private mutating func pad() {
        bytes += repeatElement(0, count: (8 - bytes.count % 8) % 8)
    }

    /// A string: its UTF-8 length (`UInt32`), then its bytes.
    public mutating func append(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes += text.utf8
    }
}

/// Reads what ``ArrayBlobWriter`` wrote, in the same order; throws on a short or foreign blob and
/// on counts that do not fit in it, so a damaged blob never traps. Arrays come back copied
/// (``array(_:)``) or as views of the blob's own bytes (``stored(_:)``).
public struct ArrayBlobReader {
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    private let region: ByteRegion
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// Reads a copy of `bytes` (views of ``stored(_:)`` point into the copy).
    public init(_ bytes: UnsafeRawBufferPointer, magic: String, version: UInt32) throws(Malformed) {
        try self.init(ByteRegion(copying: bytes), magic: magic, version: version)
    }

    /// Reads the blob that is `region`'s bytes, in place.
    public init(_ region: ByteRegion, magic: String, version: UInt32) throws(Malformed) {
        self.region = region
        let bytes = region.bytes
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
        let (raw, count) = try arrayBytes(T.self)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = count
        }
    }

    /// The next array as a view of the blob's bytes: nothing is copied or read yet.
    public mutating func stored<T: BitwiseCopyable>(_: T.Type = T.self) throws(Malformed) -> StoredArray<T> {
        let (raw, count) = try arrayBytes(T.self)
        guard let base = raw.baseAddress, Int(bitPattern: base) % MemoryLayout<T>.alignment == 0 else {
            throw Malformed(reason: "misaligned array")
        }
        return StoredArray(base: base.assumingMemoryBound(to: T.self), count: count, owner: region)
    }

    private mutating func arrayBytes<T>(_: T.Type) throws(Malformed) -> (UnsafeRawBufferPointer, Int) {
        let padding = (8 - offset % 8) % 8
        guard padding <= bytes.count - offset else { throw Malformed(reason: "truncated") }
        offset += padding
        guard let count = Int(exactly: try value(UInt64.self)) else { throw Malformed(reason: "truncated") }
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard !overflow else { throw Malformed(reason: "truncated") }
        return (try take(size), count)
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
