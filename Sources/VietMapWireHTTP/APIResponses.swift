import Foundation
import HTTPServer
import JSON
import VietMapWire

/// The HTTP form of the wire protocol's answers — the one renderer of every VietMap JSON answer
/// and error, for the API layer, scenarios and capture/replay alike:
/// `Content-Type: application/json; charset=utf-8`; `Access-Control-Allow-Origin: *` on every
/// status but 401 (the live 401 has none, reference §8.11); `Retry-After` on a 429.
public enum APIResponses {
    /// A JSON answer with the CORS rule applied.
    public static func json(_ body: Data, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: status == 401 ? jsonHeaders : corsJSONHeaders, body: body)
    }

    /// The CORS rule on an answer built elsewhere (a scenario's literal text or bytes, a map resource): the
    /// header on every status but 401.
    public static func applyCORS(to response: inout HTTPResponse) {
        applyCORS(to: &response.headers, status: response.status)
    }

    /// The CORS rule on the headers of an answer of `status` being built (the server layer's own 413/414
    /// included, `HTTPServerConfiguration.errorResponseHeaders`).
    public static func applyCORS(to headers: inout HTTPHeaders, status: Int) {
        if status != 401 { headers.set("Access-Control-Allow-Origin", "*") }
    }

    public static func json(_ body: JSONValue, status: Int) -> HTTPResponse {
        json(Data(JSONSerializer.bytes(body)), status: status)
    }

    /// `error` in `endpoint`'s envelope (`{"code","message"}` for no endpoint), `Retry-After`
    /// on a 429 (the error's own seconds, else an hour).
    public static func error(_ error: APIError, for endpoint: APIEndpoint?) -> HTTPResponse {
        var response = json(Data(error.body(for: endpoint)), status: error.status)
        if error.status == 429 { response.headers.set("Retry-After", String(max(1, error.retryAfterSeconds ?? 3600))) }
        if error.status == 405 { response.headers.set("Allow", APIEndpoint.allowedMethods) }
        return response
    }

    /// The answer to a CORS preflight on an endpoint.
    public static func preflight() -> HTTPResponse {
        var response = HTTPResponse(status: 204)
        response.headers.set("Access-Control-Allow-Origin", "*")
        response.headers.set("Access-Control-Allow-Methods", APIEndpoint.allowedMethods)
        response.headers.set("Access-Control-Allow-Headers", "*")
        response.headers.set("Access-Control-Max-Age", "86400")
        return response
    }

    private static let jsonHeaders = HTTPResponse.json(Data()).headers
    private static let corsJSONHeaders: HTTPHeaders = {
        var headers = jsonHeaders
        headers.set("Access-Control-Allow-Origin", "*")
        return headers
    }()
}
