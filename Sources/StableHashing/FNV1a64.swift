/// 64-bit FNV-1a, the one stable hash (the same in every process, unlike `Hasher`; not for security).
/// `update(_: UnsafeRawBufferPointer)` goes over 8-byte words (then the remaining bytes one by one), for fingerprints: the default data's 21 MB (hashed at build time by `embed-resources`, at
/// start only for a file changed since unpacking), and a word at a time takes a few milliseconds where a byte at a time took ~50. Also the map endpoints' dataset ids and ETags.
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

    /// Classic FNV-1a 64 of `bytes`, a byte at a time (what `update(_: UInt8)` does for each): the
    /// scenarios' per-client seeds and definition revisions.
    public static func bytewise<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash = FNV1a64()
        for byte in bytes { hash.update(byte) }
        return hash.value
    }

    /// Sixteen hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

