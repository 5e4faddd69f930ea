import Foundation
import Routing
import VietMapWire

/// A Directions v5 request read from its path (`DirectionsPath`) and Mapbox's query: every
/// malformed value is a 422 `InvalidInput` naming what is wrong, an unknown profile a 404
/// `ProfileNotFound`.
struct DirectionsQuery {
    /// How a geometry is written: encoded at 1e6 or 1e5, or a GeoJSON LineString.
    enum GeometryFormat: String { case polyline6, polyline, geojson }

    var profile: DirectionsProfile
    var vehicle: Vehicle
    /// The waypoints in request order (the path sends `lng,lat`).
    var points: [GeoPoint]
    var geometry: GeometryFormat
    /// `overview=false`: no route geometry.
    var includesOverview: Bool
    var steps: Bool
    var bannerInstructions: Bool
    var voiceInstructions: Bool
    var imperialUnits: Bool
    /// The `language` asked for (the text is Vietnamese whatever it is).
    var language: String
    var alternatives: Bool
    /// Per waypoint: the direction of travel snapping must allow (nil: any), its two numbers read
    /// in `bearingOrder` where both orders are valid (`DirectionsBearingOrder`).
    var bearings: [BearingFilter?]
    /// Per waypoint: the snapping radius in metres.
    var radiuses: [Double]
    /// Per waypoint: the name to answer in `waypoints[].name` (nil: the snapped road's).
    var waypointNames: [String?]
    /// `annotations` asked for, among `distance`, `duration`, `speed`, `congestion` (others ignored).
    var annotations: [String]
    var options: RouteOptions

    /// The vehicle a profile routes with (no traffic: both driving profiles are the car).
    static func vehicle(_ profile: DirectionsProfile) -> Vehicle {
        switch profile {
        case .driving, .drivingTraffic: return .car
        case .cycling: return .bike
        case .walking: return .foot
        case .motorcycle: return .motorcycle
        }
    }
    /// `radiuses=unlimited` (and the bound of any radius): 100 km, the service's snapping bound.
    static let unlimitedRadius = 100_000.0
    static let supportedAnnotations = ["distance", "duration", "speed", "congestion"]

