import Foundation
import JSON
import VietMapClient

/// Checks beyond shape, named in the corpus (`expect.checks`).
package enum SemanticCheck: String, Sendable, CaseIterable {
    // autocomplete
    case nonEmpty = "non-empty"
    case maxTenItems = "max-10-items"
    case newFormat = "new-format"
    case oldFormat = "old-format"
    case dataOld = "data-old"
    case dataNew = "data-new"
    case distanceZeroWithoutFocus = "distance-zero-without-focus"
    // place
    case insideVietnam = "inside-vietnam"
    case placeNewFormat = "place-new-format"
    case placeOldFormat = "place-old-format"
    // route
    case polyline = "polyline"
    case snappedWaypoints = "snapped-waypoints"
    case routeNearPoints = "route-near-points"
    case bboxCoversPoints = "bbox-covers-points"
    case distanceMatchesGeometry = "distance-matches-geometry"
    case instructions = "instructions"
    case instructionTotals = "instruction-totals"
    case viaPoints = "via-points"
    // reverse
    case reverseEchoesPoint = "reverse-echoes-point"
    case bothFormats = "both-formats"
    // matrix
    case matrixDimensions = "matrix-dimensions"

    /// The endpoints whose answers the check reads (a corpus query may only name checks of its endpoint).
    package var endpoints: Set<VMEndpoint> {
        switch self {
        case .nonEmpty, .maxTenItems, .dataOld, .dataNew: return Self.endpoints(of: [.autocomplete, .search, .reverse])
        case .newFormat, .oldFormat: return Self.endpoints(of: [.autocomplete, .search, .reverse, .migrateAddress])
        case .distanceZeroWithoutFocus: return Self.endpoints(of: [.autocomplete, .search])
        case .insideVietnam, .placeNewFormat, .placeOldFormat: return Self.endpoints(of: [.place])
        case .reverseEchoesPoint, .bothFormats: return Self.endpoints(of: [.reverse])
        case .matrixDimensions: return Self.endpoints(of: [.matrix])
        case .polyline, .snappedWaypoints, .routeNearPoints, .bboxCoversPoints, .distanceMatchesGeometry, .instructions,
             .instructionTotals, .viaPoints:
            return Self.endpoints(of: [.route, .tsp])
        }
    }

    private static func endpoints(of families: Set<APIFamily>) -> Set<VMEndpoint> {
        Set(VMEndpoint.allCases.filter { families.contains($0.family) })
    }

    /// What the check asserts (for reports and the corpus documentation).
    package var summary: String {
        switch self {
        case .nonEmpty: return "at least one item"
        case .reverseEchoesPoint: return "at least one item; every item's (and variant's) lat/lng is the requested point"
        case .bothFormats: return "display_type 4: items come in pairs for one place, a new-format item then an old-format one"
        case .matrixDimensions: return "durations and distances: one row per source, one cell per destination (all points when not given), null in the same cells, 0 where a source is its destination"
        case .maxTenItems: return "at most 10 items"
        case .newFormat: return "new (2025) format: no district (type 1) boundary (migrate-address: the one object)"
        case .oldFormat: return "old format: items carry a district (type 1) boundary (migrate-address: the one object)"
        case .dataOld: return "display_type 5: items carry data_old in the old format, data_new null"
        case .dataNew: return "display_type 6: items carry data_new in the new format, data_old null"
        case .distanceZeroWithoutFocus: return "distance is 0 without focus"
        case .insideVietnam: return "lat/lng present and inside Vietnam (lat 8–23.5, lng 102–117.9 incl. islands)"
        case .placeNewFormat: return "district_id 0 and district \"\" (new format)"
        case .placeOldFormat: return "district_id and district set (old format)"
        case .polyline: return "points decode strictly and with the reference decodePolyline, to ≥ 2 points in range"
        case .snappedWaypoints: return "one snapped waypoint per requested point, each near it and on the route ends"
        case .routeNearPoints: return "the route starts/ends within \(Int(SemanticChecks.nearMeters)) m of the first/last requested point"
        case .bboxCoversPoints: return "bbox [minLon,minLat,maxLon,maxLat] contains every point"
        case .distanceMatchesGeometry: return "distance ≈ sum of the segment lengths (±3 % or 15 m)"
        case .instructions: return "intervals inside the points, in order, first at 0; last instruction sign 4 (finish) at the last point, 0 m, 0 ms"
        case .instructionTotals: return "instruction distances and times add up to the path's (±1 %, 2 m / 1 s)"
        case .viaPoints: return "one sign-5 instruction per via point"
        }
    }
}

