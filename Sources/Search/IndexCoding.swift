import Foundation

/// Writes the arrays of a ``SearchIndex`` into one byte buffer: each array as its element count
/// (8 bytes, little-endian) followed by its elements' bytes in the machine's (little-endian) order.
struct IndexWriter {
    private(set) var bytes: [UInt8] = []

    init(magic: String, version: UInt32) {
        bytes += Array(magic.utf8)
        append(version)
    }

    mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func append<T: FixedWidthInteger>(_ array: [T]) {
        withUnsafeBytes(of: UInt64(array.count).littleEndian) { bytes += $0 }
        array.withUnsafeBytes { bytes += $0 }
    }

    mutating func append(_ array: [Double]) {
        withUnsafeBytes(of: UInt64(array.count).littleEndian) { bytes += $0 }
        array.withUnsafeBytes { bytes += $0 }
    }
}

/// Reads what ``IndexWriter`` wrote, in the same order; throws on a short or foreign buffer.
struct IndexReader {
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "search index: \(reason)" }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// Reads `bytes`, which must stay valid while the reader is used.
    init(_ bytes: UnsafeRawBufferPointer, magic: String, version: UInt32) throws {
        self.bytes = bytes
        let expected = Array(magic.utf8)
        guard bytes.count >= expected.count + 4, expected.elementsEqual(bytes[0..<expected.count]) else {
            throw Malformed(reason: "not a search index")
        }
        offset = expected.count
        let found = try readUInt32()
        guard found == version else { throw Malformed(reason: "version \(found), expected \(version)") }
    }

    mutating func readUInt32() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw Malformed(reason: "truncated") }
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4])) }
        offset += 4
        return UInt32(littleEndian: value)
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> [T] {
        try readArray(elementSize: MemoryLayout<T>.stride) { count, raw in
            [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
                initialized = count
            }
        }
    }

    mutating func readDoubles() throws -> [Double] {
        try readArray(elementSize: MemoryLayout<Double>.stride) { count, raw in
            [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
                initialized = count
            }
        }
    }

    private mutating func readArray<A>(elementSize: Int, _ make: (Int, UnsafeRawBufferPointer) -> A) throws -> A {
        guard offset + 8 <= bytes.count else { throw Malformed(reason: "truncated") }
        var raw: UInt64 = 0
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8])) }
        offset += 8
        guard let count = Int(exactly: UInt64(littleEndian: raw)) else { throw Malformed(reason: "truncated") }
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, size <= bytes.count - offset else { throw Malformed(reason: "truncated") }
        let result = make(count, UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]))
        offset += size
        return result
    }

    var isAtEnd: Bool { offset == bytes.count }
}
