/// Every VietMap REST endpoint the simulator answers: the one list of the wire protocol.
///
/// The API layer, scenarios, capture/replay, HAR import, the journal and dashboard, the client
/// library and the contracts all name endpoints with this type, so adding one is one case here —
/// the compiler then walks through every `switch` that must handle it.
///
/// The raw value is the endpoint's stable *name*: what scenario files (`"endpoint": "route-v3"`),
/// the journal filter, the query corpus and recordings write. A scenario may also name a
/// `family` (`"route"` matches all three route paths).
public enum APIEndpoint: String, Sendable, CaseIterable, Codable, Hashable {
    case autocomplete
    case autocompleteV3 = "autocomplete-v3"
    case search
    case searchV3 = "search-v3"
    case place
    case placeV3 = "place-v3"
    case reverse
    case reverseV3 = "reverse-v3"
    case route
    case routeV3 = "route-v3"
    /// The documented legacy route URL, `/api/route?api-version=1.1` (both SDKs call it).
    case routeV1 = "route-1.1"
    case matrix
    case matrixV4 = "matrix-v4"
    case tsp
    case tspV3 = "tsp-v3"
    case migrateAddress = "migrate-address"
    /// Directions v5 of VietMap's navigation SDKs (forks of Mapbox Navigation):
    /// `/api/navigations/route/directions/v5/{profile}/{lng,lat;…}.json`, Mapbox-shaped answers.
    case directionsV5 = "directions-v5"
    // The map family (reference map-screens §2): every URL generation of one resource is one
    // endpoint; `MapPath` reads the request data its path carries into a `MapRequest`.
    /// A MapLibre style document (S1 `/api/maps/{name}/styles.json`, S2 `/maps/styles/{look}/style.json`, S4 `/mt/{look}/style.json`).
    case mapStyle = "map-style"
    /// A TileJSON (S3 `/maps/styles/{look}/tiles.json`, X1 `/api/terrain-tiles/tiles.json`).
    case mapTileJSON = "map-tilejson"
    /// A Mapbox vector tile (V1/V2 `/api/maps/data/{dataset}/{z}/{x}/{y}[.pbf]`).
    case vectorTile = "vector-tile"
    /// A PNG raster tile (R1–R4: `/api/{look}/{z}/{x}/{y}[@2x][.png]` and its older spellings).
    case rasterTile = "raster-tile"
    /// A glyph range PBF (G1–G3: `/mt/fonts/{fontstack}/{range}.pbf`); no key.
    case glyphs
    /// A sprite index or atlas (P1–P2: `/mt/styles/{look}/sprite[@2x].{json,png}`); no key.
    case sprite

    /// The request path (no trailing `/`); for Directions v5 the fixed part the profile and the
    /// coordinates follow (`DirectionsPath` reads them); for the map endpoints the empty string —
    /// their URL generations share no prefix, so the whole path is request data (`MapPath` reads
    /// it) and `path + suffix` stays the request path wherever a path is split so (recordings,
    /// forwarding).
    public var path: String {
        switch self {
        case .autocomplete: return "/api/autocomplete/v4"
        case .autocompleteV3: return "/api/autocomplete/v3"
        case .search: return "/api/search/v4"
        case .searchV3: return "/api/search/v3"
        case .place: return "/api/place/v4"
        case .placeV3: return "/api/place/v3"
        case .reverse: return "/api/reverse/v4"
        case .reverseV3: return "/api/reverse/v3"
        case .route: return "/api/route/v4"
        case .routeV3: return "/api/route/v3"
        case .routeV1: return "/api/route"
        case .matrix: return "/api/matrix"
        case .matrixV4: return "/api/matrix/v4"
        case .tsp: return "/api/tsp"
        case .tspV3: return "/api/tsp/v3"
        case .migrateAddress: return "/api/migrate-address/v3"
        case .directionsV5: return "/api/navigations/route/directions/v5"
        case .mapStyle, .mapTileJSON, .vectorTile, .rasterTile, .glyphs, .sprite: return ""
        }
    }