/// A failed semantic check: where and why.
package struct CheckFailure: Sendable, Equatable {
    package var check: SemanticCheck
    package var pointer: String
    package var reason: String
}

enum SemanticChecks {
    static let nearMeters = 1_000.0
    static let vietnamLat = 8.0...23.5
    static let vietnamLng = 102.0...117.9

    /// Runs `checks` on an answer of `endpoint` to a request with `parameters`.
    static func run(_ checks: [SemanticCheck], endpoint: VMEndpoint, body: JSONValue, parameters: [(name: String, value: String)]) -> [CheckFailure] {
        var failures: [CheckFailure] = []
        for check in checks {
            for (pointer, reason) in run(check, family: endpoint.family, body: body, parameters: parameters) {
                failures.append(CheckFailure(check: check, pointer: pointer, reason: reason))
            }
        }
        return failures
    }

    private static func run(_ check: SemanticCheck, family: APIFamily, body: JSONValue,
                            parameters: [(name: String, value: String)]) -> [(String, String)] {
        switch family {
        case .autocomplete, .search: return autocomplete(check, body)
        case .place: return place(check, body)
        case .route, .tsp: return route(check, body, requested: parameters.filter { $0.name == "point" }.compactMap { LatLng(latLng: $0.value) })
        case .reverse:
            switch check {
            case .reverseEchoesPoint, .bothFormats: return ReverseChecks.run(check, body, parameters: parameters)
            default: return autocomplete(check, body)
            }
        case .matrix: return MatrixChecks.run(check, body, parameters: parameters)
        case .directions, .map: return []  // no semantic check names these families
        case .migrateAddress:
            // One object: checked as a one-item list.
            guard case .object = body else { return [("", "expected an object, got \(body.typeName)")] }
            return autocomplete(check, .array([body])).map { (pointer, reason) in
                (pointer.hasPrefix("/0") ? String(pointer.dropFirst(2)) : pointer, reason)
            }
        }
    }

    /// The first value of a parameter under any of `names` (documented name first), as sent.
    static func value(_ names: [String], in parameters: [(name: String, value: String)]) -> String? {
        for name in names { if let found = parameters.first(where: { $0.name == name && !$0.value.isEmpty }) { return found.value } }
        return nil
    }

    static func boundaryTypesOf(_ item: JSONValue?) -> [Int] { boundaryTypes(item) }

    // MARK: autocomplete

    private static func boundaryTypes(_ item: JSONValue?) -> [Int] {
        item?["boundaries"]?.arrayValue?.compactMap { $0["type"]?.intValue } ?? []
    }

    private static func autocomplete(_ check: SemanticCheck, _ body: JSONValue) -> [(String, String)] {
        guard let items = body.arrayValue else { return [("", "expected an array of items, got \(body.typeName)")] }
        switch check {
        case .nonEmpty:
            return items.isEmpty ? [("", "no item (expected at least one)")] : []
        case .maxTenItems:
            return items.count > 10 ? [("", "\(items.count) items (at most 10)")] : []
        case .newFormat:
            return items.enumerated().compactMap { i, item in
                boundaryTypes(item).contains(1) ? ("/\(i)/boundaries", "district (type 1) boundary in a new-format item") : nil
            }
        case .oldFormat:
            guard !items.isEmpty else { return [("", "no item to check")] }
            return items.contains { boundaryTypes($0).contains(1) } ? [] : [("", "no item has a district (type 1) boundary")]
        case .dataOld, .dataNew:
            let (present, absent) = check == .dataOld ? ("data_old", "data_new") : ("data_new", "data_old")
            var out: [(String, String)] = []
            var found = false
            for (i, item) in items.enumerated() {
                if let other = item[absent], !other.isNull { out.append(("/\(i)/\(absent)", "\(absent) should be null with this display_type")) }
                guard let variant = item[present], case .object = variant else { continue }
                found = true
                let hasDistrict = boundaryTypes(variant).contains(1)
                if check == .dataNew && hasDistrict { out.append(("/\(i)/data_new/boundaries", "data_new has a district boundary (not the new format)")) }
                if check == .dataOld && !hasDistrict && boundaryTypes(variant).count > 1 {
                    out.append(("/\(i)/data_old/boundaries", "data_old has no district boundary (not the old format)"))
                }
            }
            if !found { out.append(("", "no item carries \(present)")) }
            return out
        case .distanceZeroWithoutFocus:
            return items.enumerated().compactMap { i, item in
                item["distance"]?.doubleValue.map { $0 != 0 } == true ? ("/\(i)/distance", "distance \(item["distance"]!.doubleValue!) without focus (expected 0)") : nil
            }
        default:
            return []
        }
    }

