import Foundation

/// One step of a leg: a maneuver and the stretch of road up to the next one.
public struct VMDirectionsStep: Codable, Sendable {
    public let maneuver: VMManeuver
    /// The road's name; empty for unnamed roads.
    public let name: String?
    public let ref: String?
    /// `driving`, `cycling` or `walking`.
    public let mode: String
    /// `right` in Vietnam.
    public let drivingSide: String?
    public let distance: Double
    public let duration: Double
    public let weight: Double?
    /// The step's line, in the request's `geometries` encoding.
    public let geometry: VMDirectionsGeometry?
    public let intersections: [VMIntersection]?
    /// With `banner_instructions=true`.
    public let bannerInstructions: [VMBannerInstruction]?
    /// With `voice_instructions=true`.
    public let voiceInstructions: [VMVoiceInstruction]?

    enum CodingKeys: String, CodingKey {
        case maneuver, name, ref, mode, distance, duration, weight, geometry, intersections
        case drivingSide = "driving_side"
        case bannerInstructions, voiceInstructions
    }
}

/// What to do where a step starts: `depart`, `turn`, `new name`, `fork`, `roundabout`, `arrive`, …
public struct VMManeuver: Codable, Sendable {
    /// `[longitude, latitude]`.
    public let location: [Double]
    public let type: String
    /// `left`, `slight right`, `uturn`, `straight`, …
    public let modifier: String?
    /// The spoken-style text (Vietnamese from the simulator).
    public let instruction: String?
    public let bearingBefore: Double?
    public let bearingAfter: Double?
    /// The exit to take at a roundabout.
    public let exit: Int?

    /// `location` as a coordinate; nil when it does not hold two numbers.
    public var coordinate: VMCoordinate? {
        location.count >= 2 ? VMCoordinate(latitude: location[1], longitude: location[0]) : nil
    }

    enum CodingKeys: String, CodingKey {
        case location, type, modifier, instruction, exit
        case bearingBefore = "bearing_before"
        case bearingAfter = "bearing_after"
    }
}

/// A junction on a step: the bearings of its roads, which may be entered, which were used.
public struct VMIntersection: Codable, Sendable {
    /// `[longitude, latitude]`.
    public let location: [Double]
    /// Degrees clockwise from north, one per road.
    public let bearings: [Double]
    /// Per road of `bearings`: whether the route may leave along it.
    public let entry: [Bool]
    /// The index in `bearings` of the road arrived by.
    public let `in`: Int?
    /// The index in `bearings` of the road taken.
    public let out: Int?
}
