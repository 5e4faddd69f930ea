import Foundation
import JSON
import Polyline
import Routing
import VietMapAPI
import XCTest

/// Directions v5 (`/api/navigations/route/directions/v5/{profile}/{lng,lat;…}.json`) over real HTTP
/// on the default dataset, in the exact shape VietMap's `maps-sdk-directions-ios` builds, against
/// route v4 for the same points and against the key set the SDKs' parsers read.
final class DirectionsV5Tests: XCTestCase {
    let sim = SimulatorHarness.shared
    static let path = "/api/navigations/route/directions/v5"

    /// Routes the tests compare with route v4, (lat, lng) as route v4 takes them: HCMC Q1 (two
    /// short ones and one through a via point) and Hoàn Kiếm.
    static let routes: [[(Double, Double)]] = [
        [(10.7769, 106.7008), (10.7798, 106.6990)],
        [(10.7725, 106.6980), (10.7798, 106.6990)],
        [(10.7769, 106.7008), (10.7725, 106.6980), (10.7798, 106.6990)],
        [(21.0287, 105.8524), (21.0245, 105.8575)],
    ]

    /// The query `maps-sdk-directions-ios` sends (`RouteOptions.params` + `NavigationRouteOptions`'
    /// choices), read off its source.
    static let sdkQuery: [(String, String)] = [
        ("geometries", "polyline6"), ("overview", "full"), ("steps", "true"), ("language", "vi"),
        ("voice_instructions", "true"), ("voice_units", "metric"), ("banner_instructions", "true"),
        ("annotations", "congestion,distance,duration,speed"), ("alternatives", "true"), ("continue_straight", "true"),
        ("apikey", "dev"),
    ]

    func directions(_ points: [(Double, Double)], profile: String = "mapbox/driving-traffic",
                    _ query: [(String, String)] = DirectionsV5Tests.sdkQuery) async throws -> SimulatorHarness.Reply {
        let coordinates = points.map { "\($0.1),\($0.0)" }.joined(separator: ";")
        return try await sim.get("\(Self.path)/\(profile)/\(coordinates).json", query)
    }

    func meters(_ a: (Double, Double), _ b: (Double, Double)) -> Double { haversineKm(a.0, a.1, b.0, b.1) * 1000 }
    func length(_ line: [(Double, Double)]) -> Double { zip(line, line.dropFirst()).map { meters($0, $1) }.reduce(0, +) }

    /// Route v4's line for the same points (lat, lng).
    func routeV4Line(_ points: [(Double, Double)]) async throws -> [(Double, Double)] {
        let reply = try await sim.get("/api/route/v4", [("apikey", "dev")] + points.map { ("point", "\($0.0),\($0.1)") })
        let encoded = try XCTUnwrap(reply.json()["paths"]?[0]?["points"]?.stringValue)
        return try Polyline.decode(encoded, precision: 5).map { ($0.lat, $0.lng) }
    }

