/// One query parameter of an endpoint: its documented name, the other spellings the simulator
/// accepts for it (reference §8.5: what VietMap's own SDKs send), and whether it is required.
public struct APIParameter: Sendable, Hashable {
    public let name: String
    /// Other spellings accepted, documented name first in lookups.
    public let aliases: [String]
    public let required: Bool
    /// May appear more than once (`point`).
    public let repeated: Bool

    public init(_ name: String, aliases: [String] = [], required: Bool = false, repeated: Bool = false) {
        self.name = name
        self.aliases = aliases
        self.required = required
        self.repeated = repeated
        spellings = [name] + aliases
    }

    /// The name and every alias, documented name first (stored: parameters are read on every request).
    public let spellings: [String]

    public static let apikey = APIParameter("apikey", required: true)
    public static let text = APIParameter("text", required: true)
    public static let focus = APIParameter("focus")
    /// The JS SDK sends `displayType`.
    public static let displayType = APIParameter("display_type", aliases: ["displayType"])
    public static let cityId = APIParameter("cityId", aliases: ["city_id"])
    public static let distId = APIParameter("distId", aliases: ["dist_id"])
    public static let wardId = APIParameter("wardId", aliases: ["ward_id"])
    /// The JS SDK sends `circleCenter` (one number: see docs/api.md).
    public static let circleCenter = APIParameter("circle_center", aliases: ["circleCenter"])
    public static let circleRadius = APIParameter("circle_radius", aliases: ["circleRadius"])
    public static let cats = APIParameter("cats")
    public static let layers = APIParameter("layers")
    /// The JS SDK sends `refId`.
    public static let refid = APIParameter("refid", aliases: ["refId", "ref_id"], required: true)
    public static let lat = APIParameter("lat", required: true)
    public static let lng = APIParameter("lng", aliases: ["lon"], required: true)
    public static let point = APIParameter("point", required: true, repeated: true)
    public static let vehicle = APIParameter("vehicle")
    public static let pointsEncoded = APIParameter("points_encoded")
    public static let optimize = APIParameter("optimize")
    public static let avoid = APIParameter("avoid")
    public static let capacity = APIParameter("capacity")
    public static let alternative = APIParameter("alternative", aliases: ["alternatives"])
    public static let heading = APIParameter("heading")
    public static let time = APIParameter("time")
    public static let annotations = APIParameter("annotations")
    public static let apiVersion = APIParameter("api-version")
    public static let sources = APIParameter("sources")
    public static let destinations = APIParameter("destinations")
    public static let annotation = APIParameter("annotation", aliases: ["annotations"])
    public static let roundTrip = APIParameter("round_trip", aliases: ["roundtrip", "roundTrip"])
    public static let migrateType = APIParameter("migrate_type", aliases: ["migrateType"])

    // Directions v5: Mapbox's query as VietMap's navigation SDKs send it (the profile and the
    // coordinates are path segments: `DirectionsPath`).
    /// `polyline6` (default), `polyline` or `geojson`.
    public static let geometries = APIParameter("geometries")
    /// `full` (default here), `simplified` or `false`.
    public static let overview = APIParameter("overview")
    public static let steps = APIParameter("steps")
    public static let bannerInstructions = APIParameter("banner_instructions")
    public static let voiceInstructions = APIParameter("voice_instructions")
    /// `metric` or `imperial`.
    public static let voiceUnits = APIParameter("voice_units")
    public static let language = APIParameter("language")
    public static let alternatives = APIParameter("alternatives")
    /// `deg,range;…` per waypoint, empty items allowed (VietMap's iOS SDK: `accuracy,heading`,
    /// `DirectionsBearingOrder`).
    public static let bearings = APIParameter("bearings")
    /// Metres or `unlimited` per waypoint, `;`-separated.
    public static let radiuses = APIParameter("radiuses")
    public static let approaches = APIParameter("approaches")
    public static let waypointNames = APIParameter("waypoint_names")
    public static let continueStraight = APIParameter("continue_straight")
    public static let roundaboutExits = APIParameter("roundabout_exits")
    public static let exclude = APIParameter("exclude")
    /// Mapbox's key parameter; VietMap's SDKs send `apikey` (the one the key check reads).
    public static let accessToken = APIParameter("access_token")
}

extension APIEndpoint {
    /// The parameters this endpoint reads, `apikey` first. Anything else is ignored (reference §8.5).
    public var parameters: [APIParameter] {
        switch family {
        case .autocomplete, .search:
            return [.apikey, .text, .focus, .displayType, .cityId, .distId, .wardId, .circleCenter, .circleRadius, .cats, .layers]
        case .place:
            return [.apikey, .refid]
        case .reverse:
            return [.apikey, .lat, .lng, .displayType]
        case .route:
            return (apiVersion != nil ? [.apikey, .apiVersion] : [.apikey])
                + [.point, .vehicle, .pointsEncoded, .optimize, .avoid, .capacity, .alternative, .heading, .time, .annotations]
        case .matrix:
            return (apiVersion != nil ? [.apikey, .apiVersion] : [.apikey]) + [.point, .vehicle, .sources, .destinations, .annotation]
        case .tsp:
            return (apiVersion != nil ? [.apikey, .apiVersion] : [.apikey])
                + [.point, .vehicle, .pointsEncoded, .roundTrip, .sources, .destinations]
        case .migrateAddress:
            return [.apikey, .text, .migrateType, .focus]
        case .map:
            // Every map value is in the path (`MapPath`); the key may also be spelled `apiKey`.
            return requiresKey ? [.apikey] : []
        case .directions:
            return [.apikey, .geometries, .overview, .steps, .bannerInstructions, .voiceInstructions, .voiceUnits, .language,
                    .alternatives, .bearings, .radiuses, .approaches, .waypointNames, .continueStraight, .roundaboutExits,
                    .exclude, .annotations, .accessToken]
        }
    }
}
