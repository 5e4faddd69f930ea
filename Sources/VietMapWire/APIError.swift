/// A failure the API reports to the client: an HTTP status plus VietMap's error `code` and a message.
/// Statuses and codes follow section 8.6 of the reference (the simulator's documented choices).
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    /// For a 500: what actually failed (logged by the service, never sent to the client).
    public var cause: String?
    /// For a 429: the `Retry-After` seconds.
    public var retryAfterSeconds: Int?

    public init(status: Int, code: String, message: String, cause: String? = nil, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.cause = cause
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// `code` with its default status and message unless given.
    public init(_ code: APIErrorCode, message: String? = nil, status: Int? = nil) {
        self.init(status: status ?? code.defaultStatus, code: code.rawValue, message: message ?? code.defaultMessage,
                  retryAfterSeconds: code == .overDailyLimit ? 3600 : nil)
    }

    public static func invalidRequest(_ message: String) -> APIError { APIError(.invalidRequest, message: message) }
    public static func notFound(_ message: String) -> APIError { APIError(.notFound, message: message) }
    public static let unauthorized = APIError(.unauthorized)
    /// A 500 whose `cause` is `error` (the client sees only "internal error").
    public static func internalFailure(_ error: any Error) -> APIError {
        APIError(status: 500, code: APIErrorCode.errorUnknown.rawValue, message: "internal error", cause: String(describing: error))
    }
    /// The 405 of any method but GET, HEAD and OPTIONS.
    public static func methodNotAllowed(_ method: String) -> APIError {
        APIError(.invalidRequest, message: "method \(method.prefix(20)) not allowed; use GET", status: 405)
    }

    /// The body in `envelope`'s shape.
    public func body(_ envelope: ErrorEnvelope) -> [UInt8] { envelope.body(code: code, message: message) }

    /// The body in the shape of `endpoint`'s family (`{"code","message"}` for no endpoint).
    public func body(for endpoint: APIEndpoint?) -> [UInt8] { body(ErrorEnvelope.of(endpoint)) }
}
