import Foundation

/// The URL builders of VietMap's Flutter plugin (`vietmap_flutter_plugin` 0.5.2,
/// `VietmapApiRepositories` and the `*Params` entities), re-enacted: every function returns the
/// target dio would send below the hard-coded base `https://maps.vietmap.vn/api/`.
///
/// Two ways of building a query:
/// - `queryParameters` maps (insertion order, `apikey` first): dio encodes keys and *string* values
///   with Dart's `Uri.encodeComponent` (`,` → `%2C`, space → `%20`); other values (the reverse
///   `lat`/`lng` doubles, `display_type` int) are written with `toString()`.
/// - route and matrix print a Dart `Map` (`{a: 1, b: x}`), drop `{` `}` and spaces, turn **every**
///   `,` into `&` and **every** `:` into `=` (the API key included), then append `&point=lat,lng`.
/// Dart prints doubles shortest round-trip with `.0` for integral values (`106.0`).
/// See docs/sdk-operations.md.
enum FlutterRequests {
    /// The optional fields of `VietmapAutocompleteParamsV4`.
    struct AutocompleteV4Options: Sendable {
        var focus: (Double, Double)?
        /// `AutocompleteDisplayEnum`: 1, 2, 3, 5, 6.
        var displayType: Int?
        var cityId: Int?
        var distId: Int?
        var wardId: Int?
        var circleCenter: (Double, Double)?
        var circleRadius: Int?
        var cats: String?
        var layers: String?
    }

    /// `Vietmap.autocompleteV4` → `/api/autocomplete/v4`.
    static func autocompleteV4(text: String, apikey: String, _ options: AutocompleteV4Options = .init()) -> SDKRequest {
        queryRequest("autocompleteV4", "autocomplete/v4", [("apikey", .string(apikey))] + autocompleteV4Params(text: text, options))
    }

    /// `Vietmap.geoCodeV4` → `/api/search/v4` (an empty text returns `[]` without a request).
    static func geoCodeV4(text: String, apikey: String, _ options: AutocompleteV4Options = .init()) -> SDKRequest {
        queryRequest("geoCodeV4", "search/v4", [("apikey", .string(apikey))] + autocompleteV4Params(text: text, options))
    }

    /// `Vietmap.autocomplete` (deprecated) → `/api/autocomplete/v3`: `apikey`, `text`, `focus` when given.
    static func autocomplete(text: String, apikey: String, focus: (Double, Double)? = nil) -> SDKRequest {
        queryRequest("autocomplete", "autocomplete/v3", v3Params(text: text, apikey: apikey, focus: focus))
    }

    /// `Vietmap.geoCode` (deprecated) → also `/api/autocomplete/v3`, not search/v3.
    static func geoCode(text: String, apikey: String, focus: (Double, Double)? = nil) -> SDKRequest {
        queryRequest("geoCode", "autocomplete/v3", v3Params(text: text, apikey: apikey, focus: focus))
    }

    /// `Vietmap.placeV4` → `/api/place/v4?apikey=…&refid=…` (lower-case `refid`).
    static func placeV4(refId: String, apikey: String) -> SDKRequest {
        queryRequest("placeV4", "place/v4", [("apikey", .string(apikey)), ("refid", .string(refId))])
    }

    /// `Vietmap.place` (deprecated) → `/api/place/v3?apikey=…&refid=…`.
    static func place(placeId: String, apikey: String) -> SDKRequest {
        queryRequest("place", "place/v3", [("apikey", .string(apikey)), ("refid", .string(placeId))])
    }

    /// `Vietmap.reverseV4` → `/api/reverse/v4`; `VietmapReverseParams.displayType` defaults to 6
    /// (`bothOldAndNew`) and is left out only when the caller passes nil.
    static func reverseV4(lat: Double, lng: Double, apikey: String, displayType: Int? = 6) -> SDKRequest {
        queryRequest("reverseV4", "reverse/v4", [
            ("apikey", .string(apikey)), ("lat", .other(dartDouble(lat))), ("lng", .other(dartDouble(lng))),
        ] + (displayType.map { [("display_type", .other(String($0)))] } ?? []))
    }

    /// `Vietmap.reverse` (deprecated) → `/api/reverse/v3?apikey=…&lat=…&lng=…`.
    static func reverse(lat: Double, lng: Double, apikey: String) -> SDKRequest {
        queryRequest("reverse", "reverse/v3", [
            ("apikey", .string(apikey)), ("lat", .other(dartDouble(lat))), ("lng", .other(dartDouble(lng))),
        ])
    }

    /// `Vietmap.routing` → `/api/route?api-version=1.1&apikey=…&vehicle=…&optimize=…&point=lat,lng…`,
    /// through the `:`→`=` string trick. (The SDK throws before sending with fewer than 2 points.)
    static func routing(points: [(Double, Double)], apikey: String, vehicle: String = "car", optimize: Bool = false) -> SDKRequest {
        let map = printedMap([("api-version", "1.1"), ("apikey", apikey), ("vehicle", vehicle), ("optimize", String(optimize))])
        return SDKRequest(sdk: "Flutter", operation: "routing", target: "/api/route?" + convertJsonToUrlPath(map) + pointParams(points))
    }