    /// Whether the path goes on past `path` with request data (Directions v5: profile and
    /// coordinates; the map endpoints: look, dataset, z/x/y, font stack, range, scale…).
    public var takesPathSegments: Bool { self == .directionsV5 || family == .map }

    /// The path as the OpenAPI document writes it: `path`, with templated segments where
    /// `takesPathSegments` (the profile is `mapbox/{profile}`: a path parameter cannot hold a `/`).
    public var documentedPath: String {
        switch self {
        case .directionsV5: return path + "/mapbox/{profile}/{coordinates}.json"
        // The map endpoints: the generation the simulator's own styles name (`MapURLs`).
        case .mapStyle: return "/api/maps/{style}/styles.json"
        case .mapTileJSON: return "/maps/styles/{look}/tiles.json"
        case .vectorTile: return "/api/maps/data/{dataset}/{z}/{x}/{y}.pbf"
        case .rasterTile: return "/api/{look}/{z}/{x}/{y}@2x.png"
        case .glyphs: return "/mt/fonts/{fontstack}/{range}.pbf"
        case .sprite: return "/mt/styles/{look}/sprite{ratio}.{format}"
        default: return path
        }
    }

    /// Whether a request must present a valid key (`APIKeyPolicy`). Glyphs and sprites need
    /// none: VietMap's styles name them without a key, so a key sent there is ignored.
    public var requiresKey: Bool { self != .glyphs && self != .sprite }

    /// Why the contract suite (the corpus of `Contracts/queries.json`, run by `vietmap-sim contract`
    /// against the simulator and the live service, model agreement, JUnit cases) leaves this endpoint
    /// out, nil for the endpoints it covers. The map resources are still documented in
    /// `Contracts/openapi.json` (schemathesis runs them), the JSON ones with loose schemas.
    public var contractExclusion: String? {
        switch self {
        case .vectorTile, .rasterTile, .glyphs:
            return "binary answer (MVT, PNG or glyph PBF): openapi.json gives its media type, no JSON schema applies"
        case .sprite:
            return "the PNG atlas is binary; the JSON index (MapLibre's sprite spec) is in openapi.json (schemas/sprite-index), outside the corpus"
        case .mapStyle, .mapTileJSON:
            return "MapLibre's style and TileJSON formats, not VietMap's JSON: in openapi.json (schemas/map-style, schemas/tilejson), "
                + "outside the corpus: no reference-client model decodes them, and their inner URLs name the caller's own host"
        default:
            return nil
        }
    }

    /// The endpoints by fixed path, for `init(path:)` (map endpoints are `MapPath`'s).
    private static let byPath: [String: APIEndpoint] = Dictionary(uniqueKeysWithValues: allCases.filter { $0.family != .map }.map { ($0.path, $0) })