    func testTheSDKsRequestFollowsRouteV4sPathWithStepsBannersAndVoice() async throws {
        for points in Self.routes {
            let reply = try await directions(points)
            XCTAssertEqual(reply.status, 200)
            XCTAssertTrue(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let body = try reply.json()
            XCTAssertEqual(body["code"], "Ok")
            XCTAssertEqual(body["uuid"]?.stringValue?.count, 36)
            let route = try XCTUnwrap(body["routes"]?[0])
            XCTAssertEqual(body["waypoints"]?.arrayValue?.count, points.count)
            XCTAssertEqual(route["voiceLocale"], "vi")

            // The same path as route v4 (polyline6 here, polyline 1e5 there).
            let line = try Polyline.decode(try XCTUnwrap(route["geometry"]?.stringValue), precision: 6).map { ($0.lat, $0.lng) }
            let v4 = try await routeV4Line(points)
            let difference = abs(length(line) - length(v4)) / length(v4)
            print("directions-v5 vs route-v4 \(points): \(Int(length(line))) m vs \(Int(length(v4))) m, difference \(difference * 100)%")
            XCTAssertLessThan(difference, 0.02)
            XCTAssertEqual(line.count, v4.count)
            let distance = try XCTUnwrap(route["distance"]?.doubleValue)
            XCTAssertEqual(distance, length(line), accuracy: max(5, length(line) * 0.01))

            let legs = try XCTUnwrap(route["legs"]?.arrayValue)
            XCTAssertEqual(legs.count, points.count - 1)
            XCTAssertEqual(legs.compactMap { $0["distance"]?.doubleValue }.reduce(0, +), distance, accuracy: 0.1 * Double(legs.count))
            for leg in legs {
                let steps = try XCTUnwrap(leg["steps"]?.arrayValue)
                XCTAssertGreaterThanOrEqual(steps.count, 2)
                XCTAssertEqual(steps.first?["maneuver"]?["type"], "depart")
                XCTAssertEqual(steps.last?["maneuver"]?["type"], "arrive")
                for step in steps.dropFirst().dropLast() {
                    XCTAssertFalse(["depart", "arrive"].contains(step["maneuver"]?["type"]?.stringValue ?? ""), "\(step)")
                }
                let legDistance = try XCTUnwrap(leg["distance"]?.doubleValue)
                XCTAssertEqual(steps.compactMap { $0["distance"]?.doubleValue }.reduce(0, +), legDistance, accuracy: 0.05 * Double(steps.count))
                XCTAssertEqual(steps.compactMap { $0["duration"]?.doubleValue }.reduce(0, +), leg["duration"]?.doubleValue ?? -1,
                               accuracy: 0.05 * Double(steps.count))
                // Each step's line starts at its maneuver; the steps' lines join into the leg's.
                for step in steps {
                    let stepLine = try Polyline.decode(try XCTUnwrap(step["geometry"]?.stringValue), precision: 6)
                    let location = try XCTUnwrap(step["maneuver"]?["location"]?.arrayValue?.compactMap(\.doubleValue))
                    XCTAssertLessThan(meters((stepLine[0].lat, stepLine[0].lng), (location[1], location[0])), 0.5)
                }
                // Vietnamese banners and voice.
                let banners = steps.flatMap { $0["bannerInstructions"]?.arrayValue ?? [] }
                XCTAssertEqual(banners.count, steps.count)
                XCTAssertTrue(banners.allSatisfy { ($0["primary"]?["text"]?.stringValue ?? "").contains { "ẽếạđĐốờ".contains($0) } || $0["primary"]?["text"]?.stringValue?.hasPrefix("Quay đầu") == true },
                              "\(banners.map { $0["primary"]?["text"] ?? .null })")
                XCTAssertEqual(banners.last?["primary"]?["type"], "arrive")
                let voices = steps.flatMap { $0["voiceInstructions"]?.arrayValue ?? [] }
                XCTAssertGreaterThanOrEqual(voices.count, steps.count - 1)
                for voice in voices {
                    let text = try XCTUnwrap(voice["announcement"]?.stringValue)
                    XCTAssertEqual(voice["ssmlAnnouncement"]?.stringValue,
                                   "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">\(text)</prosody></amazon:effect></speak>")
                }
                XCTAssertTrue(voices.contains { $0["announcement"]?.stringValue?.contains("đến nơi") == true || $0["announcement"]?.stringValue?.contains("Đến nơi") == true
                    || $0["announcement"]?.stringValue?.contains("điểm trung gian") == true })
                // Annotations: one value per segment of the leg's line.
                let annotation = try XCTUnwrap(leg["annotation"])
                let segments = try XCTUnwrap(annotation["distance"]?.arrayValue?.count)
                XCTAssertEqual(annotation["duration"]?.arrayValue?.count, segments)
                XCTAssertEqual(annotation["speed"]?.arrayValue?.count, segments)
                XCTAssertEqual(annotation["congestion"]?.arrayValue?.count, segments)
            }
            if legs.count == 1 { XCTAssertEqual(legs[0]["annotation"]?["distance"]?.arrayValue?.count, line.count - 1) }
        }
    }

    /// Every key the navigation SDKs' parsers require is in our answer with the JSON type they read,
    /// and every key we send is one the parsers (or the public fixtures) know, with that type.
    func testTheAnswersKeysAndTypesAreTheOnesTheSDKParsersRead() async throws {
        let body = try await directions(Self.routes[2]).json()
        var found: [String: Set<String>] = [:]
        Self.collect(body, "", into: &found)
        for (key, type) in Self.requiredBySDK {
            XCTAssertNotNil(found[key], "missing \(key)")
            if let types = found[key] { XCTAssertEqual(types, [type], key) }
        }
        for (key, types) in found {
            guard let allowed = Self.requiredBySDK[key].map({ [$0] }) ?? Self.optionalInSDK[key] else {
                XCTFail("\(key) is no key the SDK parsers or fixtures know")
                continue
            }
            XCTAssertTrue(types.isSubset(of: allowed), "\(key): \(types) not in \(allowed)")
        }
        // Each geometry format reads to the same line.
        func line(_ format: String) async throws -> [(Double, Double)] {
            let query = Self.sdkQuery.map { $0.0 == "geometries" ? ($0.0, format) : $0 }
            let reply = try await directions(Self.routes[0], query)
            let geometry = try XCTUnwrap(try reply.json()["routes"]?[0]?["geometry"])
            switch format {
            case "geojson": return try XCTUnwrap(geometry["coordinates"]?.arrayValue).map { ($0[1]!.doubleValue!, $0[0]!.doubleValue!) }
            default: return try Polyline.decode(try XCTUnwrap(geometry.stringValue), precision: format == "polyline6" ? 6 : 5).map { ($0.lat, $0.lng) }
            }
        }
        let six = try await line("polyline6"), five = try await line("polyline"), geojson = try await line("geojson")
        XCTAssertEqual(six.count, five.count)
        XCTAssertEqual(six.count, geojson.count)
        XCTAssertEqual(length(six), length(five), accuracy: 2)
        XCTAssertEqual(length(six), length(geojson), accuracy: 0.1)
    }

    /// Key paths (`routes[].legs[]…`) → JSON type (`integer` counted as `number`).
    static func collect(_ value: JSONValue, _ path: String, into found: inout [String: Set<String>]) {
        let type: String
        switch value {
        case .null: type = "null"
        case .bool: type = "bool"
        case .integer, .number: type = "number"
        case .string: type = "string"
        case .array(let items):
            type = "array"
            for item in items { collect(item, path + "[]", into: &found) }
        case .object(let object):
            type = "object"
            for (key, member) in object.members { collect(member, path.isEmpty ? key : path + "." + key, into: &found) }
        }
        if !path.isEmpty { found[path, default: []].insert(type) }
    }

    /// What `maps-sdk-directions-ios` (`as!` casts, `MBRoute`, `MBRouteLeg`, `MBRouteStep`,
    /// `MBIntersection`, `MBVisualInstructionBanner`, `MBSpokenInstruction`, `RouteOptions.response`)
    /// and `mapbox-directions-swift` (`decode`, not `decodeIfPresent`) require, with the type read —
    /// written down from their source (no third-party file is in this repository).
    static let requiredBySDK: [String: String] = {
        let step = "routes[].legs[].steps[]"
        var keys: [String: String] = [
            "code": "string", "uuid": "string", "routes": "array", "waypoints": "array",
            "waypoints[].location": "array", "waypoints[].location[]": "number", "waypoints[].name": "string",
            "routes[].distance": "number", "routes[].duration": "number", "routes[].geometry": "string", "routes[].legs": "array",
            "routes[].weight": "number", "routes[].weight_name": "string", "routes[].voiceLocale": "string",
            "routes[].legs[].distance": "number", "routes[].legs[].duration": "number", "routes[].legs[].summary": "string",
            "routes[].legs[].steps": "array", "routes[].legs[].weight": "number",
        ]
        let stepKeys: [String: String] = [
            "": "object", ".maneuver": "object", ".name": "string", ".mode": "string", ".driving_side": "string", ".distance": "number",
            ".duration": "number", ".weight": "number", ".geometry": "string", ".intersections": "array",
            ".maneuver.location": "array", ".maneuver.location[]": "number", ".maneuver.type": "string", ".maneuver.instruction": "string",
            ".maneuver.bearing_before": "number", ".maneuver.bearing_after": "number",
            ".intersections[]": "object", ".intersections[].location": "array", ".intersections[].location[]": "number",
            ".intersections[].bearings": "array", ".intersections[].bearings[]": "number", ".intersections[].entry": "array",
            ".intersections[].entry[]": "bool",
            ".bannerInstructions": "array", ".bannerInstructions[]": "object", ".bannerInstructions[].distanceAlongGeometry": "number",
            ".bannerInstructions[].primary": "object", ".bannerInstructions[].primary.text": "string",
            ".bannerInstructions[].primary.type": "string", ".bannerInstructions[].primary.components": "array",
            ".bannerInstructions[].primary.components[]": "object", ".bannerInstructions[].primary.components[].text": "string",
            ".bannerInstructions[].primary.components[].type": "string",
            ".voiceInstructions": "array", ".voiceInstructions[]": "object", ".voiceInstructions[].distanceAlongGeometry": "number",
            ".voiceInstructions[].announcement": "string", ".voiceInstructions[].ssmlAnnouncement": "string",
        ]
        for (suffix, type) in stepKeys { keys[step + suffix] = type }
        keys["routes[]"] = "object"; keys["routes[].legs[]"] = "object"; keys["waypoints[]"] = "object"
        return keys
    }()

    /// Keys the parsers read when present (`as?`, `decodeIfPresent`) or the public v5 fixtures hold,
    /// with the types seen there.
    static let optionalInSDK: [String: Set<String>] = {
        let step = "routes[].legs[].steps[]"
        var keys: [String: Set<String>] = [
            "message": ["string"], "waypoints[].distance": ["number"],
            "routes[].legs[].annotation": ["object"],
            "routes[].legs[].annotation.distance": ["array"], "routes[].legs[].annotation.distance[]": ["number"],
            "routes[].legs[].annotation.duration": ["array"], "routes[].legs[].annotation.duration[]": ["number"],
            "routes[].legs[].annotation.speed": ["array"], "routes[].legs[].annotation.speed[]": ["number"],
            "routes[].legs[].annotation.congestion": ["array"], "routes[].legs[].annotation.congestion[]": ["string"],
        ]
        let stepKeys: [String: Set<String>] = [
            ".ref": ["string"], ".destinations": ["string"], ".exits": ["string"], ".rotary_name": ["string"],
            ".maneuver.modifier": ["string"], ".maneuver.exit": ["number"],
            ".intersections[].in": ["number"], ".intersections[].out": ["number"],
            ".bannerInstructions[].primary.modifier": ["string"], ".bannerInstructions[].primary.degrees": ["number"],
            ".bannerInstructions[].secondary": ["null", "object"], ".bannerInstructions[].sub": ["null", "object"],
        ]
        for (suffix, types) in stepKeys { keys[step + suffix] = types }
        return keys
    }()

    func testNoRouteBetweenCities() async throws {
        let reply = try await directions([(10.7769, 106.7008), (21.0287, 105.8524)])
        XCTAssertEqual(reply.status, 200)
        let body = try reply.json()
        XCTAssertEqual(body["code"], "NoRoute")
        XCTAssertFalse(body["message"]?.stringValue?.isEmpty ?? true)
        XCTAssertEqual(body["routes"], .array([]), "mapbox-java's DirectionsResponse requires routes")
    }

    func testBadCoordinatesAreInvalidInputAndAnUnknownProfileIsProfileNotFound() async throws {
        func assertError(_ coordinates: String, profile: String = "mapbox/driving", _ query: [(String, String)] = [("apikey", "dev")],
                         status: Int, code: String, line: UInt = #line) async throws {
            let reply = try await sim.get("\(Self.path)/\(profile)/\(coordinates).json", query)
            XCTAssertEqual(reply.status, status, coordinates, line: line)
            let body = try reply.json()
            XCTAssertEqual(body.objectValue?.keys, status == 200 ? ["code", "message", "routes"] : ["code", "message"], line: line)
            if status == 200 { XCTAssertEqual(body["routes"], .array([]), "mapbox-java requires routes", line: line) }
            XCTAssertEqual(body["code"], .string(code), coordinates, line: line)
            XCTAssertFalse(body["message"]?.stringValue?.isEmpty ?? true, line: line)
        }
        let a = "106.7008,10.7769", b = "106.6990,10.7798"
        try await assertError("\(a);200,10.77", status: 422, code: "InvalidInput")       // longitude out of range
        try await assertError("\(a);106.69,95", status: 422, code: "InvalidInput")       // latitude out of range
        try await assertError(a, status: 422, code: "InvalidInput")                       // one coordinate
        try await assertError("\(a);abc,def", status: 422, code: "InvalidInput")         // unparsable
        try await assertError("\(a);106.69", status: 422, code: "InvalidInput")          // one number
        try await assertError("\(a);;\(b)", status: 422, code: "InvalidInput")           // empty item
        try await assertError("\(a);\(b)", [("apikey", "dev"), ("geometries", "wkt")], status: 422, code: "InvalidInput")
        try await assertError("\(a);\(b)", [("apikey", "dev"), ("bearings", "90,45")], status: 422, code: "InvalidInput")
        try await assertError("\(a);\(b)", [("apikey", "dev"), ("radiuses", "-5;10")], status: 422, code: "InvalidInput")
        try await assertError("\(a);\(b)", [("apikey", "dev"), ("steps", "yes")], status: 422, code: "InvalidInput")
        try await assertError("\(a);\(b)", profile: "mapbox/flying", status: 404, code: "ProfileNotFound")
        try await assertError("\(a);\(b)", profile: "driving", status: 404, code: "ProfileNotFound")
        try await assertError("\(a);\(b)", [], status: 401, code: "InvalidToken")
        // A coordinate 50 km from any road: no segment.
        try await assertError("\(a);107.2,10.5", status: 200, code: "NoSegment")
        // Bytes that are no UTF-8 or numbers never crash the endpoint.
        let raw = try sim.rawGet("\(Self.path)/mapbox/driving/%FF%FE,1;2,%00.json?apikey=dev")
        XCTAssertEqual(raw.status, 422)
    }

    func testEveryProfileRadiusesAndBearings() async throws {
        let points = Self.routes[0]
        for profile in ["mapbox/driving", "mapbox/driving-traffic", "mapbox/cycling", "mapbox/walking", "mapbox/motorcycle"] {
            let body = try await directions(points, profile: profile).json()
            XCTAssertEqual(body["code"], "Ok", profile)
            let mode = body["routes"]?[0]?["legs"]?[0]?["steps"]?[0]?["mode"]?.stringValue
            XCTAssertEqual(mode, profile == "mapbox/cycling" ? "cycling" : profile == "mapbox/walking" ? "walking" : "driving")
        }
        // A point ~60 m off the road: a 5 m radius finds nothing, `unlimited` and 200 m do.
        let off = [(10.7769 + 0.0005, 106.7008 + 0.0003), points[1]]
        let tight = try await directions(off, Self.sdkQuery + [("radiuses", "5;")]).json()
        let unlimited = try await directions(off, Self.sdkQuery + [("radiuses", "unlimited;unlimited")]).json()
        let wide = try await directions(off, Self.sdkQuery + [("radiuses", "200;200")]).json()
        print("radiuses 5: \(tight["code"] ?? .null), unlimited: \(unlimited["code"] ?? .null), 200: \(wide["code"] ?? .null)")
        XCTAssertEqual(unlimited["code"], "Ok")
        XCTAssertEqual(wide["code"], "Ok")
        // Bearings: the reroute shape (heading for the first waypoint, empty for the rest) is honoured
        // when snapping: the waypoint lands on a segment that runs within the tolerance.
        let plain = try await directions(points).json()
        for heading in [0, 90, 180, 270] {
            let body = try await directions(points, Self.sdkQuery + [("bearings", "\(heading),45;")]).json()
            XCTAssertTrue(["Ok", "NoSegment"].contains(body["code"]?.stringValue ?? ""), "\(body["code"] ?? .null)")
            print("bearing \(heading): \(body["code"] ?? .null) first waypoint \(body["waypoints"]?[0]?["location"] ?? .null) (no bearing: \(plain["waypoints"]?[0]?["location"] ?? .null))")
        }
        // …and the route leaves the first waypoint in that direction (the depart step's bearing_after).
        var departures = 0, honoured = 0, arrivals = 0
        var pairs = SeededPairs(seed: 7)
        for _ in 0..<12 {
            let start = pairs.next(), end = pairs.next()
            for heading in [0, 90, 180, 270] {
                let body = try await directions([start, end], Self.sdkQuery + [("bearings", "\(heading),45;")]).json()
                guard body["code"] == "Ok", let after = body["routes"]?[0]?["legs"]?[0]?["steps"]?[0]?["maneuver"]?["bearing_after"]?.doubleValue else { continue }
                // Where the nearest matching road arrives at a junction (the snap is its end, travelled into
                // the junction), the route leaves the junction as it must: no departure to compare.
                let filter = BearingFilter(degrees: Double(heading), tolerance: 45)
                let snap = try XCTUnwrap(sim.service.roadGraph?.snap(latitude: start.0, longitude: start.1, vehicle: .car, bearing: filter))
                if (snap.fraction >= 1 && snap.departsForward == true) || (snap.fraction <= 0 && snap.departsForward == false) {
                    arrivals += 1
                    continue
                }
                departures += 1
                if BearingFilter(degrees: Double(heading), tolerance: 47).accepts(azimuth: after) { honoured += 1 }
            }
        }
        print("bearings: \(honoured) of \(departures) departures leave within the bearing's range (\(arrivals) snaps arrive at a junction)")
        XCTAssertGreaterThan(departures, 20)
        XCTAssertEqual(honoured, departures)
        let any = try await directions(points, Self.sdkQuery + [("bearings", "0,180;")]).json()
        XCTAssertEqual(any["waypoints"]?[0]?["location"], plain["waypoints"]?[0]?["location"])
        // alternatives=true: the router has no alternatives, one route.
        XCTAssertEqual(plain["routes"]?.arrayValue?.count, 1)
    }
}

extension DirectionsV5Tests {
    /// Snapping with a bearing keeps only segments the vehicle may travel within the tolerance.
    func testSnappingWithABearingPicksASegmentRunningThatWay() throws {
        let graph = try XCTUnwrap(sim.service.roadGraph)
        var changed = 0
        for (lat, lng) in [(10.7769, 106.7008), (10.7725, 106.6980), (21.0287, 105.8524)] {
            let plain = try XCTUnwrap(graph.snap(latitude: lat, longitude: lng, vehicle: .car))
            for heading in stride(from: 0.0, to: 360, by: 45) {
                let filter = BearingFilter(degrees: heading, tolerance: 30)
                guard let snap = graph.snap(latitude: lat, longitude: lng, vehicle: .car, bearing: filter) else { continue }
                XCTAssertGreaterThanOrEqual(snap.distance, plain.distance - 1e-9, "the nearest segment overall is no farther")
                let line = graph.edgeGeometry(snap.edge)
                let a = line[snap.segment], b = line[snap.segment + 1]
                let azimuth = Geo.azimuth(a.latitude, a.longitude, b.latitude, b.longitude)
                let along = graph.isAccessible(edge: snap.edge, forward: true, vehicle: .car) && filter.accepts(azimuth: azimuth)
                let against = graph.isAccessible(edge: snap.edge, forward: false, vehicle: .car)
                    && filter.accepts(azimuth: (azimuth + 180).truncatingRemainder(dividingBy: 360))
                // Planar and great-circle azimuths differ by far less than a degree over a segment.
                XCTAssertTrue(along || against || BearingFilter(degrees: heading, tolerance: 31).accepts(azimuth: azimuth), "\(heading) vs \(azimuth)")
                if snap != plain { changed += 1 }
            }
        }
        XCTAssertGreaterThan(changed, 0, "some bearing moves some snap off the nearest segment")
        XCTAssertTrue(BearingFilter(degrees: 350, tolerance: 20).accepts(azimuth: 5))
        XCTAssertFalse(BearingFilter(degrees: 350, tolerance: 10).accepts(azimuth: 5))
        XCTAssertTrue(BearingFilter(degrees: -90, tolerance: 0).accepts(azimuth: 270))
    }
}

extension DirectionsV5Tests {
    /// One step per route v4 instruction, in order: same text, distance and time; turn signs mapped
    /// to Mapbox maneuvers; roundabouts with route v4's exit count.
    func testStepsAreRouteV4sInstructionsOneToOne() async throws {
        var rng = SeededPairs(seed: 20)
        var roundabouts = 0, turns = 0, compared = 0, junctions = 0
        let expected: [Int: (String, String?)] = [
            -3: ("turn", "sharp left"), -2: ("turn", "left"), -1: ("turn", "slight left"), 0: ("new name", "straight"),
            1: ("turn", "slight right"), 2: ("turn", "right"), 3: ("turn", "sharp right"), -7: ("fork", "slight left"),
            7: ("fork", "slight right"), -8: ("turn", "uturn"), 8: ("turn", "uturn"), -98: ("turn", "uturn"),
        ]
        for _ in 0..<30 {
            let points = [rng.next(), rng.next()]
            let v4 = try await sim.get("/api/route/v4", [("apikey", "dev")] + points.map { ("point", "\($0.0),\($0.1)") }).json()
            let v5 = try await directions(points).json()
            guard v4["code"] == "OK", let instructions = v4["paths"]?[0]?["instructions"]?.arrayValue else {
                XCTAssertNotEqual(v5["code"], "Ok", "v5 routes only where v4 does")
                continue
            }
            let steps = try XCTUnwrap(v5["routes"]?[0]?["legs"]?[0]?["steps"]?.arrayValue)
            XCTAssertEqual(steps.count, instructions.count)
            compared += 1
            for (index, (instruction, step)) in zip(instructions, steps).enumerated() {
                XCTAssertEqual(step["maneuver"]?["instruction"], instruction["text"])
                XCTAssertEqual(step["distance"]?.doubleValue ?? -1, instruction["distance"]?.doubleValue ?? -2, accuracy: 0.05)
                XCTAssertEqual(step["duration"]?.doubleValue ?? -1, Double(instruction["time"]?.intValue ?? 0) / 1000, accuracy: 0.051)
                let sign = instruction["sign"]?.intValue ?? 0
                let type = step["maneuver"]?["type"]?.stringValue, modifier = step["maneuver"]?["modifier"]?.stringValue
                // Every intersection's `in`/`out` point at the bearings arrived by and left along.
                let crossing = try XCTUnwrap(step["intersections"]?[0])
                let bearings = try XCTUnwrap(crossing["bearings"]?.arrayValue?.compactMap(\.intValue))
                let entry = try XCTUnwrap(crossing["entry"]?.arrayValue?.compactMap(\.boolValue))
                XCTAssertEqual(bearings.count, entry.count)
                XCTAssertEqual(bearings, bearings.sorted())
                func gap(_ a: Int, _ b: Double) -> Double { let d = abs(Double(a) - b).truncatingRemainder(dividingBy: 360); return min(d, 360 - d) }
                if let out = crossing["out"]?.intValue, let after = step["maneuver"]?["bearing_after"]?.doubleValue, index < steps.count - 1 {
                    XCTAssertTrue(entry[out])
                    XCTAssertLessThanOrEqual(gap(bearings[out], after), 2)
                }
                if let into = crossing["in"]?.intValue, let before = step["maneuver"]?["bearing_before"]?.doubleValue, index > 0 {
                    XCTAssertLessThanOrEqual(gap(bearings[into], before + 180), 3)
                }
                if bearings.count >= 3 { junctions += 1 }
                if index == 0 { XCTAssertEqual(type, "depart"); continue }
                if index == steps.count - 1 { XCTAssertEqual(type, "arrive"); continue }
                if sign == 6 {
                    roundabouts += 1
                    XCTAssertEqual(type, "roundabout")
                    XCTAssertEqual(step["maneuver"]?["exit"], instruction["exit_number"])
                } else if let (t, m) = expected[sign] {
                    if t == "turn" { turns += 1 }
                    XCTAssertEqual(type, t, "sign \(sign)")
                    XCTAssertEqual(modifier, m, "sign \(sign)")
                }
            }
        }
        print("v4 ↔ v5 steps: \(compared) routes compared, \(turns) turns, \(roundabouts) roundabouts, \(junctions) intersections of 3+ roads")
        XCTAssertGreaterThan(junctions, turns / 2, "turns happen at junctions, and the junctions show their roads")
        XCTAssertGreaterThan(compared, 20)
        XCTAssertGreaterThan(turns, 20)
    }
}

/// Reproducible (lat, lng) points in District 1 and 3 (both datasets have roads there).
struct SeededPairs {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func unit() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func next() -> (Double, Double) {
        (((10.765 + unit() * 0.03) * 1e6).rounded() / 1e6, ((106.680 + unit() * 0.03) * 1e6).rounded() / 1e6)
    }
}
