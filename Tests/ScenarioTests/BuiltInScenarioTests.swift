import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// Every scenario shipped in `Scenarios/`, selected through the API key, over real HTTP.
final class BuiltInScenarioTests: XCTestCase {
    private var server: HTTPServer!
    private var engine: ScenarioEngine!
    /// The engine's time: it moves only when a test advances it.
    private let clock = ManualScenarioClock()

    override func setUpWithError() throws {
        engine = builtInEngine(.init(clock: clock))
        server = try startServer(engine)
    }

    private func autocomplete(_ scenario: String, text: String = "ben%20thanh") throws -> RawHTTPClient.Response {
        try get(server, "/api/autocomplete/v4?apikey=scenario:\(scenario)&text=\(text)")
    }

    private func route(_ scenario: String, extra: String = "") throws -> RawHTTPClient.Response {
        try routeOrSkip(server, "/api/route/v4?apikey=scenario:\(scenario)&\(TestSimulator.routeQuery)\(extra)")
    }

    private func refID() throws -> String {
        let items = try get(server, "/api/autocomplete/v4?apikey=dev&text=cho%20ben%20thanh").json()
        return try XCTUnwrap(items[0]?["ref_id"]?.stringValue)
    }

    private func assertError(_ response: RawHTTPClient.Response, status: Int, code: String, route: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status, status, file: file, line: line)
        let body = try response.json()
        XCTAssertEqual(body["code"], .string(code), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        if route {
            XCTAssertEqual(body.objectValue?.keys, ["license", "code", "messages", "paths"], file: file, line: line)
            XCTAssertEqual(body["license"], "vietmap", file: file, line: line)
        } else {
            XCTAssertEqual(body.objectValue?.keys, ["code", "message"], file: file, line: line)
        }
    }

    func testEmptyRoute() throws {
        let response = try route("empty-route")
        XCTAssertEqual(response.status, 200)
        let body = try response.json()
        XCTAssertEqual(body["paths"], .array([]))
        XCTAssertEqual(body["code"], "OK")
    }

    func testZeroResults() throws {
        // A literal answer: works before the route endpoint exists.
        let routeAnswer = try get(server, "/api/route/v4?apikey=scenario:zero-results&\(TestSimulator.routeQuery)")
        try assertError(routeAnswer, status: 200, code: "ZERO_RESULTS", route: true)
        XCTAssertEqual(try routeAnswer.json()["paths"], .array([]))
        let items = try autocomplete("zero-results")
        XCTAssertEqual(items.status, 200)
        XCTAssertEqual(try items.json(), .array([]))
    }

    func testRoute500() throws {
        let response = try get(server, "/api/route/v4?apikey=scenario:route-500&\(TestSimulator.routeQuery)")
        try assertError(response, status: 500, code: "ERROR_UNKNOWN", route: true)
        XCTAssertEqual(try response.json()["paths"], .null)
        XCTAssertEqual(try autocomplete("route-500").status, 200, "other endpoints answer normally")
    }

    func testAutocomplete500() throws {
        try assertError(try autocomplete("autocomplete-500"), status: 500, code: "ERROR_UNKNOWN")
        XCTAssertEqual(try get(server, "/api/place/v4?apikey=scenario:autocomplete-500&refid=\(refID())").status, 200)
    }

    func testBadKey401HasNoCORSHeader() throws {
        let response = try autocomplete("bad-key-401")
        try assertError(response, status: 401, code: "UNAUTHORIZED")
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
        try assertError(try get(server, "/api/route/v4?apikey=scenario:bad-key-401&\(TestSimulator.routeQuery)"),
                        status: 401, code: "UNAUTHORIZED", route: true)
    }

