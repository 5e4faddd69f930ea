/// Why an `HTTPServer` could not start. The message names the failing operation, and
/// includes libmicrohttpd's own explanation when it logged one.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
