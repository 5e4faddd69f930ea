/// The framing around a deflate stream: zlib (RFC 1950: 2-byte header, Adler-32 trailer) or gzip
/// (RFC 1952: 10-byte header, CRC-32 and length trailer).
public enum ZlibFormat: Sendable {
    /// RFC 1950, as in PNG `IDAT`, OSM PBF `zlib_data` and `Content-Encoding: deflate`.
    case zlib
    /// RFC 1952, as in `.gz` files and `Content-Encoding: gzip`.
    case gzip

    /// zlib's `windowBits` for this framing with the largest (32 KiB) window.
    var windowBits: Int32 {
        switch self {
        case .zlib: 15
        case .gzip: 15 + 16
        }
    }

    /// Whether `bytes` start like a gzip stream (`1f 8b 08`).
    public static func isGzip<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B && iterator.next() == 8
    }

    /// Whether `bytes` start like a zlib stream (deflate method, header checksum right).
    public static func isZlib<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        guard let first = iterator.next().map(UInt16.init), let second = iterator.next().map(UInt16.init) else { return false }
        return first & 0x0F == 8 && (first << 8 | second) % 31 == 0
    }
}
