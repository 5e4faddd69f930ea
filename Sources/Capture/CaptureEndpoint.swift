import APIKeys
import Foundation
import HTTPServer
import JSON
import Scenarios
import VietMapClient

/// The three forwarded/replayed endpoints and their error shapes, as the simulator answers them:
/// route errors in the route envelope, the others as `{"code","message"}`.
enum CaptureEndpoint {
    /// The endpoint a request path names (a trailing `/` is ignored), or nil.
    static func endpoint(of path: String) -> VMEndpoint? {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return VMEndpoint(rawValue: trimmed)
    }

    /// An error answer in `endpoint`'s shape (`nil`: not an endpoint, `{"code","message"}`).
    static func error(status: Int, code: String, message: String, endpoint: VMEndpoint?) -> HTTPResponse {
        let body: JSONValue = endpoint == .route
            ? .object(JSONObject([("license", "vietmap"), ("code", .string(code)), ("messages", .string(message)), ("paths", .null)]))
            : .object(JSONObject([("code", .string(code)), ("message", .string(message))]))
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(body)), status: status)
        if status != 401 { response.headers.set("Access-Control-Allow-Origin", "*") }
        return response
    }

    /// The request as a `VMRequest` (every query item, the client's `apikey` included).
    static func vmRequest(_ request: HTTPRequest, endpoint: VMEndpoint) -> VMRequest {
        VMRequest(endpoint, request.query.items.map { VMParameter($0.name, $0.value) })
    }

    /// The check the simulator makes on the client's key (`APIKeyPolicy`). Nil when the key
    /// passes, else the 401.
    static func unauthorized(_ request: HTTPRequest, endpoint: VMEndpoint, apiKeys: Set<String>) -> HTTPResponse? {
        if APIKeyPolicy(keys: apiKeys).isValid(APIKeyPolicy.presentedKey(request.query.all("apikey"))) { return nil }
        return error(status: 401, code: "UNAUTHORIZED", message: "apikey is missing or not valid", endpoint: endpoint)
    }

    /// The prelude every forwarded or replayed request goes through: the CORS preflight, the
    /// refusal of unknown paths, bad queries and methods, then the key check.
    enum Admission {
        /// Answer with this response and stop.
        case answered(HTTPResponse)
        /// Go on with the endpoint.
        case admitted(VMEndpoint)
    }

    static func admit(_ request: HTTPRequest, apiKeys: Set<String>) -> Admission {
        if request.method == "OPTIONS", endpoint(of: request.path) != nil { return .answered(preflight()) }
        let (found, refused) = refusal(request)
        if let refused { return .answered(refused) }
        guard let found else { return .answered(error(status: 404, code: "NOT_FOUND", message: "no such endpoint", endpoint: nil)) }
        if let denial = unauthorized(request, endpoint: found, apiKeys: apiKeys) { return .answered(denial) }
        return .admitted(found)
    }

    /// The answer to a CORS preflight on an endpoint.
    static func preflight() -> HTTPResponse {
        var response = HTTPResponse(status: 204)
        response.headers.set("Access-Control-Allow-Origin", "*")
        response.headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
        response.headers.set("Access-Control-Allow-Headers", "*")
        response.headers.set("Access-Control-Max-Age", "86400")
        return response
    }

    /// A refusal of anything but GET/HEAD/OPTIONS on an endpoint, or of an unknown path.
    static func refusal(_ request: HTTPRequest) -> (VMEndpoint?, HTTPResponse?) {
        guard let endpoint = endpoint(of: request.path) else {
            return (nil, error(status: 404, code: "NOT_FOUND", message: "no such endpoint: \(request.path.prefix(200))", endpoint: nil))
        }
        if request.queryError != nil {
            return (endpoint, error(status: 400, code: "INVALID_REQUEST", message: "malformed query string", endpoint: endpoint))
        }
        switch request.method {
        case "GET", "HEAD": return (endpoint, nil)
        default:
            var response = error(status: 405, code: "INVALID_REQUEST", message: "method \(request.method.prefix(20)) not allowed; use GET", endpoint: endpoint)
            response.headers.set("Allow", "GET, HEAD")
            return (endpoint, response)
        }
    }

    /// Response headers that describe one connection, not the answer; never copied.
    static let hopByHopHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "date", "proxy-connection", "upgrade", "te", "trailer",
        // URLSession hands over the decoded body, so its encoding no longer applies.
        "content-encoding",
    ]

    /// The header that says an answer came from the simulator instead of the upstream or a recording.
    static let fallbackHeader = ScenarioEngine.fallbackHeader
}
