import Foundation
import JSON

/// A response to an `HTTPRequest`.
///
/// `Content-Length` and `Date` are added by the server. An explicit `Content-Length`
/// header is sent verbatim instead of the computed one (a fault-injection tool); when it
/// differs from the body size the server also sends `Connection: close`.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    public var transport: TransportBehaviour

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(),
                transport: TransportBehaviour = .normal) {
        self.status = status
        self.headers = headers
        self.body = body
        self.transport = transport
    }

    /// A JSON response: sets `Content-Type: application/json; charset=utf-8`.
    public static func json(_ data: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: data)
    }

    /// A plain-text response: sets `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// The one writer of the `{"error":"…"}` answers of the simulator's own pages and admin API
    /// (`/__sim/*`: not VietMap's envelope), any `extra` members after it; never cached.
    public static func simulatorError(_ message: String, status: Int, extra: [(String, JSONValue)] = []) -> HTTPResponse {
        var response = json(Data(JSONSerializer.bytes(.object(JSONObject([("error", .string(message))] + extra)))), status: status)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The small JSON error body the server layer itself uses (413, 414):
    /// `{"code":"INVALID_REQUEST","message":"…"}`, plus `extraHeaders`
    /// (`HTTPServerConfiguration.errorResponseHeaders`).
    static func serverError(status: Int, message: String, extraHeaders: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = json(Data(CodeMessageBody.bytes(code: "INVALID_REQUEST", message: message)), status: status)
        for field in extraHeaders.fields { response.headers.set(field.name, field.value) }
        return response
    }
}
