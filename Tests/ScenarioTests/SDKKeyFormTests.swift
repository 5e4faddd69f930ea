import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// Scenario selection the way VietMap's SDKs can express it, over real HTTP: the URL-safe key
/// `scenario.NAME__TAG__KEY`, Flutter's mangled `scenario=NAME`, a plain key bound at start, and
/// one rule naming the `route` family applying to all three route paths.
final class SDKKeyFormTests: XCTestCase {
    private let routePaths = ["/api/route/v4?", "/api/route/v3?", "/api/route?api-version=1.1&"]

    func testTheURLSafeKeySelectsAScenarioOnEveryRoutePath() throws {
        let server = try startServer(builtInEngine())
        for path in routePaths {
            let answer = try routeOrSkip(server, path + "apikey=scenario.route-500&\(TestSimulator.routeQuery)")
            XCTAssertEqual(answer.status, 500, path)
            XCTAssertEqual(try answer.json()["code"], "ERROR_UNKNOWN", path)
            XCTAssertEqual(try answer.json()["paths"], .null, "route envelope on \(path)")
            XCTAssertEqual(try answer.json()["license"], "vietmap", path)
        }
        // The same key on another family is not touched by a route rule.
        let search = try get(server, "/api/search/v4?apikey=scenario.route-500&text=ben%20thanh")
        XCTAssertEqual(search.status, 200)
    }

    func testFluttersMangledKeySelectsTheScenario() throws {
        let server = try startServer(builtInEngine())
        // Flutter's route URL builder turns `apikey: scenario:zero-results` into `apikey=scenario=zero-results`.
        let answer = try routeOrSkip(server, "/api/route?api-version=1.1&apikey=scenario=zero-results&vehicle=car&optimize=false&\(TestSimulator.routeQuery)")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(try answer.json()["code"], "ZERO_RESULTS")
        XCTAssertEqual(try answer.json()["paths"], .array([]))
    }

    func testTagsAndRealKeysInTheURLSafeSpelling() throws {
        // With --api-key team: the real key rides after the second separator and reaches the service.
        let strict = try VietMapService(databasePath: try TestSimulator.databasePath.get(), apiKeys: ["team"])
        let engine = builtInEngine(.init(adminEnabled: true, apiKeys: ["team"]))
        let server = try startServer(engine, inner: strict)
        let bare = try routeOrSkip(server, "/api/route/v3?apikey=scenario.zero-results__ci&\(TestSimulator.routeQuery)")
        XCTAssertEqual(bare.status, 401, "without the real key a scenario key is no key")
        let carried = try routeOrSkip(server, "/api/route/v3?apikey=scenario.zero-results__ci__team&\(TestSimulator.routeQuery)")
        XCTAssertEqual(carried.status, 200)
        XCTAssertEqual(try carried.json()["code"], "ZERO_RESULTS")
        // The journal names the scenario and the tag, and never shows the real key.
        let journal = try admin(server, "GET", "/__sim/journal?limit=1")
        let entry = try XCTUnwrap(try journal.json()["entries"]?.arrayValue?.last)
        XCTAssertEqual(entry["scenario"], "zero-results")
        XCTAssertEqual(entry["client"], "ci")
        XCTAssertEqual(entry["endpoint"], "route-v3")
        XCTAssertFalse(String(decoding: journal.body, as: UTF8.self).contains("team"), "the real key is redacted")
    }

    func testAPlainKeyBoundAtStartGetsItsScenario() throws {
        var configuration = ScenarioEngine.Configuration()
        configuration.boundKeys = ["baked-in-key": "autocomplete-500"]
        let server = try startServer(builtInEngine(configuration))
        let bound = try get(server, "/api/autocomplete/v4?apikey=baked-in-key&text=ben")
        XCTAssertEqual(bound.status, 500)
        XCTAssertEqual(try bound.json()["code"], "ERROR_UNKNOWN")
        let other = try get(server, "/api/autocomplete/v4?apikey=another-key&text=ben")
        XCTAssertEqual(other.status, 200, "only the bound key is affected")
    }

    func testAScenarioCanNameOneVersionOnly() throws {
        let engine = try makeEngine(#"""
            {"name": "v3-only", "description": "route v3 only", "rules": [{"match": {"endpoint": "route-v3"}, "respond": {"error": "MAX_POINTS_EXCEED"}}]}
            """#)
        let server = try startServer(engine)
        let v3 = try routeOrSkip(server, "/api/route/v3?apikey=scenario.v3-only&\(TestSimulator.routeQuery)")
        XCTAssertEqual(v3.status, 400)
        XCTAssertEqual(try v3.json()["code"], "MAX_POINTS_EXCEED")
        let v4 = try routeOrSkip(server, "/api/route/v4?apikey=scenario.v3-only&\(TestSimulator.routeQuery)")
        XCTAssertEqual(v4.status, 200)
        XCTAssertEqual(try v4.json()["code"], "OK")
    }

    func testAnUnknownEndpointWordIsAValidationErrorListingTheKnownOnes() throws {
        XCTAssertThrowsError(try makeEngine(#"{"name": "x", "description": "x", "rules": [{"match": {"endpoint": "routes"}, "respond": {"error": "ZERO_RESULTS"}}]}"#)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("unknown endpoint 'routes'"), text)
            XCTAssertTrue(text.contains("migrate-address") && text.contains("route-1.1"), text)
        }
    }
}
