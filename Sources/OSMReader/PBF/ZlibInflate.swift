import CZlib

/// Inflates a zlib stream whose uncompressed size is known (`Blob.raw_size`).
enum ZlibInflate {
    /// Fills `destination` exactly; returns a description of the failure otherwise.
    static func inflate(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) -> String? {
        guard let src = source.baseAddress, let dst = destination.baseAddress else {
            return destination.isEmpty && source.isEmpty ? nil : "empty zlib stream"
        }
        var produced = uLongf(destination.count)
        let status = uncompress(
            dst.assumingMemoryBound(to: Bytef.self), &produced,
            src.assumingMemoryBound(to: Bytef.self), uLong(source.count))
        switch status {
        case Z_OK:
            guard Int(produced) == destination.count else {
                return "zlib data inflates to \(produced) bytes, raw_size says \(destination.count)"
            }
            return nil
        case Z_BUF_ERROR:
            return "zlib data is truncated or inflates to more than raw_size (\(destination.count)) bytes"
        case Z_DATA_ERROR:
            return "corrupt zlib data"
        case Z_MEM_ERROR:
            return "out of memory inflating zlib data"
        default:
            return "zlib error \(status)"
        }
    }
}