    /// `Vietmap.matrix` → `/api/matrix?apikey=…&api-version=1.1&sources=0;1&destinations=…&point=…`
    /// (indices joined by `;`; no `vehicle`, no `annotation`).
    static func matrix(points: [(Double, Double)], apikey: String, sources: [Int], destinations: [Int],
                       apiVersion: String = "1.1") -> SDKRequest {
        let map = printedMap([
            ("apikey", apikey), ("api-version", apiVersion),
            ("sources", sources.map(String.init).joined(separator: ";")),
            ("destinations", destinations.map(String.init).joined(separator: ";")),
        ])
        return SDKRequest(sdk: "Flutter", operation: "matrix", target: "/api/matrix?" + convertJsonToUrlPath(map) + pointParams(points))
    }

    /// `Vietmap.migrateAddress` → `/api/migrate-address/v3`: `apikey`, `text`, then `focus` and
    /// `migrate_type` when given.
    static func migrateAddress(text: String, apikey: String, focus: (Double, Double)? = nil, migrateType: Int? = nil) -> SDKRequest {
        var params: [(String, QueryValue)] = [("apikey", .string(apikey)), ("text", .string(text))]
        if let focus { params.append(("focus", .string(urlValue(focus)))) }
        if let migrateType { params.append(("migrate_type", .string(String(migrateType)))) }
        return queryRequest("migrateAddress", "migrate-address/v3", params)
    }

    // MARK: - The plugin's helpers and dio's serialisation

    /// A `queryParameters` value: strings are percent-encoded by dio, anything else printed as is.
    enum QueryValue {
        case string(String)
        case other(String)
    }

    /// `VietmapAutocompleteParamsV4.toQueryParam` (all values already strings).
    private static func autocompleteV4Params(text: String, _ o: AutocompleteV4Options) -> [(String, QueryValue)] {
        var params: [(String, QueryValue)] = [("text", .string(text))]
        if let focus = o.focus { params.append(("focus", .string(urlValue(focus)))) }
        if let v = o.displayType { params.append(("display_type", .string(String(v)))) }
        if let v = o.cityId { params.append(("cityId", .string(String(v)))) }
        if let v = o.distId { params.append(("distId", .string(String(v)))) }
        if let v = o.wardId { params.append(("wardId", .string(String(v)))) }
        if let v = o.circleCenter { params.append(("circle_center", .string(urlValue(v)))) }
        if let v = o.circleRadius { params.append(("circle_radius", .string(String(v)))) }
        if let v = o.cats { params.append(("cats", .string(v))) }
        if let v = o.layers { params.append(("layers", .string(v))) }
        return params
    }

    private static func v3Params(text: String, apikey: String, focus: (Double, Double)?) -> [(String, QueryValue)] {
        [("apikey", .string(apikey)), ("text", .string(text))] + (focus.map { [("focus", .string(urlValue($0)))] } ?? [])
    }

    /// `LatLngExtension.toUrlValue`: `"$latitude,$longitude"`.
    static func urlValue(_ point: (Double, Double)) -> String { "\(dartDouble(point.0)),\(dartDouble(point.1))" }

    private static func pointParams(_ points: [(Double, Double)]) -> String {
        points.map { "&point=\(urlValue($0))" }.joined()
    }

    /// Dart's `double.toString()` for coordinates: shortest round-trip, `.0` on integral values —
    /// what Swift's `description` prints in this range.
    static func dartDouble(_ value: Double) -> String { "\(value)" }

    /// Dart's `Map.toString()`: `{key: value, key: value}`.
    static func printedMap(_ entries: [(String, String)]) -> String {
        "{" + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// `StringExtension.convertJsonToUrlPath`: drop `{` and `}`, every `,` → `&`, every `:` → `=`,
    /// drop spaces — applied to the whole printed map.
    static func convertJsonToUrlPath(_ text: String) -> String {
        text.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
            .replacingOccurrences(of: ",", with: "&").replacingOccurrences(of: ":", with: "=")
            .replacingOccurrences(of: " ", with: "")
    }

    /// dio's `urlEncodeQueryMap`: `key=value` joined by `&`, keys and string values through
    /// `Uri.encodeComponent`.
    private static func queryRequest(_ operation: String, _ path: String, _ params: [(String, QueryValue)]) -> SDKRequest {
        let query = params.map { key, value -> String in
            switch value {
            case .string(let text): return "\(encodeComponent(key))=\(encodeComponent(text))"
            case .other(let text): return "\(encodeComponent(key))=\(text)"
            }
        }.joined(separator: "&")
        return SDKRequest(sdk: "Flutter", operation: operation, target: "/api/\(path)?\(query)")
    }

    /// Dart's `Uri.encodeComponent`: keeps letters, digits and `-_.!~*'()`; space is `%20`.
    static func encodeComponent(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: "-_.!~*'()", spaceAsPlus: false)
    }
}
