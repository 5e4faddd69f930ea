import Foundation

/// Inflation of a whole deflate stream (zlib or gzip framed) held in memory, always under a byte cap:
/// a small bomb never becomes a large buffer.
public enum Inflate {
    /// The bytes `source` inflates to. `format` nil: gzip or zlib, detected from the header
    /// (concatenated gzip members are not joined; bytes after the end marker are ignored).
    public static func decompress(_ source: UnsafeRawBufferPointer, format: ZlibFormat? = nil, limit: Int) throws(InflateError) -> Data {
        var output = Data()
        let stream = try InflateStream(format: format, limit: limit)
        guard try stream.feed(source, sink: { output.append($0) }) == .finished else { throw .truncated }
        return output
    }

    /// The bytes `source` inflates to.
    public static func decompress<Bytes: ContiguousBytes>(_ source: Bytes, format: ZlibFormat? = nil, limit: Int) throws(InflateError) -> Data {
        try withBytes(source) { bytes throws(InflateError) in try decompress(bytes, format: format, limit: limit) }
    }

    /// How many bytes `source` inflates to, without keeping them (64 KiB of scratch memory),
    /// stopping as soon as more than `limit` came out.
    public static func inflatedSize<Bytes: ContiguousBytes>(_ source: Bytes, format: ZlibFormat? = nil, limit: Int) throws(InflateError) -> Int {
        try withBytes(source) { bytes throws(InflateError) in
            let stream = try InflateStream(format: format, limit: limit)
            guard try stream.feed(bytes, sink: { _ in }) == .finished else { throw .truncated }
            return stream.total
        }
    }

    /// Inflates `source` straight into `destination`, which caps the output (as for a stream whose
    /// size is stored beside it: PNG rows, a PBF blob's `raw_size`); returns how many bytes came out.
    public static func decompress(_ source: UnsafeRawBufferPointer, format: ZlibFormat? = nil,
                                  into destination: UnsafeMutableRawBufferPointer) throws(InflateError) -> Int {
        try InflateStream(format: format, limit: destination.count).inflate(source, into: destination)
    }

    private static func withBytes<Bytes: ContiguousBytes, Result>(
        _ source: Bytes, _ body: (UnsafeRawBufferPointer) throws(InflateError) -> Result
    ) throws(InflateError) -> Result {
        let result: Swift.Result<Result, InflateError> = source.withUnsafeBytes { bytes in
            do throws(InflateError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