    // MARK: place

    private static func place(_ check: SemanticCheck, _ body: JSONValue) -> [(String, String)] {
        guard case .object = body else { return [("", "expected an object, got \(body.typeName)")] }
        switch check {
        case .insideVietnam:
            var out: [(String, String)] = []
            guard let lat = body["lat"]?.doubleValue else { return [("/lat", "no numeric lat (\(body["lat"].map { JSONSerializer.string($0) } ?? "absent"))")] }
            guard let lng = body["lng"]?.doubleValue else { return [("/lng", "no numeric lng (\(body["lng"].map { JSONSerializer.string($0) } ?? "absent"))")] }
            if !vietnamLat.contains(lat) { out.append(("/lat", "lat \(lat) is outside Vietnam (\(vietnamLat.lowerBound)…\(vietnamLat.upperBound))")) }
            if !vietnamLng.contains(lng) { out.append(("/lng", "lng \(lng) is outside Vietnam (\(vietnamLng.lowerBound)…\(vietnamLng.upperBound))")) }
            return out
        case .placeNewFormat:
            var out: [(String, String)] = []
            if body["district_id"]?.intValue != 0 { out.append(("/district_id", "district_id should be 0 in the new format")) }
            if body["district"]?.stringValue != "" { out.append(("/district", "district should be \"\" in the new format")) }
            return out
        case .placeOldFormat:
            var out: [(String, String)] = []
            if (body["district_id"]?.intValue ?? 0) == 0 { out.append(("/district_id", "district_id should be set in the old format")) }
            if (body["district"]?.stringValue ?? "").isEmpty { out.append(("/district", "district should be set in the old format")) }
            return out
        default:
            return []
        }
    }

    // MARK: route

    private static func route(_ check: SemanticCheck, _ body: JSONValue, requested: [LatLng]) -> [(String, String)] {
        guard let paths = body["paths"]?.arrayValue, !paths.isEmpty else {
            return [("/paths", "no path to check (paths is \(body["paths"].map { JSONSerializer.string($0).prefix(20) } ?? "absent"))")]
        }
        var out: [(String, String)] = []
        for (index, path) in paths.enumerated() {
            let at = "/paths/\(index)"
            out += routePath(check, path, at: at, requested: requested)
        }
        return out
    }

