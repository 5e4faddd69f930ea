/// FNV-1a 64-bit over UTF-8 bytes: a hash that is the same in every process (unlike
/// `Hasher`, which is seeded per process). Used to derive per-client random seeds and to
/// notice changed scenario definitions.
enum StableHash {
    static func fnv1a64<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func fnv1a64(_ text: String) -> UInt64 {
        fnv1a64(text.utf8)
    }
}
