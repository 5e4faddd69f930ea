import Foundation
import HTTPServer
import JSON
import VietMapAPI
import VietMapClient
import XCTest

/// Route v4 over real HTTP on the default dataset's road graphs (HCMC Q1/Q3, Hoàn Kiếm).
final class RouteTests: XCTestCase {
    let sim = SimulatorHarness.shared

    /// The app's flow: autocomplete → place detail → coordinates.
    func coordinate(of text: String) async throws -> (Double, Double) {
        let items = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", text)]).decode([VMSearchItem].self)
        let refID = try XCTUnwrap(items.first?.refId, text)
        let place = try await sim.get("/api/place/v4", [("apikey", "dev"), ("refid", refID)]).decode(VMPlaceDetail.self)
        return (try XCTUnwrap(place.lat), try XCTUnwrap(place.lng))
    }

    func route(_ points: [(Double, Double)], _ extra: [(String, String)] = []) async throws -> SimulatorHarness.Reply {
        try await sim.get("/api/route/v4", [("apikey", "dev")] + points.map { ("point", "\($0.0),\($0.1)") } + extra)
    }

    func meters(_ a: (Double, Double), _ b: (Double, Double)) -> Double { haversineKm(a.0, a.1, b.0, b.1) * 1000 }

    /// Checks everything a path must satisfy and returns its decoded points.
    @discardableResult
    func checkPath(_ path: JSONValue, requested: [(Double, Double)], encoded: Bool = true,
                   file: StaticString = #filePath, line: UInt = #line) throws -> [(Double, Double)] {
        let object = try XCTUnwrap(path.objectValue, file: file, line: line)
        XCTAssertEqual(object.keys, ["distance", "weight", "time", "transfers", "points_encoded", "bbox", "points",
                                     "instructions", "snapped_waypoints"], file: file, line: line)
        let points: [(Double, Double)]
        let snapped: [(Double, Double)]
        if encoded {
            points = decodePolyline(try XCTUnwrap(path["points"]?.stringValue)).map { ($0.latitude, $0.longitude) }
            snapped = decodePolyline(try XCTUnwrap(path["snapped_waypoints"]?.stringValue)).map { ($0.latitude, $0.longitude) }
            XCTAssertNoThrow(try decodePolylineStrict(path["points"]!.stringValue!), file: file, line: line)
        } else {
            XCTAssertEqual(path["points"]?["type"], "LineString", file: file, line: line)
            points = try XCTUnwrap(path["points"]?["coordinates"]?.arrayValue).map { ($0[1]!.doubleValue!, $0[0]!.doubleValue!) }
            snapped = try XCTUnwrap(path["snapped_waypoints"]?["coordinates"]?.arrayValue).map { ($0[1]!.doubleValue!, $0[0]!.doubleValue!) }
        }
        XCTAssertGreaterThanOrEqual(points.count, 2, file: file, line: line)
        XCTAssertEqual(snapped.count, requested.count, "one snapped waypoint per requested point", file: file, line: line)
        // The line starts and ends at the snapped points, which lie near the requested ones.
        XCTAssertLessThan(meters(points.first!, snapped.first!), 2, file: file, line: line)
        XCTAssertLessThan(meters(points.last!, snapped.last!), 2, file: file, line: line)
        for (s, r) in zip(snapped, requested) { XCTAssertLessThan(meters(s, r), 1_000, file: file, line: line) }
        // bbox = [minLon, minLat, maxLon, maxLat] of the emitted points.
        let bbox = try XCTUnwrap(path["bbox"]?.arrayValue?.compactMap(\.doubleValue), file: file, line: line)
        XCTAssertEqual(bbox, [points.map(\.1).min()!, points.map(\.0).min()!, points.map(\.1).max()!, points.map(\.0).max()!],
                       file: file, line: line)
        // Distance ≈ the length of the line; time and weight agree.
        let distance = try XCTUnwrap(path["distance"]?.doubleValue)
        let length = zip(points, points.dropFirst()).map { meters($0, $1) }.reduce(0, +)
        XCTAssertEqual(distance, length, accuracy: max(5, length * 0.01), file: file, line: line)
        let time = try XCTUnwrap(path["time"]?.intValue)
        XCTAssertEqual(path["weight"]?.doubleValue, Double(time) / 1000, file: file, line: line)
        XCTAssertEqual(path["transfers"], .integer(0), file: file, line: line)
        XCTAssertEqual(path["points_encoded"], .bool(encoded), file: file, line: line)
        // Instructions: keys, intervals inside the points, sums, finish last.
        let instructions = try XCTUnwrap(path["instructions"]?.arrayValue)
        XCTAssertGreaterThanOrEqual(instructions.count, 2, file: file, line: line)
        var sumDistance = 0.0, sumTime = 0
        for instruction in instructions {
            let keys = try XCTUnwrap(instruction.objectValue?.keys)
            XCTAssertEqual(Array(keys.prefix(8)), ["distance", "heading", "sign", "interval", "text", "time", "street_name", "last_heading"],
                           file: file, line: line)
            let interval = try XCTUnwrap(instruction["interval"]?.arrayValue?.compactMap(\.intValue))
            XCTAssertTrue(interval.count == 2 && 0 <= interval[0] && interval[0] <= interval[1] && interval[1] < points.count,
                          "\(interval)", file: file, line: line)
            XCTAssertFalse(instruction["text"]?.stringValue?.isEmpty ?? true, file: file, line: line)
            XCTAssertNotNil(instruction["heading"]?.doubleValue, file: file, line: line)
            sumDistance += instruction["distance"]?.doubleValue ?? 0
            sumTime += instruction["time"]?.intValue ?? 0
        }
        XCTAssertEqual(sumDistance, distance, accuracy: 0.05 * Double(instructions.count), file: file, line: line)
        XCTAssertEqual(sumTime, time, file: file, line: line)
        let finish = try XCTUnwrap(instructions.last)
        XCTAssertEqual(finish["sign"], .integer(4), file: file, line: line)
        XCTAssertEqual(finish["text"], "Đến nơi", file: file, line: line)
        XCTAssertEqual(finish["distance"]?.doubleValue, 0, file: file, line: line)
        XCTAssertEqual(finish["time"], .integer(0), file: file, line: line)
        XCTAssertNotNil(finish["last_heading"]?.doubleValue, file: file, line: line)
        XCTAssertEqual(finish["interval"], .array([.integer(points.count - 1), .integer(points.count - 1)]), file: file, line: line)
        for instruction in instructions.dropLast() { XCTAssertEqual(instruction["last_heading"], .null, file: file, line: line) }
        return points
    }