    private static func routePath(_ check: SemanticCheck, _ path: JSONValue, at: String, requested: [LatLng]) -> [(String, String)] {
        let geometry = RouteGeometry.points(path["points"], name: "points")
        if check == .polyline {
            switch geometry {
            case .failure(let problem): return [("\(at)/points", problem.description)]
            case .success(let points): return points.count < 2 ? [("\(at)/points", "\(points.count) point(s); a route needs at least 2")] : []
            }
        }
        guard case .success(let points) = geometry, !points.isEmpty else {
            return [("\(at)/points", "cannot check: points cannot be read")]
        }
        switch check {
        case .snappedWaypoints:
            switch RouteGeometry.points(path["snapped_waypoints"], name: "snapped_waypoints") {
            case .failure(let problem): return [("\(at)/snapped_waypoints", problem.description)]
            case .success(let snapped):
                var out: [(String, String)] = []
                if !requested.isEmpty && snapped.count != requested.count {
                    out.append(("\(at)/snapped_waypoints", "\(snapped.count) snapped waypoints for \(requested.count) requested points"))
                }
                for (i, (s, r)) in zip(snapped, requested).enumerated() where s.distance(to: r) > nearMeters {
                    out.append(("\(at)/snapped_waypoints", "waypoint \(i) snapped \(Int(s.distance(to: r))) m from the requested point (> \(Int(nearMeters)) m)"))
                }
                if let first = snapped.first, first.distance(to: points[0]) > 5 {
                    out.append(("\(at)/snapped_waypoints", "first snapped waypoint is \(Int(first.distance(to: points[0]))) m from the route start"))
                }
                if let last = snapped.last, last.distance(to: points[points.count - 1]) > 5 {
                    out.append(("\(at)/snapped_waypoints", "last snapped waypoint is \(Int(last.distance(to: points[points.count - 1]))) m from the route end"))
                }
                return out
            }
        case .routeNearPoints:
            guard let first = requested.first, let last = requested.last else { return [] }
            var out: [(String, String)] = []
            let start = points[0].distance(to: first), end = points[points.count - 1].distance(to: last)
            if start > nearMeters { out.append(("\(at)/points", "route starts \(Int(start)) m from the requested origin (> \(Int(nearMeters)) m)")) }
            if end > nearMeters { out.append(("\(at)/points", "route ends \(Int(end)) m from the requested destination (> \(Int(nearMeters)) m)")) }
            return out
        case .bboxCoversPoints:
            guard let bbox = path["bbox"]?.arrayValue?.compactMap(\.doubleValue), bbox.count == 4 else {
                return [("\(at)/bbox", "bbox is not 4 numbers")]
            }
            let eps = 1.1e-5
            for (i, p) in points.enumerated()
            where p.lng < bbox[0] - eps || p.lat < bbox[1] - eps || p.lng > bbox[2] + eps || p.lat > bbox[3] + eps {
                return [("\(at)/bbox", "point \(i) (\(p.lat),\(p.lng)) is outside bbox \(bbox)")]
            }
            return []
        case .distanceMatchesGeometry:
            guard let distance = path["distance"]?.doubleValue else { return [("\(at)/distance", "no numeric distance")] }
            let sum = zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
            let tolerance = max(0.03 * distance, 15)
            return abs(sum - distance) > tolerance
                ? [("\(at)/distance", "distance \(distance) m but the points add up to \(Int(sum.rounded())) m (tolerance \(Int(tolerance)) m)")] : []
        case .instructions:
            guard let instructions = path["instructions"]?.arrayValue, !instructions.isEmpty else {
                return [("\(at)/instructions", "no instructions")]
            }
            var out: [(String, String)] = []
            var previousStart = 0
            for (i, instruction) in instructions.enumerated() {
                guard let interval = instruction["interval"]?.arrayValue?.compactMap(\.intValue), interval.count == 2 else {
                    out.append(("\(at)/instructions/\(i)/interval", "interval is not two integers"))
                    continue
                }
                if interval[0] < 0 || interval[1] < interval[0] || interval[1] >= points.count {
                    out.append(("\(at)/instructions/\(i)/interval", "interval \(interval) is not inside the \(points.count) points"))
                }
                if i == 0 && interval[0] != 0 { out.append(("\(at)/instructions/0/interval", "the first instruction starts at \(interval[0]), not 0")) }
                if interval[0] < previousStart { out.append(("\(at)/instructions/\(i)/interval", "interval \(interval) starts before the previous one")) }
                previousStart = interval[0]
            }
            let last = instructions[instructions.count - 1]
            let lastAt = "\(at)/instructions/\(instructions.count - 1)"
            if last["sign"]?.intValue != 4 { out.append(("\(lastAt)/sign", "the last instruction has sign \(last["sign"].map { JSONSerializer.string($0) } ?? "none"), expected 4 (finish)")) }
            if let interval = last["interval"]?.arrayValue?.compactMap(\.intValue), interval != [points.count - 1, points.count - 1] {
                out.append(("\(lastAt)/interval", "the finish interval is \(interval), expected [\(points.count - 1), \(points.count - 1)]"))
            }
            if let d = last["distance"]?.doubleValue, d != 0 { out.append(("\(lastAt)/distance", "the finish has distance \(d), expected 0")) }
            if let t = last["time"]?.doubleValue, t != 0 { out.append(("\(lastAt)/time", "the finish has time \(t), expected 0")) }
            return out
        case .instructionTotals:
            guard let instructions = path["instructions"]?.arrayValue else { return [("\(at)/instructions", "no instructions")] }
            var out: [(String, String)] = []
            let distance = instructions.compactMap { $0["distance"]?.doubleValue }.reduce(0, +)
            if let total = path["distance"]?.doubleValue, abs(distance - total) > max(0.01 * total, 2) {
                out.append(("\(at)/instructions", "instruction distances add up to \(distance) m, the path has \(total) m"))
            }
            let time = instructions.compactMap { $0["time"]?.doubleValue }.reduce(0, +)
            if let total = path["time"]?.doubleValue, abs(time - total) > max(0.01 * total, 1000) {
                out.append(("\(at)/instructions", "instruction times add up to \(Int(time)) ms, the path has \(Int(total)) ms"))
            }
            return out
        case .viaPoints:
            let vias = max(0, requested.count - 2)
            let signs = path["instructions"]?.arrayValue?.filter { $0["sign"]?.intValue == 5 }.count ?? 0
            return signs == vias ? [] : [("\(at)/instructions", "\(signs) via (sign 5) instructions for \(vias) via points")]
        default:
            return []
        }
    }
}
