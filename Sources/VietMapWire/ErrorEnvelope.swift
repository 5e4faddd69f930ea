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

    /// The body for `code` with `message`, written as bytes (`JSONWriter`) as every answer's JSON.
    public func body(code: String, message: String) -> [UInt8] {
        switch self {
        case .codeMessage:
            return CodeMessageBody.bytes(code: code, message: message)
        case .mapbox:
            let translated = DirectionsCode(translating: code)
            // The 200 failures keep `routes` (empty): mapbox-java's DirectionsResponse requires it.
            let routes: [(String, JSONValue)] = translated == .noRoute || translated == .noSegment ? [("routes", .array([]))] : []
            return CodeMessageBody.bytes(code: translated.rawValue, message: message, extra: routes)
        case .route:
            var writer = JSONWriter(capacity: 96 + message.utf8.count)
            writer.beginObject()
            writer.member("license", "vietmap")
            writer.member("code", code)
            writer.member("messages", message)
            writer.key("paths")
            if code == APIErrorCode.zeroResults.rawValue {
                writer.beginArray()
                writer.endArray()
            } else {
                writer.null()
            }
            writer.endObject()
            return writer.bytes
        case .matrix:
            var writer = JSONWriter(capacity: 96 + message.utf8.count)
            writer.beginObject()
            writer.member("code", code)
            writer.member("messages", message)
            writer.key("durations")
            writer.null()
            writer.key("distances")
            writer.null()
            writer.endObject()
            return writer.bytes
        }
    }

    /// The envelope of `endpoint`; `{"code","message"}` for a path that is no endpoint.
    public static func of(_ endpoint: APIEndpoint?) -> ErrorEnvelope { endpoint?.errorEnvelope ?? .codeMessage }
}
