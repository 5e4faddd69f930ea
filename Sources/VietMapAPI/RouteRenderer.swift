import JSON
import Polyline
import Routing

/// Route v4's answer (also TSP's): VietMap's GraphHopper-style envelope around one `Route` in
/// VietMap's path shape, written as bytes (`JSONWriter`), keys in GraphHopper's serializer order:
/// distances rounded to 0.1 m, times in integer ms, `weight` = time/1000, `bbox` of the emitted
/// (rounded) points.
enum RouteRenderer {
    /// `{"license":"vietmap","code":"OK","messages":null,"paths":[path]}`.
    static func answer(_ route: Route, encoded: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 1_024 + route.points.count * (encoded ? 8 : 32) + route.instructions.count * 240)
        envelope(code: "OK", messages: nil, into: &writer)
        writer.beginArray()
        path(route, encoded: encoded, into: &writer)
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// `ZERO_RESULTS` with `paths: []`: no connection between the points.
    static let zeroResults: [UInt8] = {
        var writer = JSONWriter(capacity: 128)
        envelope(code: "ZERO_RESULTS", messages: "Connection between locations not found", into: &writer)
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }()

    /// The envelope up to the `paths` key, whose value is written next (the object is left open).
    private static func envelope(code: String, messages: String?, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("license", "vietmap")
        writer.member("code", code)
        writer.key("messages")
        if let messages { writer.string(messages) } else { writer.null() }
        writer.key("paths")
    }

    static func path(_ route: Route, encoded: Bool, into writer: inout JSONWriter) {
        // Emitted coordinates: 1e5 units when encoded (what the polyline carries), 1e6 otherwise.
        let scale = encoded ? 1e5 : 1e6
        let units = route.points.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) }
        writer.beginObject()
        writer.member("distance", number: round1(route.distance))
        writer.member("weight", number: Double(route.time) / 1000)
        writer.member("time", route.time)
        writer.member("transfers", 0)
        writer.member("points_encoded", encoded)
        writer.key("bbox")
        writer.beginArray()
        if !units.isEmpty {
            var minLat = Int.max, minLng = Int.max, maxLat = Int.min, maxLng = Int.min
            for (lat, lng) in units {
                minLat = min(minLat, lat); maxLat = max(maxLat, lat)
                minLng = min(minLng, lng); maxLng = max(maxLng, lng)
            }
            for unit in [minLng, minLat, maxLng, maxLat] { writer.number(Double(unit) / scale) }
        }
        writer.endArray()
        writer.key("points")
        geometry(units, encoded: encoded, scale: scale, into: &writer)
        writer.key("instructions")
        writer.beginArray()
        for instruction in route.instructions { self.instruction(instruction, into: &writer) }
        writer.endArray()
        writer.key("snapped_waypoints")
        geometry(route.snappedWaypoints.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) },
                 encoded: encoded, scale: scale, into: &writer)
        writer.endObject()
    }

    /// Encoded polyline (1e5, latitude first) or a GeoJSON LineString ([lng, lat]) — reference §8.1.
    private static func geometry(_ units: [(Int, Int)], encoded: Bool, scale: Double, into writer: inout JSONWriter) {
        if encoded {
            // Coordinates come from the graph (valid lat/lng), so encoding cannot fail.
            writer.string((try? Polyline.encode(units: units)) ?? "")
            return
        }
        writer.beginObject()
        writer.member("type", "LineString")
        writer.key("coordinates")
        writer.beginArray()
        for (lat, lng) in units {
            writer.beginArray()
            writer.number(Double(lng) / scale)
            writer.number(Double(lat) / scale)
            writer.endArray()
        }
        writer.endArray()
        writer.endObject()
    }

    /// Keys in the order VietMap's SDKs show them; roundabouts add `exit_number`, `exited`, `turn_angle`.
    private static func instruction(_ i: Instruction, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("distance", number: round1(i.distance))
        writer.member("heading", number: round2(i.heading))
        writer.member("sign", i.sign)
        writer.key("interval")
        writer.beginArray()
        writer.integer(i.interval.lowerBound)
        writer.integer(i.interval.upperBound)
        writer.endArray()
        writer.member("text", i.text)
        writer.member("time", i.time)
        writer.member("street_name", i.streetName)
        writer.key("last_heading")
        if let lastHeading = i.lastHeading { writer.number(round2(lastHeading)) } else { writer.null() }
        if let exit = i.exitNumber {
            writer.member("exit_number", exit)
            writer.member("exited", true)
            if let angle = i.turnAngle { writer.member("turn_angle", number: round2(angle)) }
        }
        writer.endObject()
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private static func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
