import HTTPServer
import VietMapWire

/// The checks every VietMap request passes before an endpoint computes, forwards or replays an
/// answer — one sequence for the simulator, `--upstream` and `--replay`, so they cannot disagree:
/// 1. the path names an endpoint (else 404 `NOT_FOUND`);
/// 2. `OPTIONS` is the CORS preflight (204);
/// 3. the method is GET or HEAD (else 405 with `Allow`);
/// 4. the query string parses (else 400);
/// 5. a legacy URL's `api-version` is absent or the documented one (else 400);
/// 6. the key passes `APIKeyPolicy` (else 401) — for the endpoints that require one
///    (`APIEndpoint.requiresKey`: not glyphs and sprites, where a key sent is ignored).
///
/// The endpoint and key come from the request's `reading` when a responder in front handed one
/// down (the scenario engine), else from the request itself.
public struct FrontDoor: Sendable {
    public let keys: APIKeyPolicy

    public init(apiKeys: Set<String> = []) {
        keys = APIKeyPolicy(keys: apiKeys)
    }

    /// What the front door makes of one request.
    public enum Admission: Sendable {
        /// Answer with this response and stop.
        case answered(HTTPResponse)
        /// Go on with the endpoint.
        case admitted(APIEndpoint)
    }

    public func admit(_ request: HTTPRequest) -> Admission {
        let reading = request.reading ?? RequestReading(request)
        guard let endpoint = reading.endpoint else {
            return .answered(APIResponses.error(.notFound("no such endpoint: \(request.path.prefix(200))"), for: nil))
        }
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return .answered(APIResponses.preflight())
        default: return .answered(APIResponses.error(.methodNotAllowed(request.method), for: endpoint))
        }
        if let problem = request.queryError {
            return .answered(APIResponses.error(.invalidRequest("malformed query string: \(problem)"), for: endpoint))
        }
        if let expected = endpoint.apiVersion, let sent = request.query.first(APIParameter.apiVersion.name),
           !sent.isEmpty, sent != expected {
            return .answered(APIResponses.error(
                .invalidRequest("api-version '\(sent.prefix(20))' is not supported by \(endpoint.path); use \(expected)"), for: endpoint))
        }
        let key = reading.presentedKey
        guard !endpoint.requiresKey || keys.isValid(key) else {
            return .answered(APIResponses.error(keys.refusal(of: key), for: endpoint))
        }
        return .admitted(endpoint)
    }

    /// The key `request` presents: its first non-empty `apikey` (or `apiKey`, `APIKeyPolicy.keyParameterNames`).
    public static func presentedKey(_ request: HTTPRequest) -> String? {
        // A plain loop: the lazy filter-map through the generic `APIKeyPolicy.presentedKey` was not specialised
        // across modules and cost a microsecond a request (it runs twice per request: scenarios, front door).
        for item in request.query.items where !item.value.isEmpty && APIKeyPolicy.isKeyParameter(item.name) {
            return item.value
        }
        return nil
    }
}
