import Dataset
import VietMapWire
import Foundation
import HTTPServer
import VietMapWireHTTP
import Routing
import Search

/// The simulated VietMap API: routes requests to the endpoints, checks the API key, renders
/// errors in the live shapes and sets the headers of section 8.11.
///
/// It knows nothing of sockets: `respond(to:)` maps one request to one response; as an
/// `HTTPResponder` it answers at once on the calling thread.
public final class VietMapService: HTTPResponder {
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
    private let directions: DirectionsEndpoint
    private let reverse: ReverseEndpoint
    private let matrix: MatrixEndpoint
    private let tsp: TSPEndpoint
    private let migrate: MigrateAddressEndpoint
    /// Styles, TileJSON, tiles, glyphs and sprites.
    private let map: MapEndpoints
    /// Rendered autocomplete and place answers of repeated requests.
    private let cache: ResponseCache
    /// Not-found, method, query and key checks (shared with `--upstream`/`--replay`).
    private let frontDoor: FrontDoor
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
                responseCacheBytes: Int = VietMapService.defaultResponseCacheBytes, mapShapes: MapShapes? = nil) {
        self.lease = lease
        cache = ResponseCache(budgetBytes: responseCacheBytes)
        self.errorLog = errorLog
        self.search = search
        self.apiKeys = apiKeys
        frontDoor = FrontDoor(apiKeys: apiKeys)
        self.roadGraph = roadGraph
        let renderer = PlaceRenderer(admin: search.admin)
        autocomplete = AutocompleteEndpoint(search: search, renderer: renderer)
        place = PlaceEndpoint(search: search, renderer: renderer)
        reverse = ReverseEndpoint(search: search, renderer: renderer)
        migrate = MigrateAddressEndpoint(search: search, renderer: renderer)
        map = MapEndpoints(content: MapContent(graph: roadGraph, search: search, shapes: mapShapes))
        // Bounded so every later conversion to whole metres is safe (100 km is far beyond any use).
        let snapDistance = maxSnapDistanceMeters.isFinite ? min(max(maxSnapDistanceMeters, 1), 100_000) : 1_000
        let network = roadGraph.map(RoadNetwork.init(graph:))
        route = RouteEndpoint(network: network, limits: .init(maxPoints: max(2, maxRoutePoints), maxSnapDistanceMeters: snapDistance))
        directions = DirectionsEndpoint(network: network, limits: route.limits)
        matrix = MatrixEndpoint(network: network, limits: .init(maxSnapDistanceMeters: snapDistance))
        tsp = TSPEndpoint(network: network, limits: .init(maxPoints: min(max(2, maxRoutePoints), TourPlanner.maxPoints),
                                                          maxSnapDistanceMeters: snapDistance))
    }

    /// 8 MiB, or `VIETMAP_SIM_RESPONSE_CACHE_KB` KiB from the environment (0 turns the cache
    /// off, e.g. to measure the search itself). Sized for typing: an autocomplete answer is about
    /// 6 KB, and the younger half of the cache (`ResponseCache`) must hold what users type again
    /// (the bench's corpus, 285 prefixes, is 1.7 MB): with 2 MiB it cycled through the cache and
    /// missed almost every time.
    public static var defaultResponseCacheBytes: Int {
        if let text = ProcessInfo.processInfo.environment["VIETMAP_SIM_RESPONSE_CACHE_KB"], let kib = Int(text), kib >= 0 {
            return min(kib, 1 << 20) * 1024
        }
        return 8 << 20
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
        let shapes = Result { try MapShapeStore.load(databasePath: databasePath) }
        loading.wait()
        self.init(search: try search.get(), roadGraph: try graph.get(),
                  apiKeys: apiKeys, maxRoutePoints: maxRoutePoints, maxSnapDistanceMeters: maxSnapDistanceMeters, lease: lease,
                  errorLog: errorLog, responseCacheBytes: responseCacheBytes, mapShapes: try shapes.get())
    }

    /// The TSP answer's visiting order (indexes into the request's points, start first).
    public static let pointsOrderHeader = "X-VietMap-Sim-Points-Order"

    public func respond(to request: HTTPRequest, reply: ResponseHandle) {
        reply.send(respond(to: request))
    }

    /// Answers one request: the front door's checks (`FrontDoor`), then the endpoint. Every
    /// response carries `Server-Timing: app;dur=<ms>`, the time spent here, which the benchmark
    /// reads for server-side latency (routes add the settled node count).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        timed {
            switch frontDoor.admit(request) {
            case .answered(let response): return response
            case .admitted(let endpoint): return answer(endpoint, request)
            }
        }
    }

    /// `endpoint`'s answer to `request` without the front door's checks (no key needed): the
    /// dashboard's place lookup. With `Server-Timing` as from `respond(to:)`.
    public func respond(to request: HTTPRequest, as endpoint: APIEndpoint) -> HTTPResponse {
        timed { answer(endpoint, request) }
    }

    /// `body`'s response with the time it took in `Server-Timing`.
    private func timed(_ body: () -> HTTPResponse) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        var response = body()
        let timing = Self.serverTiming(micros: (DispatchTime.now().uptimeNanoseconds - started) / 1_000)
        // A route's search adds its own metric: "app;dur=0.812, search;desc=\"settled 1234\"".
        if let inner = response.headers["Server-Timing"] {
            response.headers.set("Server-Timing", timing + ", " + inner)
        } else {
            response.headers.add("Server-Timing", timing)
        }
        return response
    }

    /// `app;dur=<ms>` with three decimals (`app;dur=0.098`): written byte by byte into a string of its
    /// length (every answer carries it; interpolation and appends cost more than the cached answer).
    static func serverTiming(micros: UInt64) -> String {
        let prefix: StaticString = "app;dur="
        let whole = micros / 1_000, fraction = micros % 1_000
        var digits = 1
        var rest = whole
        while rest >= 10 { rest /= 10; digits += 1 }
        let length = prefix.utf8CodeUnitCount + digits + 4
        return String(unsafeUninitializedCapacity: length) { buffer in
            prefix.withUTF8Buffer { _ = buffer.initialize(from: $0) }
            var value = whole
            for at in stride(from: prefix.utf8CodeUnitCount + digits - 1, through: prefix.utf8CodeUnitCount, by: -1) {
                buffer[at] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            buffer[length - 4] = UInt8(ascii: ".")
            buffer[length - 3] = UInt8(ascii: "0") + UInt8(fraction / 100)
            buffer[length - 2] = UInt8(ascii: "0") + UInt8(fraction / 10 % 10)
            buffer[length - 1] = UInt8(ascii: "0") + UInt8(fraction % 10)
            return length
        }
    }

    /// The endpoint's answer to a request that passed the front door.
    private func answer(_ endpoint: APIEndpoint, _ request: HTTPRequest) -> HTTPResponse {
        if endpoint.family == .map { return map.respond(to: request, endpoint: endpoint) }
        let parameters = RequestParameters(query: request.query)
        let cached: Bool
        switch endpoint.family {
        case .route, .matrix, .tsp, .directions: cached = false  // road-graph answers: the search dominates, requests rarely repeat
        case .map: cached = false  // answered above (`MapEndpoints` keeps its own caches)
        case .autocomplete, .search, .place, .reverse, .migrateAddress: cached = cache.isEnabled
        }
        let cacheKey = cached ? ResponseCache.key(path: endpoint.path, items: request.query.items) : nil
        if let cacheKey, let body = cache.body(for: cacheKey) { return EndpointAnswer(body: body).response }
        do throws(APIError) {
            let answer: EndpointAnswer
            switch endpoint {
            case .autocomplete, .autocompleteV3, .search, .searchV3:
                answer = try autocomplete.respond(parameters, endpoint: endpoint)
            case .place, .placeV3:
                answer = try place.respond(parameters, endpoint: endpoint)
            case .route, .routeV3, .routeV1:
                answer = try route.respond(parameters)
            case .directionsV5:
                answer = try directions.respond(path: request.path, parameters, userAgent: request.headers["User-Agent"])
            case .reverse, .reverseV3:
                answer = try reverse.respond(parameters, endpoint: endpoint)
            case .migrateAddress:
                answer = try migrate.respond(parameters)
            case .matrix, .matrixV4:
                answer = try matrix.respond(parameters)
            case .tsp, .tspV3:
                answer = try tsp.respond(parameters)
            case .mapStyle, .mapTileJSON, .vectorTile, .rasterTile, .glyphs, .sprite:
                return map.respond(to: request, endpoint: endpoint)
            }
            if let cacheKey { cache.store(answer.body, for: cacheKey) }
            return answer.response
        } catch {
            if error.status >= 500 { logFailure(error, request: request) }
            return APIResponses.error(error, for: endpoint)
        }
    }

    /// One line: `vietmap-sim: 500 GET /api/place/v4: <cause>` (the query is left out: it holds the key).
    private func logFailure(_ error: APIError, request: HTTPRequest) {
        errorLog(Self.failureLine(error, method: request.method, path: request.path))
    }

    /// The line ``logFailure`` writes: status, method, path (never the query), code and cause, on one line.
    static func failureLine(_ error: APIError, method: String, path: String) -> String {
        let cause = (error.cause ?? error.message).split(whereSeparator: \.isNewline).joined(separator: " ")
        return "vietmap-sim: \(error.status) \(method.prefix(20)) \(path.prefix(200)): \(error.code): \(cause.prefix(500))"
    }
}
