import Foundation
import HTTPServer
import JSON
import Search

/// The simulated VietMap API: routes requests to the endpoints, checks the API key, renders
/// errors in the live shapes and sets the headers of section 8.11.
///
/// It knows nothing of sockets: `respond(to:)` maps one request to one response, and `handler`
/// adapts it to `HTTPServer`.
public final class VietMapService: Sendable {
    /// Accepted keys; empty means any non-empty key.
    public let apiKeys: Set<String>
    public let search: PlaceSearch
    private let autocomplete: AutocompleteEndpoint
    private let place: PlaceEndpoint

    public init(search: PlaceSearch, apiKeys: Set<String> = []) {
        self.search = search
        self.apiKeys = apiKeys
        let renderer = ResponseRenderer(admin: search.admin)
        autocomplete = AutocompleteEndpoint(search: search, renderer: renderer)
        place = PlaceEndpoint(search: search, renderer: renderer)
    }

    /// Opens the dataset at `databasePath`.
    public convenience init(databasePath: String, apiKeys: Set<String> = []) throws {
        self.init(search: try PlaceSearch(databasePath: databasePath), apiKeys: apiKeys)
    }

    /// The paths this service answers.
    public enum Endpoint: String, CaseIterable, Sendable {
        case autocomplete = "/api/autocomplete/v4"
        case place = "/api/place/v4"
    }

    public var handler: HTTPHandler {
        { request, response in response.send(self.respond(to: request)) }
    }

    /// Answers one request. Every response carries `Server-Timing: app;dur=<ms>`, the time spent
    /// here, which the benchmark reads for server-side latency.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        var response = route(request)
        let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1_000
        let fraction = String(micros % 1_000)
        response.headers.set("Server-Timing", "app;dur=\(micros / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction)
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path.count > 1 && request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        guard let endpoint = Endpoint(rawValue: path) else {
            return Self.error(.notFound("no such endpoint: \(request.path.prefix(200))"))
        }
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return Self.preflight()
        default:
            var response = Self.error(APIError(status: 405, code: "INVALID_REQUEST", message: "method \(request.method.prefix(20)) not allowed; use GET"))
            response.headers.set("Allow", "GET, HEAD, OPTIONS")
            return response
        }
        if let problem = request.queryError {
            return Self.error(.invalidRequest("malformed query string: \(problem)"))
        }
        let parameters = RequestParameters(query: request.query)
        guard authorized(parameters.string("apikey")) else { return Self.error(.unauthorized) }
        do throws(APIError) {
            let body: JSONValue
            switch endpoint {
            case .autocomplete: body = try autocomplete.respond(parameters)
            case .place: body = try place.respond(parameters)
            }
            return Self.json(body, status: 200)
        } catch {
            return Self.error(error)
        }
    }

    private func authorized(_ key: String?) -> Bool {
        guard let key, !key.isEmpty else { return false }
        return apiKeys.isEmpty || apiKeys.contains(key)
    }

    static func json(_ body: JSONValue, status: Int) -> HTTPResponse {
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(body)), status: status)
        // The live 401 carries no CORS header (browsers then report "Failed to fetch").
        if status != 401 { response.headers.set("Access-Control-Allow-Origin", "*") }
        return response
    }

    static func error(_ error: APIError) -> HTTPResponse { json(error.body, status: error.status) }

    static func preflight() -> HTTPResponse {
        var response = HTTPResponse(status: 204, headers: [:], body: Data())
        response.headers.set("Access-Control-Allow-Origin", "*")
        response.headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
        response.headers.set("Access-Control-Allow-Headers", "*")
        response.headers.set("Access-Control-Max-Age", "86400")
        return response
    }
}