    /// The endpoint a request path names; a trailing `/` is ignored. Nil for any other path.
    public init?(path: String) {
        // The path as sent is looked up as is; only a trailing `/` costs a copy.
        if let found = Self.byPath[path] { self = found; return }
        if path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/"), let found = Self.byPath[String(path.dropLast())] {
            self = found
            return
        }
        // Paths that carry request data in further segments.
        let v5 = APIEndpoint.directionsV5.path
        if path.hasPrefix(v5), path.utf8.count > v5.utf8.count + 1,
           path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: v5.utf8.count)] == UInt8(ascii: "/") {
            self = .directionsV5
            return
        }
        // Map resources: recognised by their shape, even when their values are bad (a 400 later). A vector tile's
        // shape is told apart first, without reading the whole path (the most frequent map request).
        if MapPath.hasVectorTileShape(path) { self = .vectorTile; return }
        guard let map = MapPath(path: path) else { return nil }
        self = map.endpoint
    }

    /// The endpoint of a name (`route-v3`) or, for recordings written before names existed, of a path.
    public init?(nameOrPath text: String) {
        if let named = APIEndpoint(rawValue: text) { self = named; return }
        self.init(path: text)
    }

    /// The stable name (the raw value).
    public var name: String { rawValue }

    /// What the endpoint does; versions of one endpoint share a family.
    public var family: APIFamily {
        switch self {
        case .autocomplete, .autocompleteV3: return .autocomplete
        case .search, .searchV3: return .search
        case .place, .placeV3: return .place
        case .reverse, .reverseV3: return .reverse
        case .route, .routeV3, .routeV1: return .route
        case .matrix, .matrixV4: return .matrix
        case .tsp, .tspV3: return .tsp
        case .migrateAddress: return .migrateAddress
        case .directionsV5: return .directions
        case .mapStyle, .mapTileJSON, .vectorTile, .rasterTile, .glyphs, .sprite: return .map
        }
    }

    /// The shape of this endpoint's error bodies.
    public var errorEnvelope: ErrorEnvelope { family.errorEnvelope }

    /// The `api-version` value a legacy URL carries (`/api/route?api-version=1.1`), nil for
    /// versioned paths. Absent is accepted; any other value is a 400.
    public var apiVersion: String? {
        switch self {
        case .routeV1, .matrix, .tsp: return "1.1"
        default: return nil
        }
    }

    /// Whether a v3-era answer shape applies: old-format addresses, `vm:` ids.
    public var isVersion3: Bool {
        switch self {
        case .autocompleteV3, .searchV3, .placeV3, .reverseV3, .routeV3, .tspV3, .migrateAddress: return true
        default: return false
        }
    }

    /// The methods every endpoint answers (`Allow` of a 405).
    public static let allowedMethods = "GET, HEAD, OPTIONS"

    /// The endpoints a scenario's `endpoint` word names: a family name (`route`: every route
    /// path; `map`: every map resource), a group (`tiles`: vector and raster tiles), an endpoint
    /// name (`route-v3`), or nil for an unknown word.
    public static func named(_ word: String) -> Set<APIEndpoint>? {
        if let family = APIFamily(rawValue: word) { return Set(allCases.filter { $0.family == family }) }
        if let group = groups[word] { return group }
        if let endpoint = APIEndpoint(rawValue: word) { return [endpoint] }
        return nil
    }

    /// Words naming endpoints across or within families: `tiles` (vector and raster tiles).
    public static let groups: [String: Set<APIEndpoint>] = ["tiles": [.vectorTile, .rasterTile]]

    /// Every word `named(_:)` accepts, families first, then groups (for messages).
    public static let words: [String] = APIFamily.allCases.map(\.rawValue) + groups.keys.sorted()
        + allCases.map(\.rawValue).filter { APIFamily(rawValue: $0) == nil && groups[$0] == nil }
}

/// A group of endpoints that answer the same question in different versions.
public enum APIFamily: String, Sendable, CaseIterable, Hashable {
    case autocomplete
    case search
    case place
    case reverse
    case route
    case matrix
    case tsp
    case migrateAddress = "migrate-address"
    /// Mapbox Directions v5 of the navigation SDKs.
    case directions
    /// What MapLibre map screens load: styles, TileJSON, vector and raster tiles, glyphs, sprites.
    case map

    /// Error bodies of the family: routes and TSP in the route envelope, the matrix in its own,
    /// the geocoding endpoints as `{"code","message"}`, Directions v5 as Mapbox's `{"code","message"}`,
    /// the map resources as VietMap's `{"code","message"}` (MapLibre reads only the status of a failure).
    public var errorEnvelope: ErrorEnvelope {
        switch self {
        case .route, .tsp: return .route
        case .matrix: return .matrix
        case .autocomplete, .search, .place, .reverse, .migrateAddress, .map: return .codeMessage
        case .directions: return .mapbox
        }
    }
}
