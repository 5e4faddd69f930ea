internal import CZlib

/// CRC-32 (ISO 3309, as in gzip, PNG chunks and the dataset seal), by zlib.
public enum CRC32 {
    /// The CRC-32 of no bytes.
    public static let initial: UInt32 = 0

    /// `crc` continued over `bytes` (start from `initial`).
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var crc = uLong(crc)
        var offset = 0
        // zlib takes a 32-bit length: longer inputs go in pieces.
        while offset < bytes.count {
            let count = min(bytes.count - offset, Int(UInt32.max))
            crc = crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// `crc` continued over `bytes`.
    public static func update<Bytes: Sequence<UInt8>>(_ crc: UInt32, _ bytes: Bytes) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(crc, UnsafeRawBufferPointer($0)) }) { return result }
        let copy = Array(bytes)
        return copy.withUnsafeBytes { update(crc, $0) }
    }

    /// The CRC-32 of `bytes`.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 { update(initial, bytes) }

    /// The CRC-32 of two byte runs one after the other, from the CRC-32 of each and the second's length.
    public static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), .init(secondLength)))
    }
}
