import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// Scenario rules over the map endpoints: an endpoint name (`vector-tile`), the `map` family, the
/// `tiles` group and the values a map path carries (`z`, `look`…) select map requests — and leave
/// the other endpoints alone; keyless glyph and sprite requests get their scenario too.
final class MapScenarioTests: XCTestCase {
    private var server: HTTPServer!

    override func setUpWithError() throws {
        let engine = try makeEngine(#"""
            {"name": "map-faults", "description": "z14 vector tiles fail, raster tiles are rate-limited, the rest of the map is gone",
             "rules": [
               {"name": "z14", "match": {"endpoint": "vector-tile", "params": {"z": "14"}}, "respond": {"status": 500}},
               {"name": "raster", "match": {"endpoint": "tiles", "params": {"look": "dm"}}, "respond": {"status": 429}},
               {"name": "rest", "match": {"endpoint": "map"}, "respond": {"status": 404}}
             ]}
            """#)
        server = try startServer(engine)
    }

    func testRulesNamingAMapEndpointFamilyOrGroupMatchMapRequests() throws {
        XCTAssertEqual(try get(server, "/api/maps/data/sim-x/14/13048/7698.pbf?apikey=scenario:map-faults").status, 500)
        // Another zoom: not `z14`, so the family rule.
        XCTAssertEqual(try get(server, "/api/maps/data/sim-x/13/6524/3849.pbf?apikey=scenario:map-faults").status, 404)
        XCTAssertEqual(try get(server, "/api/dm/13/6524/3849@2x.png?apikey=scenario:map-faults").status, 429)
        XCTAssertEqual(try get(server, "/maps/tiles/dm/13/6524/3849@2x.png?apiKey=scenario:map-faults").status, 429,
                       "another generation of the same tile, the key spelled apiKey")
        XCTAssertEqual(try get(server, "/api/tm/13/6524/3849@2x.png?apikey=scenario:map-faults").status, 404)
        XCTAssertEqual(try get(server, "/maps/styles/tm/style.json?apikey=scenario:map-faults").status, 404)
        // Glyphs need no key: a scenario chosen by header applies to them as well.
        let glyphs = try request(server, "GET", "/mt/fonts/Roboto%20Regular/0-255.pbf", headers: ["X-VietMap-Sim-Scenario: map-faults"])
        XCTAssertEqual(glyphs.status, 404)
        // The other endpoints are left alone.
        let route = try get(server, "/api/route/v4?apikey=scenario:map-faults&\(TestSimulator.routeQuery)")
        XCTAssertEqual(route.status, 200)
        XCTAssertEqual(try route.json()["code"], "OK")
    }

    func testWithoutAScenarioKeylessResourcesPassAndKeyedOnesNeedTheKey() throws {
        XCTAssertNotEqual(try get(server, "/mt/styles/tm/sprite@2x.json").status, 401)
        XCTAssertEqual(try get(server, "/api/maps/data/sim-x/14/13048/7698.pbf").status, 401)
    }
}