    init(path: String, _ parameters: RequestParameters, bearingOrder: DirectionsBearingOrder = .degreesRange,
         maxPoints: Int, maxSnapDistanceMeters: Double) throws(APIError) {
        guard let parts = DirectionsPath(path: path) else {
            throw .directions(.invalidInput, "the path must be \(APIEndpoint.directionsV5.path)/{profile}/{lng,lat;lng,lat}.json")
        }
        guard let profile = DirectionsProfile(rawValue: parts.profile) else {
            throw .directions(.profileNotFound, "Profile '\(parts.profile.prefix(60))' not found; expected one of \(DirectionsProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.profile = profile
        vehicle = Self.vehicle(profile)
        let texts = parts.coordinates.split(separator: ";", omittingEmptySubsequences: false)
        guard texts.count >= 2 else {
            throw .directions(.invalidInput, "at least 2 coordinates (lng,lat;lng,lat) are required, got \(texts.count)")
        }
        guard texts.count <= maxPoints else {
            throw .directions(.invalidInput, "Too many coordinates: \(texts.count), at most \(maxPoints)")
        }
        points = []
        for (index, text) in texts.enumerated() {
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { Double(RequestParameters.trimmed(String($0))) }
            guard numbers.count == 2, let lng = numbers[0], let lat = numbers[1], lng.isFinite, lat.isFinite else {
                throw .directions(.invalidInput, "coordinate \(index) must be 'lng,lat', got '\(text.prefix(40))'")
            }
            guard (-180...180).contains(lng), (-90...90).contains(lat) else {
                throw .directions(.invalidInput, "coordinate \(index) is out of range: lng must be in [-180, 180], lat in [-90, 90], got '\(text.prefix(40))'")
            }
            points.append(GeoPoint(latitude: lat, longitude: lng))
        }
        let count = points.count

        let geometryText = parameters.string(.geometries) ?? "polyline6"
        guard let format = GeometryFormat(rawValue: geometryText) else {
            throw .directions(.invalidInput, "geometries must be polyline6, polyline or geojson, got '\(geometryText.prefix(20))'")
        }
        geometry = format
        switch parameters.string(.overview) ?? "full" {
        case "full", "simplified": includesOverview = true
        case "false": includesOverview = false
        case let other: throw .directions(.invalidInput, "overview must be full, simplified or false, got '\(other.prefix(20))'")
        }
        steps = try Self.flag(parameters, .steps)
        bannerInstructions = try Self.flag(parameters, .bannerInstructions)
        voiceInstructions = try Self.flag(parameters, .voiceInstructions)
        alternatives = try Self.flag(parameters, .alternatives)
        _ = try Self.flag(parameters, .continueStraight)
        _ = try Self.flag(parameters, .roundaboutExits)
        switch parameters.string(.voiceUnits) ?? "metric" {
        case "metric": imperialUnits = false
        case "imperial": imperialUnits = true
        case let other: throw .directions(.invalidInput, "voice_units must be metric or imperial, got '\(other.prefix(20))'")
        }
        language = parameters.string(.language) ?? "vi"

        bearings = Array(repeating: nil, count: count)
        if let text = parameters.string(.bearings) {
            let items = try Self.perWaypoint(text, .bearings, count: count)
            for (index, item) in items.enumerated() where !item.isEmpty {
                let pair = item.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
                guard pair.count == 2, let first = pair[0], let second = pair[1], let read = bearingOrder.read(first, second) else {
                    throw .directions(.invalidInput, "bearings item \(index) must be 'degrees,range' (0≤degrees≤360, 0≤range≤180) or, from VietMap's iOS SDK, 'accuracy,heading' (0≤accuracy≤180, 0≤heading≤360), got '\(item.prefix(20))'")
                }
                bearings[index] = BearingFilter(degrees: read.degrees, tolerance: read.range)
            }
        }
        radiuses = Array(repeating: maxSnapDistanceMeters, count: count)
        if let text = parameters.string(.radiuses) {
            let items = try Self.perWaypoint(text, .radiuses, count: count)
            for (index, item) in items.enumerated() where !item.isEmpty {
                if item == "unlimited" { radiuses[index] = Self.unlimitedRadius; continue }
                guard let meters = Double(item), meters.isFinite, meters >= 0 else {
                    throw .directions(.invalidInput, "radiuses item \(index) must be metres ≥ 0 or 'unlimited', got '\(item.prefix(20))'")
                }
                radiuses[index] = min(meters, Self.unlimitedRadius)
            }
        }
        waypointNames = Array(repeating: nil, count: count)
        if let text = parameters.string(.waypointNames) {
            let items = try Self.perWaypoint(text, .waypointNames, count: count)
            for (index, item) in items.enumerated() where !item.isEmpty { waypointNames[index] = item }
        }
        if let text = parameters.string(.approaches) {
            for item in try Self.perWaypoint(text, .approaches, count: count) where !["", "unrestricted", "curb"].contains(item) {
                throw .directions(.invalidInput, "approaches items must be unrestricted or curb, got '\(item.prefix(20))'")
            }
        }
        let asked = (parameters.string(.annotations) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        annotations = Self.supportedAnnotations.filter { asked.contains($0) }

        var options = RouteOptions(maxPoints: maxPoints, maxSnapDistanceMeters: maxSnapDistanceMeters)
        for word in (parameters.string(.exclude) ?? "").split(separator: ",") {
            switch word.trimmingCharacters(in: .whitespaces) {
            case "toll": options.avoidToll = true
            case "ferry": options.avoidFerry = true
            case "motorway", "unpaved", "cash_only_tolls", "": break  // accepted, not simulated
            case let other: throw .directions(.invalidInput, "exclude must name toll, ferry, motorway, unpaved or cash_only_tolls, got '\(other.prefix(20))'")
            }
        }
        self.options = options
    }

    /// A `true`/`false` parameter (absent: false).
    static func flag(_ parameters: RequestParameters, _ parameter: APIParameter) throws(APIError) -> Bool {
        guard let text = parameters.string(parameter) else { return false }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw .directions(.invalidInput, "\(parameter.name) must be true or false, got '\(text.prefix(20))'")
        }
    }

    /// The `;`-separated items of a per-waypoint list, which must have one item per waypoint.
    static func perWaypoint(_ text: String, _ parameter: APIParameter, count: Int) throws(APIError) -> [String] {
        let items = text.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count == count else {
            throw .directions(.invalidInput, "\(parameter.name) must have one item per coordinate (\(count)), got \(items.count)")
        }
        return items
    }
}
