import VietMapWire
import Foundation
import JSON
import Search
import TextFolding

/// `GET /api/autocomplete/v4` and its siblings: parameters → `AutocompleteQuery` → a bare JSON
/// array of at most 10 items.
/// - `search/v4` (forward geocoding): the same readings and ranking, whole words (the last one is
///   no typing prefix), `geocode:` ids;
/// - `autocomplete/v3`, `search/v3`: old-format addresses (v3 predates the 2025 units), `vm:` ids,
///   the v3 item keys; `display_type` is not read.
struct AutocompleteEndpoint {
    let search: PlaceSearch
    let renderer: PlaceRenderer

    /// At most this many `cats` codes (each a filter term in the search query; live codes look
    /// like `1002-1`, and an app sends a handful).
    static let maxCategories = 50
    /// At most this many characters in one category code.
    static let maxCategoryLength = 32
    /// At most this many `layers` (there are 8 distinct layers).
    static let maxLayers = SearchLayer.allCases.count

    /// `display_type` values defined for autocomplete (4 exists only for reverse).
    enum DisplayType: Int {
        case new = 1, old = 2, asInput = 3, newWithOld = 5, oldWithNew = 6

        /// The JS SDK's `AS_INPUT_FORMAT` is 4 (its own comment and the docs say 3): read 4 as 3
        /// (docs/api.md, "SDK quirks").
        init?(sent raw: Int) {
            self.init(rawValue: raw == 4 ? 3 : raw)
        }
    }

    func respond(_ parameters: RequestParameters, endpoint: APIEndpoint = .autocomplete) throws(APIError) -> EndpointAnswer {
        let text = try parameters.required(.text)
        let displayType: DisplayType
        if endpoint.isVersion3 {
            displayType = .old
        } else if let raw = try parameters.integer(.displayType) {
            guard let value = DisplayType(sent: raw) else {
                throw .invalidRequest("parameter 'display_type' must be one of 1, 2, 3, 5, 6 (4 is read as 3), got \(raw)")
            }
            displayType = value
        } else {
            displayType = .new
        }
        let format: AddressFormat
        switch displayType {
        case .new, .newWithOld: format = .new
        case .old, .oldWithNew: format = .old
        case .asInput: format = Self.formatOfInput(text)
        }

        var circle: SearchCircle?
        // The JS SDK types `circleCenter` as one number and sends e.g. `circleCenter=10.7769`: no
        // centre can be read from that, so the circle is ignored (docs/api.md, "SDK quirks").
        let sentOneNumber = parameters.string(.circleCenter).map { Double(RequestParameters.trimmed($0)) != nil } ?? false
        let center = sentOneNumber ? nil : try parameters.coordinate(.circleCenter)
        let radius = sentOneNumber ? nil : try parameters.number(.circleRadius)
        switch (center, radius) {
        case (nil, nil): break
        case let (c?, r?):
            guard r > 0 else { throw .invalidRequest("parameter 'circle_radius' must be a positive number of metres") }
            circle = SearchCircle(center: c, radiusMeters: r)
        default: throw .invalidRequest("'circle_center' and 'circle_radius' must be given together")
        }

        var layers = Set<SearchLayer>()
        for name in try parameters.list(.layers, limit: Self.maxLayers, noun: "layers") {
            let trimmed = name.uppercased()
            guard let layer = SearchLayer(rawValue: trimmed) else {
                throw .invalidRequest("unknown layer '\(trimmed.prefix(40))'; expected one of \(SearchLayer.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            layers.insert(layer)
        }
        let categories = try parameters.list(.cats, limit: Self.maxCategories, noun: "category codes")
        if let long = categories.first(where: { $0.count > Self.maxCategoryLength }) {
            throw .invalidRequest("parameter 'cats': code '\(long.prefix(40))…' is longer than \(Self.maxCategoryLength) characters")
        }
        // Codes look like `6001` or `1002-1`; anything else (`%`, `_`) would act as a pattern in the filter.
        if let odd = categories.first(where: { !$0.unicodeScalars.allSatisfy { ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) || $0 == "-" } }) {
            throw .invalidRequest("parameter 'cats': code '\(odd.prefix(40))' may hold only letters, digits and '-'")
        }

        var query = AutocompleteQuery(
            text: text, focus: try parameters.coordinate(.focus), format: format,
            cityId: try parameters.integer(.cityId), districtId: try parameters.integer(.distId),
            wardId: try parameters.integer(.wardId), circle: circle, categories: categories, layers: layers)
        query.wholeWords = endpoint.family == .search
        let results: [SearchResult]
        do {
            results = try search.autocomplete(query)
        } catch {
            throw APIError.internalFailure(error)
        }
        let withVariant = displayType == .newWithOld || displayType == .oldWithNew
        let style: PlaceRenderer.ItemStyle = endpoint.isVersion3 ? .v3 : .v4(ids: endpoint.family == .search ? .geocode : .autocomplete)
        return EndpointAnswer(body: renderer.searchItems(results, format: format, withVariant: withVariant, style: style))
    }

    /// display_type=3: old format when the text names a pre-2025 unit ("Quận 5", "Phường 4",
    /// "Huyện Củ Chi", "Q.1", "P4"), new format otherwise.
    static func formatOfInput(_ text: String) -> AddressFormat {
        let folded = " " + TextFolding.fold(text) + " "
        let patterns = [#" (quan|huyen|thi xa) "#, #" (quan|q|phuong|p) ?[0-9]+ "#]
        for pattern in patterns where folded.range(of: pattern, options: .regularExpression) != nil {
            return .old
        }
        return .new
    }
}
