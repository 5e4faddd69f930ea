/// Arrays of plain values in one byte blob, the format of the datasets' stored structures (the
/// road graph, the search index). A blob is a head, then a body:
/// - the head: a 4-byte magic, a `UInt32` version, the head's length in bytes (`UInt64`, counted
///   from the blob's start), then every value, string and array count in the order written
///   (each array's count at a multiple of 8 bytes);
/// - the body, from the first multiple of 8 after the head: each array's elements, each array
///   starting at a multiple of 8 (zero bytes pad the gaps).
///
/// Integers are little-endian, arrays in the machine's order (little-endian on every platform
/// Swift runs on here). A blob stored at an aligned offset is read in place
/// (``ArrayBlobReader/stored(_:)``), and reading its layout touches only the head: the arrays'
/// pages stay untouched until they are read (a mapped file's start maps a few pages, not one per
/// array — the kernel maps a whole 2 MiB page-cache folio on a touch).
public struct ArrayBlobWriter {
    private var head: [UInt8] = []
    private var body: [UInt8] = []
    /// Where the head's length is written.
    private let lengthOffset: Int

    public init(magic: String, version: UInt32) {
        lengthOffset = magic.utf8.count + 4
        head += Array(magic.utf8)
        append(version)
        append(UInt64(0))
    }

    /// The blob: head, padding to a multiple of 8, body.
    public var bytes: [UInt8] {
        var out = head
        withUnsafeBytes(of: UInt64(head.count).littleEndian) { out.replaceSubrange(lengthOffset..<lengthOffset + 8, with: $0) }
        out += repeatElement(0, count: (8 - out.count % 8) % 8)
        out += body
        return out
    }

    public mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { head += $0 }
    }

    public mutating func append<T: BitwiseCopyable>(_ array: [T]) {
        appendCount(array.count)
        array.withUnsafeBytes { body += $0 }
    }

    public mutating func append<T: BitwiseCopyable>(_ array: StoredArray<T>) {
        appendCount(array.count)
        array.withUnsafeBytes { body += $0 }
    }

    private mutating func appendCount(_ count: Int) {
        head += repeatElement(0, count: (8 - head.count % 8) % 8)
        append(UInt64(count))
        body += repeatElement(0, count: (8 - body.count % 8) % 8)
    }

    /// A string: its UTF-8 length (`UInt32`), then its bytes.
    public mutating func append(_ text: String) {
        append(UInt32(text.utf8.count))
        head += text.utf8
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
    /// The next value's offset in the head, which ends at `headEnd`.
    private var offset = 0
    private var headEnd = 0
    /// The next array's offset in the body.
    private var bodyOffset = 0

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
        headEnd = bytes.count
        let found = try value(UInt32.self)
        guard found == version else { throw Malformed(reason: "version \(found), expected \(version)") }
        guard let length = Int(exactly: try value(UInt64.self)), length >= offset, length <= bytes.count else {
            throw Malformed(reason: "truncated")
        }
        headEnd = length
        bodyOffset = min(bytes.count, (length + 7) / 8 * 8)
    }

    public var isAtEnd: Bool { offset == headEnd && bodyOffset == bytes.count }

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
        guard padding <= headEnd - offset else { throw Malformed(reason: "truncated") }
        offset += padding
        guard let count = Int(exactly: try value(UInt64.self)) else { throw Malformed(reason: "truncated") }
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        guard !overflow else { throw Malformed(reason: "truncated") }
        let start = (bodyOffset + 7) / 8 * 8
        guard start <= bytes.count, size <= bytes.count - start else { throw Malformed(reason: "truncated") }
        bodyOffset = start + size
        return (UnsafeRawBufferPointer(rebasing: bytes[start..<start + size]), count)
    }

    public mutating func string() throws(Malformed) -> String {
        let length = Int(try value(UInt32.self))
        return String(decoding: try take(length), as: UTF8.self)
    }

    /// The next `count` bytes of the head.
    private mutating func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= headEnd - offset else { throw Malformed(reason: "truncated") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
