import Foundation
import JSON
import Polyline
import Routing
import VietMapWire

/// A `Route` as a Mapbox Directions v5 answer (`code: Ok`), written as bytes (`JSONWriter`): the keys
/// and JSON types the navigation SDKs' parsers read (`maps-sdk-directions-ios`, `mapbox-directions-swift`).
/// One v4 instruction is one step; a leg's steps run from `depart` to `arrive` and their distances sum
/// to the leg's.
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

    func answer(_ route: Route, waypoints: [Waypoint], uuid: String) -> [UInt8] {
        let perStep = 400 + (query.voiceInstructions ? 600 : 0) + (query.bannerInstructions ? 300 : 0)
        var writer = JSONWriter(capacity: 1_024 + route.points.count * (query.geometry == .geojson ? 60 : 16)
                                    + (query.steps ? route.instructions.count * perStep : 0))
        writer.beginObject()
        writer.member("code", DirectionsCode.ok.rawValue)
        writer.member("uuid", uuid)
        writer.key("routes")
        writer.beginArray()
        self.route(route, into: &writer)
        writer.endArray()
        writer.key("waypoints")
        writer.beginArray()
        for waypoint in waypoints {
            writer.beginObject()
            writer.member("name", waypoint.name)
            writer.key("location")
            Self.location(waypoint.location, into: &writer)
            writer.member("distance", number: Self.round1(waypoint.distance))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    func route(_ route: Route, into writer: inout JSONWriter) {
        writer.beginObject()
        if query.includesOverview {
            writer.key("geometry")
            geometry(route.points[...], into: &writer)
        }
        writer.key("legs")
        writer.beginArray()
        var remaining = route.instructions[...]
        for leg in route.legs {
            // A leg's instructions end with its via (sign 5) or finish (4) instruction.
            let end = remaining.firstIndex { $0.sign == Instruction.reachedVia || $0.sign == Instruction.finish } ?? remaining.endIndex
            let instructions = remaining[..<min(end + 1, remaining.endIndex)]
            remaining = remaining[instructions.endIndex...]
            self.leg(leg, instructions: Array(instructions), points: route.points, into: &writer)
        }
        writer.endArray()
        writer.member("weight_name", "routability")
        writer.member("weight", number: Self.round1(route.weight))
        writer.member("duration", number: Self.round1(Double(route.time) / 1000))
        writer.member("distance", number: Self.round1(route.distance))
        writer.member("voiceLocale", Self.voiceLocale)
        writer.endObject()
    }

    /// The text is Vietnamese whatever `language` asks.
    static let voiceLocale = "vi"

    func leg(_ leg: RouteLeg, instructions: [Instruction], points: [GeoPoint], into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("summary", summary(instructions))
        writer.member("weight", number: Self.round1(leg.weight))
        writer.member("duration", number: Self.round1(Double(leg.time) / 1000))
        writer.key("steps")
        writer.beginArray()
        if query.steps {
            var previousName = ""
            for (k, instruction) in instructions.enumerated() {
                let position: DirectionsManeuver.Position = k == 0 ? .first : (k == instructions.count - 1 ? .last : .middle)
                let next = k + 1 < instructions.count ? instructions[k + 1] : nil
                step(instruction, position: position, next: next, nextPosition: k + 2 == instructions.count ? .last : .middle,
                     points: points, previousName: previousName, into: &writer)
                previousName = Self.roadName(instruction.streetName).isEmpty ? previousName : Self.roadName(instruction.streetName)
            }
        }
        writer.endArray()
        writer.member("distance", number: Self.round1(leg.distance))
        if !query.annotations.isEmpty {
            writer.key("annotation")
            annotation(leg, instructions: instructions, points: points, into: &writer)
        }
        writer.endObject()
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
              nextPosition: DirectionsManeuver.Position, points: [GeoPoint], previousName: String, into writer: inout JSONWriter) {
        let first = instruction.interval.lowerBound, last = instruction.interval.upperBound
        let here = points[first]
        let before: Double? = position == .first || first == 0 ? nil : Self.azimuth(points[first - 1], here)
        let after: Double? = position == .last || first + 1 >= points.count ? nil : Self.azimuth(here, points[first + 1])
        let maneuver = DirectionsManeuver(instruction, position: position, turn: roundaboutTurn(instruction, before: before, points: points))
        let name = position == .last ? previousName : Self.roadName(instruction.streetName)
        let geometryPoints = position == .last ? [here, here][...] : points[first...max(first, last)]
        let duration = Double(instruction.time) / 1000
        writer.beginObject()
        writer.key("intersections")
        writer.beginArray()
        intersection(here, node: instruction.node, before: before, after: after, isEnd: position != .middle, into: &writer)
        writer.endArray()
        writer.member("driving_side", "right")
        writer.key("geometry")
        geometry(geometryPoints, into: &writer)
        writer.member("mode", Self.mode(query.vehicle))
        writer.key("maneuver")
        writer.beginObject()
        writer.member("bearing_after", Int((after ?? 0).rounded()) % 360)
        writer.member("bearing_before", Int((before ?? 0).rounded()) % 360)
        writer.key("location")
        Self.location(here, into: &writer)
        if let modifier = maneuver.modifier { writer.member("modifier", modifier) }
        writer.member("type", maneuver.type)
        writer.member("instruction", instruction.text)
        if maneuver.type == "roundabout" || maneuver.type == "exit roundabout", let exit = instruction.exitNumber {
            writer.member("exit", exit)
        }
        writer.endObject()
        writer.member("weight", number: Self.round1(duration))
        writer.member("duration", number: Self.round1(duration))
        writer.member("name", name)
        writer.member("distance", number: Self.round1(instruction.distance))
        if query.voiceInstructions {
            writer.key("voiceInstructions")
            writer.beginArray()
            if let next, position != .last {
                for a in DirectionsGuidance.announcements(length: instruction.distance, next: next.text, imperial: query.imperialUnits,
                                                          isDeparture: position == .first, current: instruction.text) {
                    writer.beginObject()
                    writer.member("distanceAlongGeometry", number: Self.round1(a.distanceBefore))
                    writer.member("announcement", a.text)
                    writer.member("ssmlAnnouncement", DirectionsGuidance.ssml(a.text))
                    writer.endObject()
                }
            }
            writer.endArray()
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
            writer.key("bannerInstructions")
            writer.beginArray()
            writer.beginObject()
            writer.member("distanceAlongGeometry", number: Self.round1(shown.2))
            writer.key("primary")
            writer.beginObject()
            writer.member("text", shown.0.text)
            writer.key("components")
            writer.beginArray()
            writer.beginObject()
            writer.member("text", shown.0.text)
            writer.member("type", "text")
            writer.endObject()
            writer.endArray()
            writer.member("type", shown.1.type)
            if let modifier = shown.1.modifier { writer.member("modifier", modifier) }
            writer.endObject()
            writer.key("secondary")
            writer.null()
            writer.key("sub")
            writer.null()
            writer.endObject()
            writer.endArray()
        }
        writer.endObject()
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
    func intersection(_ here: GeoPoint, node: Int?, before: Double?, after: Double?, isEnd: Bool, into writer: inout JSONWriter) {
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
                Self.intersection(here, bearings: roads.map(\.bearing),
                                  entry: roads.indices.map { roads[$0].canLeave || $0 == outIndex },
                                  in: inIndex, out: outIndex, into: &writer)
                return
            }
        }
        var bearings: [(value: Int, isIn: Bool)] = []
        if let before { bearings.append(((Int(before.rounded()) + 180) % 360, true)) }
        if let after { bearings.append((Int(after.rounded()) % 360, false)) }
        if bearings.isEmpty { bearings.append((0, false)) }
        bearings.sort { $0.value < $1.value }
        Self.intersection(here, bearings: bearings.map(\.value), entry: bearings.map { !$0.isIn },
                          in: before == nil ? nil : bearings.firstIndex(where: \.isIn),
                          out: after == nil ? nil : bearings.firstIndex(where: { !$0.isIn }), into: &writer)
    }

    /// One intersection object, keys in the live order: `location`, `bearings`, `entry`, then `in` and `out` when known.
    private static func intersection(_ here: GeoPoint, bearings: [Int], entry: [Bool], in inIndex: Int?, out outIndex: Int?,
                                     into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("location")
        location(here, into: &writer)
        writer.key("bearings")
        writer.beginArray()
        for bearing in bearings { writer.integer(bearing) }
        writer.endArray()
        writer.key("entry")
        writer.beginArray()
        for value in entry { writer.bool(value) }
        writer.endArray()
        if let inIndex { writer.member("in", inIndex) }
        if let outIndex { writer.member("out", outIndex) }
        writer.endObject()
    }

    /// Per segment of the leg's line: metres, seconds (each step's time spread over its segments by
    /// length), metres per second, and `unknown` congestion (the simulator has no traffic).
    func annotation(_ leg: RouteLeg, instructions: [Instruction], points: [GeoPoint], into writer: inout JSONWriter) {
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
        writer.beginObject()
        for name in query.annotations {
            switch name {
            case "distance":
                writer.key(name)
                writer.beginArray()
                for distance in distances { writer.number(Self.round1(distance)) }
                writer.endArray()
            case "duration":
                writer.key(name)
                writer.beginArray()
                for duration in durations { writer.number(Self.round1(duration)) }
                writer.endArray()
            case "speed":
                writer.key(name)
                writer.beginArray()
                for (distance, duration) in zip(distances, durations) { writer.number(duration > 0 ? Self.round1(distance / duration) : 0) }
                writer.endArray()
            case "congestion":
                writer.key(name)
                writer.beginArray()
                for _ in distances { writer.string("unknown") }
                writer.endArray()
            default: break
            }
        }
        writer.endObject()
    }

    /// A line in the asked encoding: polyline6/polyline (latitude first) or GeoJSON ([lng, lat]).
    func geometry(_ points: ArraySlice<GeoPoint>, into writer: inout JSONWriter) {
        switch query.geometry {
        case .polyline6, .polyline:
            let scale = query.geometry == .polyline6 ? 1e6 : 1e5
            let units = points.map { (Int(($0.latitude * scale).rounded()), Int(($0.longitude * scale).rounded())) }
            // Coordinates come from the graph (valid lat/lng), so encoding cannot fail.
            writer.string((try? Polyline.encode(units: units)) ?? "")
        case .geojson:
            writer.beginObject()
            writer.member("type", "LineString")
            writer.key("coordinates")
            writer.beginArray()
            for point in points { Self.location(point, into: &writer) }
            writer.endArray()
            writer.endObject()
        }
    }

    /// `[lng, lat]`, 6 decimals.
    static func location(_ p: GeoPoint, into writer: inout JSONWriter) {
        writer.beginArray()
        writer.number((p.longitude * 1e6).rounded() / 1e6)
        writer.number((p.latitude * 1e6).rounded() / 1e6)
        writer.endArray()
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
