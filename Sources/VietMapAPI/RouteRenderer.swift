import Foundation
import JSON
import Polyline
import Routing

/// A `Route` in VietMap's path shape: keys in GraphHopper's serializer order, distances rounded
/// to 0.1 m, times in integer ms, `weight` = time/1000, `bbox` of the emitted (rounded) points.
enum RouteRenderer {
    static func path(_ route: Route, encoded: Bool) -> JSONValue {
        // Emitted coordinates: 1e5 units when encoded (what the polyline carries), 1e6 otherwise.
        let scale = encoded ? 1e5 : 1e6
        let units = route.points.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) }
        var minLat = Int.max, minLng = Int.max, maxLat = Int.min, maxLng = Int.min
        for (lat, lng) in units {
            minLat = min(minLat, lat); maxLat = max(maxLat, lat)
            minLng = min(minLng, lng); maxLng = max(maxLng, lng)
        }
        let bbox: JSONValue = units.isEmpty ? .array([]) : .array([minLng, minLat, maxLng, maxLat].map { .number(Double($0) / scale) })
        return .object(JSONObject([
            ("distance", .number(round1(route.distance))),
            ("weight", .number(Double(route.time) / 1000)),
            ("time", .integer(route.time)),
            ("transfers", .integer(0)),
            ("points_encoded", .bool(encoded)),
            ("bbox", bbox),
            ("points", geometry(units, encoded: encoded, scale: scale)),
            ("instructions", .array(route.instructions.map(instruction))),
            ("snapped_waypoints", geometry(route.snappedWaypoints.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) },
                                          encoded: encoded, scale: scale)),
        ]))
    }

    /// Encoded polyline (1e5, latitude first) or a GeoJSON LineString ([lng, lat]) — reference §8.1.
    static func geometry(_ units: [(Int, Int)], encoded: Bool, scale: Double) -> JSONValue {
        if encoded {
            // Coordinates come from the graph (valid lat/lng), so encoding cannot fail.
            return .string((try? Polyline.encode(units: units)) ?? "")
        }
        let coordinates: [JSONValue] = units.map { .array([.number(Double($0.1) / scale), .number(Double($0.0) / scale)]) }
        return .object(JSONObject([("type", "LineString"), ("coordinates", .array(coordinates))]))
    }

    /// Keys in the order VietMap's SDKs show them; roundabouts add `exit_number`, `exited`, `turn_angle`.
    static func instruction(_ i: Instruction) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("distance", .number(round1(i.distance))),
            ("heading", .number((i.heading * 100).rounded() / 100)),
            ("sign", .integer(i.sign)),
            ("interval", .array([.integer(i.interval.lowerBound), .integer(i.interval.upperBound)])),
            ("text", .string(i.text)),
            ("time", .integer(i.time)),
            ("street_name", .string(i.streetName)),
            ("last_heading", i.lastHeading.map { .number(($0 * 100).rounded() / 100) } ?? .null),
        ]
        if let exit = i.exitNumber {
            members.append(("exit_number", .integer(exit)))
            members.append(("exited", .bool(true)))
            if let angle = i.turnAngle { members.append(("turn_angle", .number((angle * 100).rounded() / 100))) }
        }
        return .object(JSONObject(members))
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
