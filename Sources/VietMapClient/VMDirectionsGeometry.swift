import Foundation

/// A Directions v5 line as the request's `geometries` asked for it: an encoded polyline
/// (`polyline6`, the navigation SDKs' default, or `polyline`) or a GeoJSON `LineString`.
/// The two encodings cannot be told apart by their text, so `coordinates(precision:)` takes the
/// precision of the asked one.
public enum VMDirectionsGeometry: Codable, Sendable, Equatable {
    /// `polyline6` (precision 1e6) or `polyline` (1e5), latitude first.
    case encoded(String)
    /// GeoJSON `{"type":"LineString","coordinates":[[lng, lat], …]}`.
    case lineString([[Double]])

    private enum Keys: String, CodingKey { case type, coordinates }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .encoded(text)
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        self = .lineString(try c.decode([[Double]].self, forKey: .coordinates))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .encoded(let text):
            var c = encoder.singleValueContainer()
            try c.encode(text)
        case .lineString(let positions):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("LineString", forKey: .type)
            try c.encode(positions, forKey: .coordinates)
        }
    }

    /// The points of the line: an encoded line decoded at `precision` (1e6 for `polyline6`, 1e5
    /// for `polyline`; a malformed string yields the points before the fault), a GeoJSON line's
    /// positions as they are (a position without two numbers is skipped).
    public func coordinates(precision: Double = 1e6) -> [VMCoordinate] {
        switch self {
        case .encoded(let text):
            return decodePolyline(text, precision: precision)
        case .lineString(let positions):
            return positions.compactMap { $0.count >= 2 ? VMCoordinate(latitude: $0[1], longitude: $0[0]) : nil }
        }
    }
}
