import JSON

/// A failure the API reports to the client: an HTTP status plus VietMap's error `code` and a message.
/// Statuses and codes follow section 8.6 of the reference (the simulator's documented choices).
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    /// For a 500: what actually failed (logged by the service, never sent to the client).
    public var cause: String?

    public init(status: Int, code: String, message: String, cause: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.cause = cause
    }

    public static func invalidRequest(_ message: String) -> APIError {
        APIError(status: 400, code: "INVALID_REQUEST", message: message)
    }
    public static func notFound(_ message: String) -> APIError { APIError(status: 404, code: "NOT_FOUND", message: message) }
    public static let unauthorized = APIError(status: 401, code: "UNAUTHORIZED", message: "apikey is missing or not valid")
    /// A 500 whose `cause` is `error` (the client sees only "internal error").
    public static func internalFailure(_ error: any Error) -> APIError {
        APIError(status: 500, code: "ERROR_UNKNOWN", message: "internal error", cause: String(describing: error))
    }

    /// Body for autocomplete/place errors: `{"code":…,"message":…}`.
    public var body: JSONValue { ["code": .string(code), "message": .string(message)] }

    /// Body for route errors: the route envelope with `paths: null`.
    public var routeBody: JSONValue {
        ["license": "vietmap", "code": .string(code), "messages": .string(message), "paths": .null]
    }
}
