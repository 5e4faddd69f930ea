/// Why a style document cannot be made.
public enum MapStyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// (which URL, the URL): not `http://` or `https://`.
    case relativeURL(String, String)
    /// (which URL, the missing placeholder such as `{z}`).
    case missingPlaceholder(String, String)

    public var description: String {
        switch self {
        case .relativeURL(let what, let url): return "the \(what) URL must be absolute http(s): \(url.prefix(200))"
        case .missingPlaceholder(let what, let placeholder): return "the \(what) URL template lacks \(placeholder)"
        }
    }
}
