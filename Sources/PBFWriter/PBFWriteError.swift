/// Why writing failed.
public struct PBFWriteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "cannot write \(path): \(reason)" }
}