    func testQuota429AfterFiveCalls() throws {
        let statuses = try (0..<7).map { _ in try autocomplete("quota-429") }
        XCTAssertEqual(statuses.map(\.status), [200, 200, 200, 200, 200, 429, 429])
        try assertError(statuses[5], status: 429, code: "OVER_DAILY_LIMIT")
        XCTAssertEqual(statuses[5].header("Retry-After"), "86400", "the whole window is left: no time passed")
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:quota-429@other&text=ben").status, 200,
                       "another key has its own quota")
        clock.advance(byMilliseconds: 86_399_000)
        let late = try autocomplete("quota-429")
        XCTAssertEqual(late.status, 429, "1 s before the window ends")
        XCTAssertEqual(late.header("Retry-After"), "1")
        clock.advance(byMilliseconds: 1_000)
        XCTAssertEqual(try autocomplete("quota-429").status, 200, "the window reopened")
        XCTAssertEqual(try (0..<5).map { _ in try autocomplete("quota-429").status }, [200, 200, 200, 200, 429],
                       "a fresh window of five calls")
    }

    func testBurstThrottling400() throws {
        // Three route requests at once: exactly the third to arrive is throttled.
        let port = server.port
        let target = "/api/route/v4?apikey=scenario:burst-400&\(TestSimulator.routeQuery)"
        let burst = try parallel(3) { _ in try fetch(port, target) }
        let throttled = burst.filter { $0.status == 400 }
        XCTAssertEqual(throttled.count, 1, "\(burst.map(\.status))")
        if let first = throttled.first {
            try assertError(first, status: 400, code: "INVALID_REQUEST", route: true)
        }
        clock.advance(byMilliseconds: 600)
        XCTAssertEqual(try get(server, target).status, 400, "600 ms later the first three are still within the window")
        clock.advance(byMilliseconds: 1)
        XCTAssertNotEqual(try get(server, target).status, 400, "a request after a pause passes")
    }

    /// Paced time (`X-VietMap-Sim-Pace`): the burst window counts the client's requests in scenario
    /// time, MS apart each, whatever the real clock does — here it never moves.
    func testPacedTimeDecidesBurstsByRequestOrderOnly() throws {
        func statuses(pace: Int, client: String) throws -> [Int] {
            let target = "/api/route/v4?apikey=scenario:burst-400@\(client)&\(TestSimulator.routeQuery)"
            return try (0..<4).map { _ in try request(server, "GET", target, headers: ["X-VietMap-Sim-Pace: \(pace)"]).status }
        }
        // 250 ms apart: the 3rd is 500 ms after the 1st (inside 600 ms), the 4th 750 ms (outside the first).
        XCTAssertEqual(try statuses(pace: 250, client: "a"), [200, 200, 400, 400])
        // 400 ms apart: never three within 600 ms.
        XCTAssertEqual(try statuses(pace: 400, client: "b"), [200, 200, 200, 200])
        // Without the header the (unmoving) real clock puts them all at once.
        let target = "/api/route/v4?apikey=scenario:burst-400@c&\(TestSimulator.routeQuery)"
        XCTAssertEqual(try (0..<3).map { _ in try get(server, target).status }, [200, 200, 400])
    }

    func testSlowAutocomplete() throws {
        let (response, delay) = try getDelayed(server, "/api/autocomplete/v4?apikey=scenario:slow-autocomplete&text=ben%20thanh",
                                               engine: engine, clock: clock)
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue((700...1200).contains(delay), "delay \(delay)")
        XCTAssertEqual(engine.journal.entries().last?.latencyMilliseconds, Double(delay))
        // Place answers without the clock moving (a delayed answer would never come).
        XCTAssertEqual(try get(server, "/api/place/v4?apikey=scenario:slow-autocomplete&refid=\(refID())").status, 200,
                       "place is not delayed")
        XCTAssertEqual(clock.pendingCount, 0)
    }

    /// Sends `targets` at once (each on its own connection), waits until all their delayed answers
    /// are scheduled on `clock`, advances it by `milliseconds` and reads the answers.
    private func allDelayed(_ port: UInt16, _ targets: [String], clock: ManualScenarioClock,
                            advancing milliseconds: Int) throws -> [RawHTTPClient.Response] {
        let clients = try targets.map { target in
            let client = try RawHTTPClient(port: port)
            try client.get(target)
            return client
        }
        XCTAssertTrue(clock.waitForPending(targets.count), "every answer is scheduled")
        XCTAssertFalse(clients.contains { $0.hasReceivedSomething }, "no answer before the clock moves")
        clock.advance(byMilliseconds: milliseconds)
        return try clients.map { try $0.readResponse() }
    }

    func testLognormalLatencyIsSeededAndCapped() throws {
        // 40 clients at once, each on its own key: each one's first delay depends only on its key.
        let targets = (0..<40).map { "/api/autocomplete/v4?apikey=scenario:lognormal-latency@c\($0)&text=ben" }
        let responses = try allDelayed(server.port, targets, clock: clock, advancing: 2500)
        XCTAssertTrue(responses.allSatisfy { $0.status == 200 })
        let delays = Dictionary(uniqueKeysWithValues: engine.journal.entries().map { ($0.client ?? "", $0.delayMilliseconds ?? -1) })
        XCTAssertEqual(delays.count, 40)
        XCTAssertTrue(delays.values.allSatisfy { (1...2500).contains($0) })
        for entry in engine.journal.entries() {
            XCTAssertEqual(entry.latencyMilliseconds, entry.delayMilliseconds.map(Double.init), "latency is the delay, exactly")
        }
        let sorted = delays.values.sorted()
        XCTAssertTrue((60...350).contains(sorted[20]), "median \(sorted[20]) should be near 150: \(sorted)")
        // The same keys on a fresh engine draw the same delays.
        let againClock = ManualScenarioClock()
        let again = builtInEngine(.init(clock: againClock))
        _ = try allDelayed(try startServer(again).port, targets.reversed(), clock: againClock, advancing: 2500)
        let againDelays = Dictionary(uniqueKeysWithValues: again.journal.entries().map { ($0.client ?? "", $0.delayMilliseconds ?? -1) })
        XCTAssertEqual(againDelays, delays)
    }

    func testPlaceWithNullThenMissingCoordinates() throws {
        let target = "/api/place/v4?apikey=scenario:place-null-latlng&refid=\(try refID())"
        let first = try get(server, target).json()
        XCTAssertEqual(first.objectValue?.count, 13)
        XCTAssertEqual(first["lat"], .null)
        XCTAssertEqual(first["lng"], .null)
        XCTAssertFalse(first["name"]?.stringValue?.isEmpty ?? true, "the rest is the real answer")
        let second = try get(server, target).json()
        XCTAssertEqual(second.objectValue?.count, 11)
        XCTAssertNil(second["lat"])
        XCTAssertNil(second["lng"])
        XCTAssertEqual(try get(server, target).json()["lat"], .null, "the sequence repeats")
    }

    func testAutocompleteItemsWithoutRefID() throws {
        let normal = try get(server, "/api/autocomplete/v4?apikey=dev&text=ben%20thanh").json()
        let items = try XCTUnwrap(try autocomplete("autocomplete-no-ref-id").json().arrayValue)
        XCTAssertFalse(items.isEmpty)
        XCTAssertEqual(items.count, normal.arrayValue?.count)
        for (item, original) in zip(items, normal.arrayValue ?? []) {
            XCTAssertNil(item["ref_id"])
            XCTAssertEqual(item.objectValue?.keys, original.objectValue.map { Array($0.keys.dropFirst()) })
        }
    }

    func testTruncatedJSON() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/autocomplete/v4?apikey=scenario:truncated-json&text=ben%20thanh")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        let announced = try XCTUnwrap(response.header("Content-Length").flatMap { Int($0) })
        XCTAssertTrue(response.truncated)
        XCTAssertEqual(response.body.count, announced / 2)
        XCTAssertThrowsError(try response.json())
    }

    func testMalformedJSONIsAWellFramedAnswer() throws {
        let normal = try get(server, "/api/autocomplete/v4?apikey=dev&text=ben%20thanh")
        let response = try autocomplete("malformed-json")
        XCTAssertEqual(response.status, 200)
        XCTAssertFalse(response.truncated)
        XCTAssertEqual(response.header("Content-Length"), String(normal.body.count / 2))
        XCTAssertEqual(response.body, normal.body.prefix(normal.body.count / 2))
        XCTAssertThrowsError(try response.json())
    }

    func testConnectionReset() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/autocomplete/v4?apikey=scenario:connection-reset&text=ben")
        let (data, error) = client.readToEnd()
        XCTAssertEqual(error, ECONNRESET)
        XCTAssertEqual(data.count, 0)
        XCTAssertEqual(engine.journal.entries().last?.status, 0)
        XCTAssertEqual(engine.journal.entries().last?.fault, "reset")
    }

    func testEmptyReply() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/autocomplete/v4?apikey=scenario:empty-reply&text=ben")
        let (data, error) = client.readToEnd()
        XCTAssertNil(error)
        XCTAssertEqual(data.count, 0)
    }

    func testFlaky503FailsAboutThirtyPercentTheSameWayEveryTime() throws {
        let responses = try (0..<40).map { _ in try autocomplete("flaky-503", text: "ben") }
        let statuses = responses.map(\.status)
        let failures = statuses.filter { $0 == 503 }.count
        XCTAssertTrue((6...20).contains(failures), "\(failures) of 40 failed: \(statuses)")
        XCTAssertEqual(Set(statuses), [200, 503])
        let fresh = try startServer(builtInEngine())
        let again = try (0..<40).map { _ in try get(fresh, "/api/autocomplete/v4?apikey=scenario:flaky-503&text=ben").status }
        XCTAssertEqual(again, statuses, "same seed, same order: same faults")
        try assertError(try XCTUnwrap(responses.first { $0.status == 503 }), status: 503, code: "ERROR_UNKNOWN")
    }

    func testFailTwiceThenSucceed() throws {
        let statuses = try (0..<4).map { _ in try autocomplete("fail-twice-then-succeed").status }
        XCTAssertEqual(statuses, [500, 500, 200, 200])
    }

    func testSucceedThenQuotaExhausted() throws {
        let responses = try (0..<5).map { _ in try autocomplete("succeed-then-quota-exhausted") }
        XCTAssertEqual(responses.map(\.status), [200, 200, 200, 429, 429])
        try assertError(responses[3], status: 429, code: "OVER_DAILY_LIMIT")
        XCTAssertEqual(responses[3].header("Retry-After"), "3600")
        XCTAssertEqual(engine.journal.entries().map(\.state), ["Started", "Started", "Exhausted", "Exhausted", "Exhausted"])
    }

    func testRoutePointsAsBareLatLngArrays() throws {
        let normal = try routeOrSkip(server, "/api/route/v4?apikey=dev&\(TestSimulator.routeQuery)&points_encoded=false").json()
        guard let coordinates = normal["paths"]?[0]?["points"]?["coordinates"]?.arrayValue, !coordinates.isEmpty else {
            throw XCTSkip("the route answer for points_encoded=false has no GeoJSON coordinates yet")
        }
        let body = try route("route-points-bare-latlng", extra: "&points_encoded=false").json()
        let points = try XCTUnwrap(body["paths"]?[0]?["points"]?.arrayValue)
        XCTAssertEqual(points.count, coordinates.count)
        for (pair, original) in zip(points, coordinates) {
            XCTAssertEqual(pair, original.arrayValue.map { JSONValue.array($0.reversed()) })
            XCTAssertEqual(pair[0]?.doubleValue ?? 0, 10.77, accuracy: 0.05, "latitude first")
        }
        XCTAssertNotNil(body["paths"]?[0]?["snapped_waypoints"]?.arrayValue)
        let encoded = try route("route-points-bare-latlng").json()
        XCTAssertNotNil(encoded["paths"]?[0]?["points"]?.stringValue, "encoded routes are left alone")
    }
}
