import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// The built-in `nav-*` scenarios: faults of the Directions v5 endpoint the navigation SDKs call,
/// selected through the API key, over real HTTP; other endpoints are left alone.
final class NavigationScenarioTests: XCTestCase {
    private var server: HTTPServer!
    private var engine: ScenarioEngine!
    private let clock = ManualScenarioClock()

    override func setUpWithError() throws {
        engine = builtInEngine(.init(clock: clock))
        server = try startServer(engine)
    }

    private func directionsTarget(_ key: String) -> String {
        "/api/navigations/route/directions/v5/mapbox/driving-traffic/106.7008,10.7769;106.6980,10.7725.json?apikey=\(key)"
            + "&geometries=polyline6&steps=true&banner_instructions=true&voice_instructions=true&overview=full"
    }

    private func directions(_ key: String) throws -> RawHTTPClient.Response { try get(server, directionsTarget(key)) }

    func testNoRouteAndRouteV4Untouched() throws {
        let body = try directions("scenario:nav-no-route").json()
        XCTAssertEqual(body["code"], "NoRoute")
        XCTAssertEqual(try get(server, "/api/route/v4?apikey=scenario:nav-no-route&\(TestSimulator.routeQuery)").json()["code"], "OK")
    }

    func testTheFirstRerouteFailsThenNavigationRecovers() throws {
        let statuses = try (1...4).map { _ in try directions("scenario:nav-reroute-fails@driver") }
        XCTAssertEqual(statuses.map(\.status), [200, 503, 200, 200])
        let failure = try statuses[1].json()
        XCTAssertEqual(failure.objectValue?.keys, ["code", "message"], "the Mapbox envelope")
        XCTAssertEqual(failure["code"], "ServerError")
        XCTAssertEqual(try statuses[2].json()["code"], "Ok")
        // Another client has its own count.
        XCTAssertEqual(try directions("scenario:nav-reroute-fails@other").status, 200)
    }

    func testSlowPastTheAndroidTimeout() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.get(directionsTarget("scenario:nav-slow-past-timeout"))
        XCTAssertTrue(clock.waitForPending(1), "the answer is scheduled")
        clock.advance(byMilliseconds: 11_999)
        XCTAssertFalse(client.hasReceivedSomething, "nothing before 12 s")
        clock.advance(byMilliseconds: 1)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(engine.journal.entries().last?.delayMilliseconds, 12_000)
    }

    func testTruncatedDirections() throws {
        let client = try RawHTTPClient(port: server.port)
        try client.get(directionsTarget("scenario:nav-truncated-json"))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.truncated)
        XCTAssertEqual(response.body.count, try XCTUnwrap(response.header("Content-Length").flatMap { Int($0) }) / 2)
        XCTAssertThrowsError(try response.json())
    }

    func testGeometryAndStepsDisagree() throws {
        let normal = try directions("dev").json()
        let broken = try directions("scenario:nav-geometry-steps-disagree").json()
        let firstStep = try XCTUnwrap(normal["routes"]?[0]?["legs"]?[0]?["steps"]?[0]?["geometry"])
        XCTAssertNotEqual(normal["routes"]?[0]?["geometry"], firstStep)
        XCTAssertEqual(broken["routes"]?[0]?["geometry"], firstStep)
        XCTAssertEqual(broken["routes"]?[0]?["legs"], normal["routes"]?[0]?["legs"], "the steps are unchanged")
    }
}
