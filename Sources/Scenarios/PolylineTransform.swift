import JSON
import Polyline

/// The `transform` action `{"polyline": KIND}`: rewrites every encoded polyline of a route
/// answer — the strings at `/paths/*/points` and `/paths/*/snapped_waypoints` — from the real
/// answer, so the fault follows whatever route was asked for. GeoJSON geometries
/// (`points_encoded=false`) are left alone.
///
/// | kind | the string becomes |
/// |---|---|
/// | `swap-latlng` | the same points with latitude and longitude swapped (a valid polyline) |
/// | `precision-1e6` | the same points encoded at 1e6 (OSRM/Valhalla) instead of 1e5: a 1e5 decoder reads coordinates 10× too large |
/// | `truncate` | cut inside a value: the first half of the points whole, then the next latitude without its last character (or, when that latitude is a single character, the latitude without its longitude) — decoders that read past the end trap |
enum PolylineTransform: String, Sendable, CaseIterable {
    case swapLatLng = "swap-latlng"
    case precision1e6 = "precision-1e6"
    case truncate = "truncate"

    /// The members of each path that hold a geometry.
    static let members = ["points", "snapped_waypoints"]

    /// Applies the transform to every encoded polyline of `answer`.
    /// - Returns: the new answer and how many strings changed; `problem` names a string that
    ///   is not a valid 1e5 polyline (left as it was).
    func apply(to answer: JSONValue) -> (answer: JSONValue, changed: Int, problem: String?) {
        guard case .object(var root) = answer, case .array(var paths)? = root["paths"] else { return (answer, 0, nil) }
        var changed = 0
        var problem: String?
        for index in paths.indices {
            guard case .object(var path) = paths[index] else { continue }
            for member in Self.members {
                guard case .string(let encoded)? = path[member] else { continue }
                do {
                    path[member] = .string(try apply(to: encoded))
                    changed += 1
                } catch {
                    problem = problem ?? "/paths/\(index)/\(member) is not a valid polyline (\(error))"
                }
            }
            paths[index] = .object(path)
        }
        root["paths"] = .array(paths)
        return (.object(root), changed, problem)
    }

    /// Applies the transform to one encoded polyline (precision 1e5).
    func apply(to encoded: String) throws(PolylineError) -> String {
        let units = try Polyline.decodeUnits(encoded)
        switch self {
        case .swapLatLng:
            return try Polyline.encode(units: units.map { ($0.1, $0.0) })
        case .precision1e6:
            return try Polyline.encode(units: try Self.timesTen(units))
        case .truncate:
            return Self.truncated(encoded)
        }
    }

    /// Every unit ×10 (1e5 → 1e6); a value that leaves the Int range (a huge foreign or replayed
    /// polyline) throws `.coordinateOverflow` with the point's index instead of trapping.
    static func timesTen(_ units: [(Int, Int)]) throws(PolylineError) -> [(Int, Int)] {
        var scaled: [(Int, Int)] = []
        scaled.reserveCapacity(units.count)
        for (index, (lat, lng)) in units.enumerated() {
            let (newLat, latOverflow) = lat.multipliedReportingOverflow(by: 10)
            let (newLng, lngOverflow) = lng.multipliedReportingOverflow(by: 10)
            if latOverflow || lngOverflow { throw PolylineError(.coordinateOverflow, index: index) }
            scaled.append((newLat, newLng))
        }
        return scaled
    }

    /// `encoded` (a valid polyline) cut inside the latitude that follows its first half of points.
    static func truncated(_ encoded: String) -> String {
        let bytes = Array(encoded.utf8)
        // A value ends at a chunk without the continuation bit.
        let ends = bytes.indices.filter { bytes[$0] &- 63 < 0x20 }
        guard ends.count >= 2 else { return encoded }
        let keptPairs = ends.count / 2 / 2
        let latitudeStart = keptPairs == 0 ? 0 : ends[2 * keptPairs - 1] + 1
        let latitudeEnd = ends[2 * keptPairs]
        let cut = latitudeEnd > latitudeStart ? latitudeEnd : latitudeEnd + 1
        return String(decoding: bytes[..<cut], as: UTF8.self)
    }
}
