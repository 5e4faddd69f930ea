/// The URL builders of VietMap's JS SDK (`@vietmap/vietmap-api` 1.1.3, `src/vietmap-api.ts` and the
/// request models in `src/models/`), re-enacted: every function returns the target axios would send.
///
/// How axios serialises `params` (a request-model instance): the instance's own properties in the
/// order its constructor assigns them, `undefined`/`null` dropped, empty strings kept; keys and values
/// through `encodeURIComponent`, then `:` `$` `,` restored and `%20` turned into `+`. Numbers print as
/// JavaScript's `String(n)`. Route and tsp write `api-version` and the points into the path by hand.
/// See docs/sdk-operations.md.
enum JSSDKRequests {
    /// `search` → `/api/search/v3`: `text`, `apikey`, and always `focus` (empty when none).
    static func search(text: String, apikey: String, focus: (Double, Double)? = nil) -> SDKRequest {
        request("search", "/api/search/v3", searchRequest(text: text, apikey: apikey, focus: focus))
    }

    /// `autoCompleteSearch` → `/api/autocomplete/v3`, the same `SearchRequest` as `search`.
    static func autoCompleteSearch(text: String, apikey: String, focus: (Double, Double)? = nil) -> SDKRequest {
        request("autoCompleteSearch", "/api/autocomplete/v3", searchRequest(text: text, apikey: apikey, focus: focus))
    }

    /// The optional fields of `SearchRequestV4` (camelCase, as the SDK sends them).
    struct SearchV4Options: Sendable {
        /// `SearchDisplayType`: 1, 2, 4 (the SDK's "as input"), 5, 6.
        var displayType: Int?
        var layers: String?
        /// Typed as one number by the SDK (`circleCenter=10.7769`).
        var circleCenter: Double?
        var circleRadius: Double?
        var cats: String?
        var cityId: Int?
        var wardId: Int?
        var distId: Int?
    }

    /// `searchV4` → `/api/search/v4`.
    static func searchV4(text: String, apikey: String, focus: (Double, Double)? = nil,
                         _ options: SearchV4Options = .init()) -> SDKRequest {
        request("searchV4", "/api/search/v4", searchRequestV4(text: text, apikey: apikey, focus: focus, options))
    }

    /// `autoCompleteSearchV4` → `/api/autocomplete/v4`.
    static func autoCompleteSearchV4(text: String, apikey: String, focus: (Double, Double)? = nil,
                                     _ options: SearchV4Options = .init()) -> SDKRequest {
        request("autoCompleteSearchV4", "/api/autocomplete/v4", searchRequestV4(text: text, apikey: apikey, focus: focus, options))
    }

    /// `place` → `/api/place/v3?refId=…&apikey=…` (camelCase `refId`).
    static func place(refId: String, apikey: String) -> SDKRequest {
        request("place", "/api/place/v3", [("refId", refId), ("apikey", apikey)])
    }

    /// `placeV4` → `/api/place/v4?refId=…&apikey=…`.
    static func placeV4(refId: String, apikey: String) -> SDKRequest {
        request("placeV4", "/api/place/v4", [("refId", refId), ("apikey", apikey)])
    }

    /// `reverse` → `/api/reverse/v3?lat=…&lng=…&apikey=…` (a literal params object).
    static func reverse(latitude: Double, longitude: Double, apikey: String) -> SDKRequest {
        request("reverse", "/api/reverse/v3", [("lat", number(latitude)), ("lng", number(longitude)), ("apikey", apikey)])
    }

    /// `reverseV4` → `/api/reverse/v4`: a `ReverseRequestV4`, whose parent class stores the
    /// coordinates as `latitude`/`longitude` — so they go out twice; `displayType` camelCase.
    static func reverseV4(lat: Double, lng: Double, apikey: String, displayType: Int? = nil) -> SDKRequest {
        request("reverseV4", "/api/reverse/v4", [
            ("latitude", number(lat)), ("longitude", number(lng)), ("apikey", apikey),
            ("displayType", displayType.map(String.init)), ("lat", number(lat)), ("lng", number(lng)),
        ])
    }

    /// A `RouteRequest` (constructor defaults: `points_encoded` true, `vehicle` car, `optimize` false).
    struct RouteOptions: Sendable {
        var apikey: String
        var pointsEncoded = true
        /// `car`, `bike`, `foot`, `motorcycle`.
        var vehicle = "car"
        var optimize = false
    }

