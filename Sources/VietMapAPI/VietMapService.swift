import Dataset
import APIKeys
import Foundation
import HTTPServer
import JSON
import Routing
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
    /// The road graph routes are computed on (`nil`: the dataset has no roads).
    public let roadGraph: RoadGraph?
    /// Keeps the dataset file from being pruned from the cache while it is served.
    private let lease: DatasetLease?
    private let autocomplete: AutocompleteEndpoint
    private let place: PlaceEndpoint
    private let route: RouteEndpoint
    /// Rendered autocomplete and place answers of repeated requests.
    private let cache: ResponseCache
    /// Where 500s are reported, one line each (default: stderr).
    private let errorLog: @Sendable (String) -> Void

    /// Writes `line` and a newline to stderr in one `write`, so lines from server threads do not interleave.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// - Parameters:
    ///   - maxRoutePoints: more `point`s than this is `MAX_POINTS_EXCEED`.
    ///   - maxSnapDistanceMeters: a point farther than this from any usable road is an error.
    ///   - errorLog: receives one line per 500 answer: method, path and the cause.
    ///   - responseCacheBytes: bytes of rendered autocomplete/place answers kept for repeated
    ///     requests (0: none); default `defaultResponseCacheBytes`.
    public init(search: PlaceSearch, roadGraph: RoadGraph?, apiKeys: Set<String> = [],
                maxRoutePoints: Int = 25, maxSnapDistanceMeters: Double = 1_000, lease: DatasetLease? = nil,
                errorLog: @escaping @Sendable (String) -> Void = VietMapService.standardErrorLog,
                responseCacheBytes: Int = VietMapService.defaultResponseCacheBytes) {
        self.lease = lease
        cache = ResponseCache(budgetBytes: responseCacheBytes)
        self.errorLog = errorLog
        self.search = search
        self.apiKeys = apiKeys
        self.roadGraph = roadGraph
        let renderer = ResponseRenderer(admin: search.admin)
        autocomplete = AutocompleteEndpoint(search: search, renderer: renderer)
        place = PlaceEndpoint(search: search, renderer: renderer)
        // Bounded so every later conversion to whole metres is safe (100 km is far beyond any use).
        let snapDistance = maxSnapDistanceMeters.isFinite ? min(max(maxSnapDistanceMeters, 1), 100_000) : 1_000
        route = RouteEndpoint(graph: roadGraph, limits: .init(maxPoints: max(2, maxRoutePoints), maxSnapDistanceMeters: snapDistance))
    }

    /// 2 MiB, or `VIETMAP_SIM_RESPONSE_CACHE_KB` KiB from the environment (0 turns the cache
    /// off, e.g. to measure the search itself).
    public static var defaultResponseCacheBytes: Int {
        if let text = ProcessInfo.processInfo.environment["VIETMAP_SIM_RESPONSE_CACHE_KB"], let kib = Int(text), kib >= 0 {
            return min(kib, 1 << 20) * 1024
        }
        return 2 << 20
    }

    /// Opens the dataset at `databasePath`: places for search, the road graph into memory.
    public convenience init(databasePath: String, apiKeys: Set<String> = [],
                            maxRoutePoints: Int = 25, maxSnapDistanceMeters: Double = 1_000,
                            errorLog: @escaping @Sendable (String) -> Void = VietMapService.standardErrorLog,
                            responseCacheBytes: Int = VietMapService.defaultResponseCacheBytes) throws {
        let lease = try DatasetLease(path: databasePath)
        // The road graph loads on another thread while search loads here (start-up time).
        nonisolated(unsafe) var graph: Result<RoadGraph?, any Error> = .success(nil)
        let loading = DispatchGroup()
        DispatchQueue.global().async(group: loading) { graph = Result { try RoadGraphStore.load(databasePath: databasePath) } }
        let search = Result { try PlaceSearch(databasePath: databasePath) }
        loading.wait()
        self.init(search: try search.get(), roadGraph: try graph.get(),
                  apiKeys: apiKeys, maxRoutePoints: maxRoutePoints, maxSnapDistanceMeters: maxSnapDistanceMeters, lease: lease,
                  errorLog: errorLog, responseCacheBytes: responseCacheBytes)
    }

    /// The paths this service answers.
    public enum Endpoint: String, CaseIterable, Sendable {
        case autocomplete = "/api/autocomplete/v4"
        case place = "/api/place/v4"
        case route = "/api/route/v4"
    }

    public var handler: HTTPHandler {
        { request, response in response.send(self.respond(to: request)) }
    }

    /// Answers one request. Every response carries `Server-Timing: app;dur=<ms>`, the time spent
    /// here, which the benchmark reads for server-side latency (routes add the settled node count).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        var response = route(request)
        let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1_000
        let fraction = micros % 1_000
        var timing = "app;dur=\(micros / 1_000)."
        if fraction < 100 { timing += fraction < 10 ? "00" : "0" }
        timing += String(fraction)
        // A route's search adds its own metric: "app;dur=0.812, search;desc=\"settled 1234\"".
        if let inner = response.headers["Server-Timing"] {
            response.headers.set("Server-Timing", timing + ", " + inner)
        } else {
            response.headers.add("Server-Timing", timing)
        }
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path.utf8.count > 1 && request.path.utf8.last == UInt8(ascii: "/") ? String(request.path.dropLast()) : request.path
        guard let endpoint = Endpoint(rawValue: path) else {
            return Self.error(.notFound("no such endpoint: \(request.path.prefix(200))"))
        }
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS": return Self.preflight()
        default:
            var response = Self.error(APIError(status: 405, code: "INVALID_REQUEST", message: "method \(request.method.prefix(20)) not allowed; use GET"),
                                      for: endpoint)
            response.headers.set("Allow", "GET, HEAD, OPTIONS")
            return response
        }
        if let problem = request.queryError {
            return Self.error(.invalidRequest("malformed query string: \(problem)"), for: endpoint)
        }
        let parameters = RequestParameters(query: request.query)
        guard APIKeyPolicy(keys: apiKeys).isValid(parameters.string("apikey")) else { return Self.error(.unauthorized, for: endpoint) }
        let cacheKey = endpoint != .route && cache.isEnabled ? ResponseCache.key(path: path, items: request.query.items) : nil
        if let cacheKey, let body = cache.body(for: cacheKey) { return Self.json(body, status: 200) }
        do throws(APIError) {
            switch endpoint {
            case .autocomplete, .place:
                let body = Data(endpoint == .place ? try place.respond(parameters) : try autocomplete.respond(parameters))
                if let cacheKey { cache.store(body, for: cacheKey) }
                return Self.json(body, status: 200)
            case .route:
                let (body, settled) = try route.respond(parameters)
                var response = Self.json(body, status: 200)
                response.headers.set("Server-Timing", "search;desc=\"settled \(settled)\"")
                return response
            }
        } catch {
            if error.status >= 500 { logFailure(error, request: request) }
            return Self.error(error, for: endpoint)
        }
    }

    /// One line: `vietmap-sim: 500 GET /api/place/v4: <cause>` (the query is left out: it holds the key).
    private func logFailure(_ error: APIError, request: HTTPRequest) {
        let cause = (error.cause ?? error.message).split(whereSeparator: \.isNewline).joined(separator: " ")
        errorLog("vietmap-sim: \(error.status) \(request.method.prefix(20)) \(request.path.prefix(200)): \(error.code): \(cause.prefix(500))")
    }

    static func json(_ body: JSONValue, status: Int) -> HTTPResponse {
        json(Data(JSONSerializer.bytes(body)), status: status)
    }

    static func json(_ body: Data, status: Int) -> HTTPResponse {
        // The live 401 carries no CORS header (browsers then report "Failed to fetch").
        HTTPResponse(status: status, headers: status == 401 ? jsonHeaders : corsJSONHeaders, body: body)
    }

    private static let jsonHeaders = HTTPResponse.json(Data()).headers
    private static let corsJSONHeaders: HTTPHeaders = {
        var headers = jsonHeaders
        headers.set("Access-Control-Allow-Origin", "*")
        return headers
    }()

    /// Route errors come in the route envelope, the others as `{"code","message"}`.
    static func error(_ error: APIError, for endpoint: Endpoint? = nil) -> HTTPResponse {
        json(endpoint == .route ? error.routeBody : error.body, status: error.status)
    }

    static func preflight() -> HTTPResponse {
        var response = HTTPResponse(status: 204, headers: [:], body: Data())
        response.headers.set("Access-Control-Allow-Origin", "*")
        response.headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
        response.headers.set("Access-Control-Allow-Headers", "*")
        response.headers.set("Access-Control-Max-Age", "86400")
        return response
    }
}
