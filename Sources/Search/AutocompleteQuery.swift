/// The `layers` values VietMap documents for autocomplete.
public enum SearchLayer: String, Sendable, CaseIterable {
    case poi = "POI", address = "ADDRESS", village = "VILLAGE", ward = "WARD", district = "DIST",
         city = "CITY", street = "STREET", building = "BUILDING"
}

/// A circular search area.
public struct SearchCircle: Sendable, Equatable {
    public var center: Coordinate
    public var radiusMeters: Double
    public init(center: Coordinate, radiusMeters: Double) {
        self.center = center
        self.radiusMeters = radiusMeters
    }
}

/// An autocomplete request in domain terms (no HTTP, no JSON).
public struct AutocompleteQuery: Sendable {
    public var text: String
    public var focus: Coordinate?
    /// The format of the answer: admin units of the other scheme are not candidates.
    public var format: AddressFormat
    /// Province filter: matches the place's new or old province code.
    public var cityId: Int?
    /// Old-scheme district filter.
    public var districtId: Int?
    /// Ward filter: matches the place's new or old ward code.
    public var wardId: Int?
    public var circle: SearchCircle?
    /// Category codes; a place matches if it has any of them.
    public var categories: [String]
    /// Empty means every layer.
    public var layers: Set<SearchLayer>
    public var limit: Int
    /// Forward geocoding (`search/v4`): the last word is a whole word, not a prefix being typed.
    public var wholeWords: Bool = false

    public init(text: String, focus: Coordinate? = nil, format: AddressFormat = .new, cityId: Int? = nil,
                districtId: Int? = nil, wardId: Int? = nil, circle: SearchCircle? = nil,
                categories: [String] = [], layers: Set<SearchLayer> = [], limit: Int = 10) {
        self.text = text
        self.focus = focus
        self.format = format
        self.cityId = cityId
        self.districtId = districtId
        self.wardId = wardId
        self.circle = circle
        self.categories = categories
        self.layers = layers
        self.limit = limit
    }
}

/// One ranked autocomplete answer.
public struct SearchResult: Sendable {
    public var place: PlaceRecord
    /// Metres from the query's focus, `nil` without a focus.
    public var distanceMeters: Double?
    public var score: Double
}
