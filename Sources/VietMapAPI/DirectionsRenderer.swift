import Foundation
import JSON
import Polyline
import Routing
import VietMapWire

/// A `Route` as a Mapbox Directions v5 answer (`code: Ok`): the keys and JSON types the navigation
/// SDKs' parsers read (`maps-sdk-directions-ios`, `mapbox-directions-swift`). One v4 instruction is
/// one step; a leg's steps run from `depart` to `arrive` and their distances sum to the leg's.
struct DirectionsRenderer {
    let query: DirectionsQuery
    /// For the roads at each maneuver's junction (`intersections`).
    let graph: RoadGraph

    /// A snapped waypoint: the road's name (or the asked one) and where it lies.
    struct Waypoint {
        var name: String
        var location: GeoPoint
        /// Metres from the requested coordinate.
        var distance: Double
    }

    func response(_ route: Route, waypoints: [Waypoint], uuid: String) -> JSONValue {
        .object(JSONObject([
            ("code", .string(DirectionsCode.ok.rawValue)),
            ("uuid", .string(uuid)),
            ("routes", .array([self.route(route)])),
            ("waypoints", .array(waypoints.map { w in
                .object(JSONObject([("name", .string(w.name)), ("location", Self.location(w.location)),
                                    ("distance", .number(Self.round1(w.distance)))]))
            })),
        ]))
    }

