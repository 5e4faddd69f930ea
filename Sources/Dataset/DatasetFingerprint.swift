import Foundation

/// 64-bit FNV-1a over 8-byte words (then the remaining bytes one by one), for fingerprints
/// (not for security): the default data's 21 MB are hashed at every start, and a word at a
/// time takes a few milliseconds where a byte at a time took ~50. Also the map endpoints' dataset ids and ETags.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        let words = bytes.count / 8
        for index in 0..<words {
            hash ^= UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            hash = hash &* Self.prime
            hash ^= hash >> 29
        }
        for byte in bytes[(words * 8)...] {
            hash ^= UInt64(byte)
            hash = hash &* Self.prime
        }
        value = hash
    }

    public mutating func update(_ text: String) {
        var copy = text
        copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        update(UInt8(0))  // separator, so ("ab","c") ≠ ("a","bc")
    }

    public mutating func update(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Sixteen hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The fingerprint of a set of inputs: FNV-1a 64 over the schema and builder versions and,
/// for each input in order, its file name, size and full content. Any change to an input
/// or to the import logic (via ``DatasetSchema/builderVersion``) changes it.
public enum DatasetFingerprint {
    /// - Returns: 16 lower-case hex digits.
    /// - Throws: ``DatasetError`` `.missingInput` if an input cannot be read.
    public static func compute(inputs: [URL]) throws -> String {
        var hash = FNV1a64()
        hash.update("vietmap-sim dataset")
        hash.update("schema \(DatasetSchema.schemaVersion)")
        hash.update("builder \(DatasetSchema.builderVersion)")
        // Each file's content hash on its own thread (memory-mapped: no copy), combined in order.
        nonisolated(unsafe) let contents = UnsafeMutableBufferPointer<(size: Int, hex: String)?>.allocate(capacity: inputs.count)
        contents.initialize(repeating: nil)
        defer { contents.deinitialize(); contents.deallocate() }
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            guard let data = try? Data(contentsOf: inputs[index], options: .alwaysMapped) else { return }
            var content = FNV1a64()
            data.withUnsafeBytes { content.update($0) }
            contents[index] = (data.count, content.hex)
        }
        for (index, url) in inputs.enumerated() {
            guard let (size, hex) = contents[index] else { throw DatasetError.missing(url) }
            hash.update(url.lastPathComponent)
            hash.update("\(size)")
            hash.update(hex)
        }
        return hash.hex
    }
}
