import Foundation

// The Directions v5 answer of VietMap's navigation SDKs (`/api/navigations/route/directions/v5`),
// Mapbox-shaped. Optionals follow the SDKs' parsers (`maps-sdk-directions-ios`, mapbox-java):
// what they require is non-optional here, what they read as optional is optional.

/// A Directions v5 answer: `code` `Ok` with `routes` and `waypoints`, or a failure code
/// (`NoRoute`/`NoSegment` arrive with HTTP 200 and `routes: []`).
public struct VMDirectionsResponse: Codable, Sendable {
    /// `Ok`, `NoRoute`, `NoSegment`, … (`DirectionsCode` holds the documented ones).
    public let code: String
    public let message: String?
    /// The answer's id (the simulator's is a hash of the request).
    public let uuid: String?
    /// Empty for `NoRoute`/`NoSegment`; missing in an error body, read as empty.
    public let routes: [VMDirectionsRoute]
    public let waypoints: [VMDirectionsWaypoint]?

    /// Whether `code` is `Ok` (every other code is a failure to the SDKs).
    public var isOk: Bool { code == DirectionsCode.ok.rawValue }

    enum CodingKeys: String, CodingKey { case code, message, uuid, routes, waypoints }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(String.self, forKey: .code)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        uuid = try c.decodeIfPresent(String.self, forKey: .uuid)
        routes = try c.decodeIfPresent([VMDirectionsRoute].self, forKey: .routes) ?? []
        waypoints = try c.decodeIfPresent([VMDirectionsWaypoint].self, forKey: .waypoints)
    }
}

/// One route: the whole line (absent with `overview=false`), its legs between waypoints, totals.
public struct VMDirectionsRoute: Codable, Sendable {
    public let geometry: VMDirectionsGeometry?
    public let legs: [VMDirectionsLeg]
    /// Metres.
    public let distance: Double
    /// Seconds.
    public let duration: Double
    public let weight: Double?
    public let weightName: String?
    /// The language of the instructions (`vi` from the simulator).
    public let voiceLocale: String?

    enum CodingKeys: String, CodingKey {
        case geometry, legs, distance, duration, weight
        case weightName = "weight_name"
        case voiceLocale
    }
}

/// The part of a route between two waypoints: `depart` … `arrive` steps (empty without `steps=true`).
public struct VMDirectionsLeg: Codable, Sendable {
    /// The leg's main roads, comma-separated.
    public let summary: String?
    public let distance: Double
    public let duration: Double
    public let weight: Double?
    public let steps: [VMDirectionsStep]
    /// Per-segment values, when `annotations` asked for them.
    public let annotation: VMLegAnnotation?
}

/// Per segment of a leg's line (one value per pair of consecutive points), as `annotations` asked.
public struct VMLegAnnotation: Codable, Sendable {
    /// Metres.
    public let distance: [Double]?
    /// Seconds.
    public let duration: [Double]?
    /// Metres per second.
    public let speed: [Double]?
    /// `unknown`, `low`, `moderate`, `heavy`, `severe` (always `unknown` from the simulator).
    public let congestion: [String]?
}

/// A requested coordinate as snapped onto the road network.
public struct VMDirectionsWaypoint: Codable, Sendable {
    /// The snapped road's name (or the asked `waypoint_names` item); may be empty.
    public let name: String?
    /// `[longitude, latitude]`.
    public let location: [Double]
    /// Metres from the requested coordinate to the snapped one.
    public let distance: Double?

    /// `location` as a coordinate; nil when it does not hold two numbers.
    public var coordinate: VMCoordinate? {
        location.count >= 2 ? VMCoordinate(latitude: location[1], longitude: location[0]) : nil
    }
}