    /// `route(points, inputs)` → `/api/route?api-version=1.1&point=lat,lng…` then the request's
    /// `apikey`, `optimize`, `vehicle`, `points_encoded`; without `inputs` nothing follows the points.
    static func route(points: [(Double, Double)], _ inputs: RouteOptions?) -> SDKRequest {
        let params: [(String, String?)] = inputs.map {
            [("apikey", $0.apikey), ("optimize", String($0.optimize)), ("vehicle", $0.vehicle),
             ("points_encoded", String($0.pointsEncoded))]
        } ?? []
        return request("route", "/api/route?api-version=1.1" + pointParams(points), params)
    }

    /// A `TSPRequest` (defaults: `points_encoded` true, `vehicle` car, `optimize` false, `round_trip` true).
    struct TSPOptions: Sendable {
        var apikey: String
        var pointsEncoded = true
        /// `car`, `motorcycle`, `bike`, `foot`, `truck`.
        var vehicle = "car"
        var optimize = false
        var roundTrip = true
    }

    /// `tsp(points, inputs)` → `/api/tsp?api-version=1.1&point=…` then `round_trip`, `apikey`,
    /// `optimize`, `vehicle`, `points_encoded` (the constructor's assignment order).
    static func tsp(points: [(Double, Double)], _ inputs: TSPOptions?) -> SDKRequest {
        let params: [(String, String?)] = inputs.map {
            [("round_trip", String($0.roundTrip)), ("apikey", $0.apikey), ("optimize", String($0.optimize)),
             ("vehicle", $0.vehicle), ("points_encoded", String($0.pointsEncoded))]
        } ?? []
        return request("tsp", "/api/tsp?api-version=1.1" + pointParams(points), params)
    }

    /// `migrateAddress` → `/api/migrate-address/v3`: `apikey`, `text`, `focus` and `migrate_type`
    /// only when given (the SDK requires `focus` for `migrate_type` 2 before sending).
    static func migrateAddress(text: String, apikey: String, focus: (Double, Double)? = nil, migrateType: Int? = nil) -> SDKRequest {
        request("migrateAddress", "/api/migrate-address/v3", [
            ("apikey", apikey), ("text", text), ("focus", focus.map(latLng)), ("migrate_type", migrateType.map(String.init)),
        ])
    }

    // MARK: - The SDK's request models and axios' serialisation

    /// `SearchRequest`: `focus` is `"lat,lng"` or the empty string, never absent.
    private static func searchRequest(text: String, apikey: String, focus: (Double, Double)?) -> [(String, String?)] {
        [("text", text), ("apikey", apikey), ("focus", focus.map(latLng) ?? "")]
    }

    /// `SearchRequestV4`: the parent's three fields, then the V4 fields in assignment order.
    private static func searchRequestV4(text: String, apikey: String, focus: (Double, Double)?,
                                        _ o: SearchV4Options) -> [(String, String?)] {
        searchRequest(text: text, apikey: apikey, focus: focus) + [
            ("displayType", o.displayType.map(String.init)), ("layers", o.layers),
            ("circleCenter", o.circleCenter.map(number)), ("circleRadius", o.circleRadius.map(number)),
            ("cats", o.cats), ("cityId", o.cityId.map(String.init)), ("wardId", o.wardId.map(String.init)),
            ("distId", o.distId.map(String.init)),
        ]
    }

    /// `convertPointsToUrlParams`: `&point=lat,lng` per point, written into the path unencoded.
    private static func pointParams(_ points: [(Double, Double)]) -> String {
        points.map { "&point=\(latLng($0))" }.joined()
    }

    private static func latLng(_ point: (Double, Double)) -> String { "\(number(point.0)),\(number(point.1))" }

    /// JavaScript's `String(n)` for the coordinates and radii the SDK sends: shortest round-trip
    /// digits, integral values without a fraction (`106`, not `106.0`).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// axios' `buildURL`: drop nil values, append with `?` or `&`, encode keys and values.
    private static func request(_ operation: String, _ path: String, _ params: [(String, String?)]) -> SDKRequest {
        let query = params.compactMap { key, value in value.map { "\(encode(key))=\(encode($0))" } }.joined(separator: "&")
        let target = query.isEmpty ? path : path + (path.contains("?") ? "&" : "?") + query
        return SDKRequest(sdk: "JS", operation: operation, target: target)
    }

    /// `encodeURIComponent`, then `%3A`→`:`, `%24`→`$`, `%2C`→`,`, `%20`→`+` (axios' `encode`).
    static func encode(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: "-_.!~*'():$,", spaceAsPlus: true)
    }
}
