/// The request data a Directions v5 path carries after `APIEndpoint.directionsV5.path`:
/// `/{profile}/{lng,lat;lng,lat…}.json`, the profile being `mapbox/driving` and the like.
public struct DirectionsPath: Sendable, Equatable {
    /// The profile as sent (`mapbox/driving-traffic`; `DirectionsProfile` holds the served ones).
    public var profile: String
    /// The coordinate list as sent, without `.json` (`106.70,10.77;106.69,10.78`).
    public var coordinates: String

    /// The names under which scenario rules and captured exchanges hold the two path values
    /// beside the query's parameters (Directions v5 has no query parameter of either name).
    public static let profileParameter = "profile"
    public static let coordinatesParameter = "coordinates"

    /// The path of `profile` and `coordinates` under the endpoint (`…/v5/mapbox/driving/106.7,10.7;106.6,10.8.json`).
    public static func path(profile: String, coordinates: String) -> String {
        APIEndpoint.directionsV5.path + "/" + profile + "/" + coordinates + ".json"
    }

    /// Reads the segments after the endpoint's path; nil when `path` is not under it or has no
    /// `profile/coordinates` pair. `path` is as `HTTPRequest.path` holds it (percent-decoded);
    /// the coordinates may lack `.json`, and trailing `/`s are ignored.
    ///
    /// Linear in the path: every step moves over the UTF-8 bytes once (a 16 KiB run of trailing
    /// `/`s used to cost seconds when they were dropped one at a time by `hasSuffix`/`dropLast`).
    public init?(path: String) {
        let prefix = APIEndpoint.directionsV5.path + "/"
        let bytes = path.utf8
        guard bytes.starts(with: prefix.utf8) else { return nil }
        let slash = UInt8(ascii: "/")
        let start = bytes.index(bytes.startIndex, offsetBy: prefix.utf8.count)
        var end = bytes.endIndex
        while end > start, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        // Every index here sits next to an ASCII byte, so it is a valid String index too.
        guard let lastSlash = bytes[start..<end].lastIndex(of: slash) else { return nil }
        var coordinatesEnd = end
        let suffix = ".json".utf8
        let coordinatesStart = bytes.index(after: lastSlash)
        if bytes.distance(from: coordinatesStart, to: end) >= suffix.count,
           bytes[bytes.index(end, offsetBy: -suffix.count)..<end].elementsEqual(suffix) {
            coordinatesEnd = bytes.index(end, offsetBy: -suffix.count)
        }
        guard start < lastSlash, coordinatesStart < coordinatesEnd else { return nil }
        self.profile = String(path[start..<lastSlash])
        self.coordinates = String(path[coordinatesStart..<coordinatesEnd])
    }
}
