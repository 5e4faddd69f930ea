import VietMapWire
import JSON
import Search

/// `GET /api/reverse/v4` and `/api/reverse/v3`: `lat`, `lng` → a bare JSON array of the places
/// nearest the point (``ReverseGeocoder``), at most ``maxResults`` places.
///
/// display_type (v4): 1 new format, 2 old, 4 two items per place (new, then old), 5 new with the
/// old item in `data_old`, 6 old with the new item in `data_new`. Omitted: 2 — the simulator's
/// choice: VietMap's Flutter SDK documents old format as the default behaviour, and the REV4
/// doc example shows old-format names. v3 is old format only, in the v3 model's nine keys.
/// An empty array only far from every Vietnamese ward (see ``ReverseGeocoder``).
struct ReverseEndpoint {
    let search: PlaceSearch
    let renderer: PlaceRenderer

    /// The REV3 doc: "a list that contains up to 10 places".
    static let maxResults = 10

    enum DisplayType: Int {
        case new = 1, old = 2, both = 4, newWithOld = 5, oldWithNew = 6
    }
    static let defaultDisplayType = DisplayType.old

    /// `endpoint`: `.reverse` (v4) or `.reverseV3` (old format, the v3 keys, no `display_type`).
    func respond(_ parameters: RequestParameters, endpoint: APIEndpoint = .reverse) throws(APIError) -> EndpointAnswer {
        let point = Coordinate(lat: try Self.degrees(parameters, .lat, limit: 90), lng: try Self.degrees(parameters, .lng, limit: 180))
        var displayType = Self.defaultDisplayType
        if !endpoint.isVersion3, let raw = try parameters.integer(.displayType) {
            guard let value = DisplayType(rawValue: raw) else {
                throw .invalidRequest("parameter 'display_type' must be one of 1, 2, 4, 5, 6, got \(raw)")
            }
            displayType = value
        }
        let results = search.geocoder.reverse(ReverseQuery(point: point, limit: Self.maxResults))
        if endpoint.isVersion3 { return EndpointAnswer(body: renderer.reverseItemsV3(results, query: point)) }
        let format: AddressFormat = displayType == .new || displayType == .newWithOld || displayType == .both ? .new : .old
        return EndpointAnswer(body: renderer.reverseItems(results, query: point, format: format,
                                                          withVariant: displayType == .newWithOld || displayType == .oldWithNew,
                                                          bothAsItems: displayType == .both))
    }

    /// A required coordinate parameter within ±`limit` degrees.
    static func degrees(_ parameters: RequestParameters, _ parameter: APIParameter, limit: Double) throws(APIError) -> Double {
        _ = try parameters.required(parameter)
        guard let value = try parameters.number(parameter), abs(value) <= limit else {
            throw .invalidRequest("parameter '\(parameter.name)' must be a number of degrees between -\(Int(limit)) and \(Int(limit))")
        }
        return value
    }
}
