/// Why a deflate stream (zlib or gzip framed) could not be inflated.
public enum InflateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than `limit` bytes would have come out; inflation stopped there.
    case tooLarge(limit: Int)
    /// The stream ended before its end marker.
    case truncated
    /// Not a stream of the expected framing, or damaged; zlib's message.
    case corrupt(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the stream inflates to more than \(limit) bytes"
        case .truncated: "the stream is truncated"
        case .corrupt(let reason): "the stream is corrupt (\(reason))"
        }
    }
}