    func route(_ route: Route) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if query.includesOverview { members.append(("geometry", geometry(route.points[...]))) }
        var legs: [JSONValue] = []
        var remaining = route.instructions[...]
        for (index, leg) in route.legs.enumerated() {
            // A leg's instructions end with its via (sign 5) or finish (4) instruction.
            let end = remaining.firstIndex { $0.sign == Instruction.reachedVia || $0.sign == Instruction.finish } ?? remaining.endIndex
            let instructions = remaining[..<min(end + 1, remaining.endIndex)]
            remaining = remaining[instructions.endIndex...]
            legs.append(self.leg(leg, index: index, instructions: Array(instructions), points: route.points))
        }
        members += [
            ("legs", .array(legs)),
            ("weight_name", "routability"),
            ("weight", .number(Self.round1(route.weight))),
            ("duration", .number(Self.round1(Double(route.time) / 1000))),
            ("distance", .number(Self.round1(route.distance))),
            ("voiceLocale", .string(Self.voiceLocale)),
        ]
        return .object(JSONObject(members))
    }

    /// The text is Vietnamese whatever `language` asks.
    static let voiceLocale = "vi"

    func leg(_ leg: RouteLeg, index: Int, instructions: [Instruction], points: [GeoPoint]) -> JSONValue {
        var steps: [JSONValue] = []
        if query.steps {
            var previousName = ""
            for (k, instruction) in instructions.enumerated() {
                let position: DirectionsManeuver.Position = k == 0 ? .first : (k == instructions.count - 1 ? .last : .middle)
                let next = k + 1 < instructions.count ? instructions[k + 1] : nil
                let step = self.step(instruction, position: position, next: next, nextPosition: k + 2 == instructions.count ? .last : .middle,
                                     points: points, previousName: previousName)
                previousName = Self.roadName(instruction.streetName).isEmpty ? previousName : Self.roadName(instruction.streetName)
                steps.append(step)
            }
        }
        var members: [(String, JSONValue)] = [
            ("summary", .string(summary(instructions))),
            ("weight", .number(Self.round1(leg.weight))),
            ("duration", .number(Self.round1(Double(leg.time) / 1000))),
            ("steps", .array(steps)),
            ("distance", .number(Self.round1(leg.distance))),
        ]
        if !query.annotations.isEmpty {
            members.append(("annotation", annotation(leg, instructions: instructions, points: points)))
        }
        return .object(JSONObject(members))
    }

    /// The two longest named roads of the leg, in route order (as Mapbox summarises a leg).
    func summary(_ instructions: [Instruction]) -> String {
        var lengths: [String: Double] = [:]
        var order: [String] = []
        for i in instructions {
            let name = Self.roadName(i.streetName)
            guard !name.isEmpty else { continue }
            if lengths[name] == nil { order.append(name) }
            lengths[name, default: 0] += i.distance
        }
        let top = Set(order.sorted { lengths[$0]! > lengths[$1]! }.prefix(2))
        return order.filter(top.contains).joined(separator: ", ")
    }

    func step(_ instruction: Instruction, position: DirectionsManeuver.Position, next: Instruction?,
              nextPosition: DirectionsManeuver.Position, points: [GeoPoint], previousName: String) -> JSONValue {
        let first = instruction.interval.lowerBound, last = instruction.interval.upperBound
        let here = points[first]
        let before: Double? = position == .first || first == 0 ? nil : Self.azimuth(points[first - 1], here)
        let after: Double? = position == .last || first + 1 >= points.count ? nil : Self.azimuth(here, points[first + 1])
        let maneuver = DirectionsManeuver(instruction, position: position, turn: roundaboutTurn(instruction, before: before, points: points))
        var maneuverMembers: [(String, JSONValue)] = [
            ("bearing_after", .integer(Int((after ?? 0).rounded()) % 360)),
            ("bearing_before", .integer(Int((before ?? 0).rounded()) % 360)),
            ("location", Self.location(here)),
        ]
        if let modifier = maneuver.modifier { maneuverMembers.append(("modifier", .string(modifier))) }
        maneuverMembers.append(("type", .string(maneuver.type)))
        maneuverMembers.append(("instruction", .string(instruction.text)))
        if maneuver.type == "roundabout" || maneuver.type == "exit roundabout", let exit = instruction.exitNumber {
            maneuverMembers.append(("exit", .integer(exit)))
        }
        let name = position == .last ? previousName : Self.roadName(instruction.streetName)
        let geometryPoints = position == .last ? [here, here][...] : points[first...max(first, last)]
        let duration = Double(instruction.time) / 1000
        var members: [(String, JSONValue)] = [
            ("intersections", .array([intersection(here, node: instruction.node, before: before, after: after, isEnd: position != .middle)])),
            ("driving_side", "right"),
            ("geometry", geometry(geometryPoints)),
            ("mode", .string(Self.mode(query.vehicle))),
            ("maneuver", .object(JSONObject(maneuverMembers))),
            ("weight", .number(Self.round1(duration))),
            ("duration", .number(Self.round1(duration))),
            ("name", .string(name)),
            ("distance", .number(Self.round1(instruction.distance))),
        ]
        if query.voiceInstructions {
            var spoken: [JSONValue] = []
            if let next, position != .last {
                for a in DirectionsGuidance.announcements(length: instruction.distance, next: next.text, imperial: query.imperialUnits,
                                                          isDeparture: position == .first, current: instruction.text) {
                    spoken.append(.object(JSONObject([
                        ("distanceAlongGeometry", .number(Self.round1(a.distanceBefore))),
                        ("announcement", .string(a.text)),
                        ("ssmlAnnouncement", .string(DirectionsGuidance.ssml(a.text))),
                    ])))
                }
            }
            members.append(("voiceInstructions", .array(spoken)))
        }
        if query.bannerInstructions {
            // A step's banner shows the maneuver that ends it; the arrive step shows its own.
            let shown: (Instruction, DirectionsManeuver, Double)
            if let next, position != .last {
                let nextFirst = next.interval.lowerBound
                let nextBefore = nextFirst > 0 ? Self.azimuth(points[nextFirst - 1], points[nextFirst]) : nil
                shown = (next, DirectionsManeuver(next, position: nextPosition, turn: roundaboutTurn(next, before: nextBefore, points: points)),
                         instruction.distance)
            } else {
                shown = (instruction, maneuver, 0)
            }
            var primary: [(String, JSONValue)] = [
                ("text", .string(shown.0.text)),
                ("components", .array([.object(JSONObject([("text", .string(shown.0.text)), ("type", "text")]))])),
                ("type", .string(shown.1.type)),
            ]
            if let modifier = shown.1.modifier { primary.append(("modifier", .string(modifier))) }
            members.append(("bannerInstructions", .array([.object(JSONObject([
                ("distanceAlongGeometry", .number(Self.round1(shown.2))),
                ("primary", .object(JSONObject(primary))),
                ("secondary", .null),
                ("sub", .null),
            ]))])))
        }
        return .object(JSONObject(members))
    }

    /// For roundabout instructions: the heading change from entering to the step's last segment.
    func roundaboutTurn(_ instruction: Instruction, before: Double?, points: [GeoPoint]) -> Double? {
        guard instruction.sign == Instruction.useRoundabout || instruction.sign == Instruction.leaveRoundabout,
              let before, instruction.interval.upperBound > instruction.interval.lowerBound else { return nil }
        let last = instruction.interval.upperBound
        var delta = Self.azimuth(points[last - 1], points[last]) - before
        while delta > 180 { delta -= 360 }
        while delta <= -180 { delta += 360 }
        return delta
    }

    /// The maneuver point as an intersection. At a junction of the graph (turns, name changes,
    /// roundabouts): every road there (`NodeRoad`), ascending, `entry` = the vehicle may leave along it,
    /// `in` = the road arrived by, `out` = the road taken. Elsewhere (a snapped depart/arrive point
    /// inside a road): the arriving and leaving bearings only.
    func intersection(_ here: GeoPoint, node: Int?, before: Double?, after: Double?, isEnd: Bool) -> JSONValue {
        // (The node comes with the instruction: looking it up by its point cost a snap a step.)
        if !isEnd, let before, let after, let node {
            let roads = graph.roads(atNode: node, vehicle: query.vehicle)
                .map { (bearing: Int($0.bearing.rounded()) % 360, canLeave: $0.canLeave) }
                .sorted { $0.bearing < $1.bearing }
            func nearest(_ target: Double) -> Int? {
                func gap(_ b: Int) -> Double { let d = abs(Double(b) - target).truncatingRemainder(dividingBy: 360); return min(d, 360 - d) }
                return roads.indices.min { gap(roads[$0].bearing) < gap(roads[$1].bearing) }
            }
            if roads.count >= 2, let inIndex = nearest((before + 180).truncatingRemainder(dividingBy: 360)), let outIndex = nearest(after),
               inIndex != outIndex {
                return .object(JSONObject([
                    ("location", Self.location(here)),
                    ("bearings", .array(roads.map { .integer($0.bearing) })),
                    ("entry", .array(roads.indices.map { .bool(roads[$0].canLeave || $0 == outIndex) })),
                    ("in", .integer(inIndex)),
                    ("out", .integer(outIndex)),
                ]))
            }
        }
        var bearings: [(value: Int, isIn: Bool)] = []
        if let before { bearings.append(((Int(before.rounded()) + 180) % 360, true)) }
        if let after { bearings.append((Int(after.rounded()) % 360, false)) }
        if bearings.isEmpty { bearings.append((0, false)) }
        bearings.sort { $0.value < $1.value }
        var members: [(String, JSONValue)] = [
            ("location", Self.location(here)),
            ("bearings", .array(bearings.map { .integer($0.value) })),
            ("entry", .array(bearings.map { .bool(!$0.isIn) })),
        ]
        if before != nil, let index = bearings.firstIndex(where: \.isIn) { members.append(("in", .integer(index))) }
        if after != nil, let index = bearings.firstIndex(where: { !$0.isIn }) { members.append(("out", .integer(index))) }
        return .object(JSONObject(members))
    }

    /// Per segment of the leg's line: metres, seconds (each step's time spread over its segments by
    /// length), metres per second, and `unknown` congestion (the simulator has no traffic).
    func annotation(_ leg: RouteLeg, instructions: [Instruction], points: [GeoPoint]) -> JSONValue {
        var distances: [Double] = [], durations: [Double] = []
        for instruction in instructions {
            let range = instruction.interval
            guard range.upperBound > range.lowerBound else { continue }
            let lengths = (range.lowerBound..<range.upperBound).map { Geo.distance(points[$0], points[$0 + 1]) }
            let total = lengths.reduce(0, +)
            let seconds = Double(instruction.time) / 1000
            for length in lengths {
                distances.append(length)
                durations.append(total > 0 ? seconds * length / total : 0)
            }
        }
        var members: [(String, JSONValue)] = []
        for name in query.annotations {
            switch name {
            case "distance": members.append((name, .array(distances.map { .number(Self.round1($0)) })))
            case "duration": members.append((name, .array(durations.map { .number(Self.round1($0)) })))
            case "speed": members.append((name, .array(zip(distances, durations).map { .number($1 > 0 ? Self.round1($0 / $1) : 0) })))
            case "congestion": members.append((name, .array(distances.map { _ in "unknown" })))
            default: break
            }
        }
        return .object(JSONObject(members))
    }

    /// A line in the asked encoding: polyline6/polyline (latitude first) or GeoJSON ([lng, lat]).
    func geometry(_ points: ArraySlice<GeoPoint>) -> JSONValue {
        switch query.geometry {
        case .polyline6, .polyline:
            let scale = query.geometry == .polyline6 ? 1e6 : 1e5
            let units = points.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) }
            // Coordinates come from the graph (valid lat/lng), so encoding cannot fail.
            return .string((try? Polyline.encode(units: units)) ?? "")
        case .geojson:
            return .object(JSONObject([("type", "LineString"), ("coordinates", .array(points.map(Self.location)))]))
        }
    }

    /// `[lng, lat]`, 6 decimals.
    static func location(_ p: GeoPoint) -> JSONValue {
        .array([.number((p.longitude * 1e6).rounded() / 1e6), .number((p.latitude * 1e6).rounded() / 1e6)])
    }

    static func azimuth(_ a: GeoPoint, _ b: GeoPoint) -> Double { Geo.azimuth(a.latitude, a.longitude, b.latitude, b.longitude) }

    /// Route v4's placeholder for unnamed roads is no name in Mapbox's answers.
    static func roadName(_ street: String) -> String { street == "Đường Không Tên" ? "" : street }

    static func mode(_ vehicle: Vehicle) -> String {
        switch vehicle {
        case .bike: return "cycling"
        case .foot: return "walking"
        default: return "driving"
        }
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
