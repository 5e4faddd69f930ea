/// Why a HAR file could not be turned into exchanges: the entry (0-based index into
/// `log.entries`, nil for the file as a whole) and the reason, printed as one line.
public struct HARImportError: Error, Sendable, CustomStringConvertible {
    /// A reason without its location.
    public struct Reason: Error, Sendable {
        public let text: String
        init(_ text: String) { self.text = text }
    }

    public let entry: Int?
    public let reason: String

    public init(entry: Int?, reason: String) {
        self.entry = entry
        self.reason = reason
    }

    /// `entry 3 (/log/entries/3): reason`, or the reason alone.
    public var description: String {
        entry.map { "entry \($0) (/log/entries/\($0)): \(reason)" } ?? reason
    }
}
