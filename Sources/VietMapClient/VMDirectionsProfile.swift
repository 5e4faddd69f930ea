import Foundation

/// A Directions v5 profile: the path segments before the coordinates (`mapbox/driving-traffic`).
/// String-literal convertible; unknown names are passed through (the server answers 404
/// `ProfileNotFound`). The served ones are the wire protocol's `DirectionsProfile`.
public struct VMDirectionsProfile: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(_ profile: DirectionsProfile) { rawValue = profile.rawValue }
    public var description: String { rawValue }

    /// Car (`maps-sdk-directions-ios`' default; no traffic in the simulator).
    public static let drivingTraffic = VMDirectionsProfile(.drivingTraffic)
    /// Car.
    public static let driving = VMDirectionsProfile(.driving)
    /// Bike.
    public static let cycling = VMDirectionsProfile(.cycling)
    /// Foot.
    public static let walking = VMDirectionsProfile(.walking)
    /// Motorcycle (VietMap's own, `vietmap-flutter-navigation`).
    public static let motorcycle = VMDirectionsProfile(.motorcycle)
}