    func testBenThanhMarketToNotreDameCathedral() async throws {
        let market = try await coordinate(of: "cho ben thanh")
        let cathedral = try await coordinate(of: "nha tho duc ba")
        let reply = try await route([market, cathedral])
        XCTAssertEqual(reply.status, 200)
        let body = try reply.json()
        XCTAssertEqual(body.objectValue?.keys, ["license", "code", "messages", "paths"])
        XCTAssertEqual(body["license"], "vietmap")
        XCTAssertEqual(body["code"], "OK")
        XCTAssertEqual(body["messages"], .null)
        let path = try XCTUnwrap(body["paths"]?[0])
        try checkPath(path, requested: [market, cathedral])
        let distance = path["distance"]!.doubleValue!
        XCTAssertGreaterThan(distance, meters(market, cathedral), "a road route is longer than the crow flies")
        XCTAssertLessThan(distance, 3 * meters(market, cathedral))
        let texts = path["instructions"]!.arrayValue!.compactMap { $0["text"]?.stringValue }
        XCTAssertTrue(texts.first?.hasPrefix("Tiếp tục theo ") == true, "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("Rẽ ") || $0.hasPrefix("Đi tiếp qua vòng xuyến") }, "\(texts)")

        // The reference client's models decode it, and its decoder reads the line.
        let decoded = try reply.decode(VMRouteResponse.self)
        let routePath = try XCTUnwrap(decoded.paths?.first)
        XCTAssertEqual(routePath.distance, distance)
        XCTAssertGreaterThan(decodePolyline(routePath.points).count, 2)
    }

    func testHoanKiemLakeToTheOperaHouse() async throws {
        let lake = (21.0287, 105.8524)  // the lake's centre: snapped onto the nearest road
        let opera = try await coordinate(of: "nha hat lon")
        XCTAssertGreaterThan(opera.0, 21, "the Hanoi opera house")
        let reply = try await route([lake, opera], [("vehicle", "motorcycle")])
        XCTAssertEqual(reply.status, 200)
        let path = try XCTUnwrap(reply.json()["paths"]?[0])
        try checkPath(path, requested: [lake, opera])
    }

    func testEveryVehicleEncodedAndNot() async throws {
        let from = (10.7769, 106.7008), to = (10.7798, 106.6990)
        var times: [String: Int] = [:]
        for vehicle in ["car", "motorcycle", "truck", "bike", "foot"] {
            for encoded in [true, false] {
                let reply = try await route([from, to], [("vehicle", vehicle), ("points_encoded", String(encoded))])
                XCTAssertEqual(reply.status, 200, "\(vehicle)")
                let body = try reply.json()
                XCTAssertEqual(body["code"], "OK", "\(vehicle)")
                let path = try XCTUnwrap(body["paths"]?[0])
                try checkPath(path, requested: [from, to], encoded: encoded)
                times[vehicle] = path["time"]?.intValue
            }
        }
        XCTAssertGreaterThan(times["foot"]!, times["bike"]!)
        XCTAssertGreaterThan(times["bike"]!, times["car"]!)
    }

    func testViaPointsGiveOneLegEachAndSign5() async throws {
        let points = [(10.7725, 106.6980), (10.7769, 106.7008), (10.7798, 106.6990)]
        let reply = try await route(points)
        let path = try XCTUnwrap(reply.json()["paths"]?[0])
        let line = try checkPath(path, requested: points)
        let via = path["instructions"]!.arrayValue!.filter { $0["sign"] == .integer(5) }
        XCTAssertEqual(via.count, 1)
        let index = try XCTUnwrap(via.first?["interval"]?[0]?.intValue)
        let snapped = decodePolyline(path["snapped_waypoints"]!.stringValue!)
        XCTAssertLessThan(meters(line[index], (snapped[1].latitude, snapped[1].longitude)), 2, "the via instruction sits at the via point")
        // Going through a via point is never shorter than going straight.
        let direct = try await route([points[0], points[2]])
        let directDistance = try XCTUnwrap(direct.json()["paths"]?[0]?["distance"]?.doubleValue)
        XCTAssertGreaterThanOrEqual(path["distance"]!.doubleValue!, directDistance)
    }

    func testOneWayStreetIsRespected() async throws {
        // Lê Thánh Tôn (way 320379106) is one-way from Đồng Khởi towards Bến Thành.
        let upstream = (10.7740594, 106.6990287), downstream = (10.7720998, 106.696004)
        func distance(_ a: (Double, Double), _ b: (Double, Double), _ vehicle: String) async throws -> Double {
            let reply = try await route([a, b], [("vehicle", vehicle)])
            return try XCTUnwrap(reply.json()["paths"]?[0]?["distance"]?.doubleValue)
        }
        let withTheFlow = try await distance(upstream, downstream, "car")
        let against = try await distance(downstream, upstream, "car")
        let walking = try await distance(downstream, upstream, "foot")
        XCTAssertLessThan(withTheFlow, 450)
        XCTAssertLessThan(walking, 450, "pedestrians ignore one-way rules")
        XCTAssertGreaterThan(against, withTheFlow * 1.5, "a car against the one-way must detour")
    }

    func testZeroResultsBetweenCities() async throws {
        let reply = try await route([(10.7769, 106.7008), (21.0287, 105.8524)])
        XCTAssertEqual(reply.status, 200)
        let body = try reply.json()
        XCTAssertEqual(body["code"], "ZERO_RESULTS")
        XCTAssertEqual(body["paths"], .array([]))
        XCTAssertFalse(body["messages"]?.stringValue?.isEmpty ?? true)
    }

    func testRouteErrors() async throws {
        func assertRouteError(_ items: [(String, String)], status: Int, code: String, line: UInt = #line) async throws {
            let reply = try await sim.get("/api/route/v4", items)
            XCTAssertEqual(reply.status, status, line: line)
            let body = try reply.json()
            XCTAssertEqual(body.objectValue?.keys, ["license", "code", "messages", "paths"], line: line)
            XCTAssertEqual(body["code"], .string(code), line: line)
            XCTAssertEqual(body["paths"], .null, line: line)
            XCTAssertFalse(body["messages"]?.stringValue?.isEmpty ?? true, line: line)
        }
        let a = ("point", "10.7769,106.7008"), b = ("point", "10.7798,106.6990"), key = ("apikey", "dev")
        try await assertRouteError([a, b], status: 401, code: "UNAUTHORIZED")
        try await assertRouteError([key], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, ("point", "10.77")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, ("point", "abc,def")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, ("point", "95,106")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, b, ("vehicle", "plane")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, b, ("points_encoded", "maybe")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key, a, b, ("capacity", "-3"), ("vehicle", "truck")], status: 400, code: "INVALID_REQUEST")
        try await assertRouteError([key] + Array(repeating: a, count: 26), status: 400, code: "MAX_POINTS_EXCEED")
        // A point far from any road (the sea off Vũng Tàu).
        try await assertRouteError([key, a, ("point", "10.30,107.20")], status: 400, code: "INVALID_REQUEST")
        // Other methods: 405 in the route envelope too.
        let post = sim.service.respond(to: HTTPRequest(method: "POST", target: "/api/route/v4?apikey=dev&point=1,1&point=2,2"))
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(try JSONParser.parse(post.body).objectValue?.keys, ["license", "code", "messages", "paths"])
        // Ignored parameters do not fail.
        let ignored = try await sim.get("/api/route/v4", [key, a, b, ("optimize", "true"), ("alternative", "false"), ("heading", "90"),
                                                            ("time", "2025-08-01T12:01:00Z"), ("annotations", "congestion"), ("avoid", "ferry,toll")])
        XCTAssertEqual(ignored.status, 200)
    }
}
