/// The request data a Directions v5 path carries after `APIEndpoint.directionsV5.path`:
/// `/{profile}/{lng,lat;lng,lat…}.json`, the profile being `mapbox/driving` and the like.
public struct DirectionsPath: Sendable, Equatable {
    /// The profile as sent (`mapbox/driving-traffic`; `DirectionsProfile` holds the served ones).
    public var profile: String
    /// The coordinate list as sent, without `.json` (`106.70,10.77;106.69,10.78`).
    public var coordinates: String

    /// Reads the segments after the endpoint's path; nil when `path` is not under it or has no
    /// `profile/coordinates` pair. `path` is as `HTTPRequest.path` holds it (percent-decoded);
    /// the coordinates may lack `.json`.
    public init?(path: String) {
        let prefix = APIEndpoint.directionsV5.path + "/"
        guard path.hasPrefix(prefix) else { return nil }
        var rest = Substring(path.dropFirst(prefix.count))
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let slash = rest.lastIndex(of: "/") else { return nil }
        let profile = rest[..<slash]
        var coordinates = rest[rest.index(after: slash)...]
        if coordinates.hasSuffix(".json") { coordinates = coordinates.dropLast(5) }
        guard !profile.isEmpty, !coordinates.isEmpty else { return nil }
        self.profile = String(profile)
        self.coordinates = String(coordinates)
    }
}
