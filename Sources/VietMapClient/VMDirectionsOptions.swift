import Foundation

/// The query of a Directions v5 request. The defaults are what `maps-sdk-directions-ios` sends
/// for navigation (polyline6, full overview, steps, banners, voice, annotations).
public struct VMDirectionsOptions: Sendable, Hashable {
    /// How lines are encoded in the answer.
    public enum Geometries: String, Sendable, Hashable {
        case polyline6, polyline, geojson

        /// The precision `VMDirectionsGeometry.coordinates(precision:)` decodes this encoding with.
        public var precision: Double { self == .polyline ? 1e5 : 1e6 }
    }

    public var geometries: Geometries = .polyline6
    /// `full`, `simplified` or `false` (no route `geometry`).
    public var overview: String = "full"
    public var steps: Bool = true
    public var bannerInstructions: Bool = true
    public var voiceInstructions: Bool = true
    /// `metric` or `imperial`.
    public var voiceUnits: String = "metric"
    public var language: String = "vi"
    /// `annotations`: any of `distance`, `duration`, `speed`, `congestion`; empty sends none.
    public var annotations: [String] = ["congestion", "distance", "duration", "speed"]
    public var alternatives: Bool = true
    public var continueStraight: Bool = true
    /// Per waypoint `(degrees, range)` or nil (an empty item); empty sends no `bearings`.
    public var bearings: [VMBearing?] = []
    /// Per waypoint metres, nil for `unlimited`; empty sends no `radiuses`.
    public var radiuses: [Double?] = []
    /// Sent after the options, in order.
    public var additionalParameters: [VMParameter] = []

    public init() {}

    /// The query parameters, in the order `maps-sdk-directions-ios` sends them.
    public var parameters: [VMParameter] {
        var out = [
            VMParameter("geometries", geometries.rawValue), VMParameter("overview", overview),
            VMParameter("steps", String(steps)), VMParameter("language", language),
            VMParameter("voice_instructions", String(voiceInstructions)), VMParameter("voice_units", voiceUnits),
            VMParameter("banner_instructions", String(bannerInstructions)),
        ]
        if !annotations.isEmpty { out.append(VMParameter("annotations", annotations.joined(separator: ","))) }
        out.append(VMParameter("alternatives", String(alternatives)))
        out.append(VMParameter("continue_straight", String(continueStraight)))
        if !bearings.isEmpty {
            out.append(VMParameter("bearings", bearings.map { $0.map { "\(Self.whole($0.degrees)),\(Self.whole($0.range))" } ?? "" }
                .joined(separator: ";")))
        }
        if !radiuses.isEmpty {
            out.append(VMParameter("radiuses", radiuses.map { $0.map { Self.whole($0) } ?? "unlimited" }.joined(separator: ";")))
        }
        return out + additionalParameters
    }

    /// A whole number as text; a non-finite or huge value as itself (`nan`, `inf`), which the
    /// server refuses (422) — never a trap. `VMRequest.directions` refuses them before sending.
    static func whole(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        return String(Int64(value.rounded()))
    }
}

/// A heading filter for one waypoint: travel within `range` degrees either side of `degrees`.
public struct VMBearing: Sendable, Hashable {
    public var degrees: Double
    public var range: Double
    public init(degrees: Double, range: Double) {
        self.degrees = degrees
        self.range = range
    }
}
