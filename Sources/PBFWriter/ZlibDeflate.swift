import CZlib

/// Compresses a blob's payload with zlib (the PBF `Blob.zlib_data` encoding). The same bytes
/// and level give the same output on every run.
enum ZlibDeflate {
    static func deflate(_ source: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var capacity = compressBound(uLong(source.count))
        var destination = [UInt8](repeating: 0, count: Int(capacity))
        let status = destination.withUnsafeMutableBufferPointer { dst in
            source.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress, &capacity, src.baseAddress, uLong(src.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        destination.removeSubrange(Int(capacity)...)
        return destination
    }
}
