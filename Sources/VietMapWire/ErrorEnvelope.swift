import JSON

/// The shape of an error body, one per endpoint family (reference §8.6, the simulator's choice
/// where live is unknown):
/// - `codeMessage`: `{"code":…,"message":…}` — autocomplete, search, place, reverse, migrate-address;
/// - `route`: `{"license":"vietmap","code":…,"messages":…,"paths":null}` (`[]` for `ZERO_RESULTS`) — routes and TSP;
/// - `matrix`: `{"code":…,"messages":…,"durations":null,"distances":null}` — the matrix model's keys;
/// - `mapbox`: `{"code":…,"message":…}` with Mapbox's codes (`InvalidInput`, `NoRoute`, …;
///   `DirectionsCode(translating:)`), plus `"routes":[]` for the 200 codes `NoRoute`/`NoSegment` — Directions v5.
public enum ErrorEnvelope: String, Sendable, CaseIterable {
    case codeMessage
    case route
    case matrix
    case mapbox

    /// The body for `code` with `message`.
    public func body(code: String, message: String) -> JSONValue {
        switch self {
        case .codeMessage:
            return .object(JSONObject([("code", .string(code)), ("message", .string(message))]))
        case .route:
            let paths: JSONValue = code == APIErrorCode.zeroResults.rawValue ? .array([]) : .null
            return .object(JSONObject([("license", "vietmap"), ("code", .string(code)), ("messages", .string(message)), ("paths", paths)]))
        case .matrix:
            return .object(JSONObject([("code", .string(code)), ("messages", .string(message)), ("durations", .null), ("distances", .null)]))
        case .mapbox:
            let translated = DirectionsCode(translating: code)
            var members: [(String, JSONValue)] = [("code", .string(translated.rawValue)), ("message", .string(message))]
            // The 200 failures keep `routes` (empty): mapbox-java's DirectionsResponse requires it.
            if translated == .noRoute || translated == .noSegment { members.append(("routes", .array([]))) }
            return .object(JSONObject(members))
        }
    }

    /// The envelope of `endpoint`; `{"code","message"}` for a path that is no endpoint.
    public static func of(_ endpoint: APIEndpoint?) -> ErrorEnvelope { endpoint?.errorEnvelope ?? .codeMessage }
}
