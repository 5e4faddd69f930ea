import Foundation

/// Streaming inflation under a cap, for bodies that arrive piece by piece (an upstream answer with
/// `Content-Encoding: gzip`): each piece is inflated as it comes, and more than `limit` bytes of
/// output stop it, so a small bomb never becomes a large buffer.
public final class StreamingInflater {
    /// The most bytes the output may hold.
    public var limit: Int { stream.limit }
    /// The bytes inflated so far.
    public private(set) var output = Data()
    /// Whether the end marker was reached (bytes after it are ignored).
    public private(set) var finished = false
    private let stream: InflateStream

    /// `format` nil: gzip or zlib, detected from the header.
    public init(format: ZlibFormat? = nil, limit: Int) throws(InflateError) {
        stream = try InflateStream(format: format, limit: limit)
    }

    /// Inflates `data`; throws `.tooLarge` once the output would pass the limit, `.corrupt` for
    /// damaged data. After `finished` more data is ignored.
    public func feed(_ data: Data) throws(InflateError) {
        guard !finished, !data.isEmpty else { return }
        let outcome: Result<InflateStream.Outcome, InflateError> = data.withUnsafeBytes { bytes in
            do throws(InflateError) {
                return .success(try stream.feed(bytes) { output.append($0) })
            } catch { return .failure(error) }
        }
        if try outcome.get() == .finished { finished = true }
    }
}
