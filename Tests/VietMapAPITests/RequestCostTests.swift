import VietMapWire
import XCTest

/// `RequestCost`: what makes a request heavy, read from its endpoint and parameters alone.
final class RequestCostTests: XCTestCase {
    private func cost(_ endpoint: APIEndpoint, _ query: [(String, String)], path: String? = nil) -> RequestCost {
        RequestCost.estimate(endpoint: endpoint, path: path ?? endpoint.path, parameters: query.map { (name: $0.0, value: $0.1) })
    }

    private func points(_ count: Int) -> [(String, String)] {
        (0..<count).map { ("point", "10.77\($0),106.70") }
    }

    private func directions(_ waypoints: Int) -> String {
        APIEndpoint.directionsV5.path + "/mapbox/driving/" + (0..<waypoints).map { "106.70,10.77\($0)" }.joined(separator: ";") + ".json"
    }

    func testLightRequests() {
        XCTAssertEqual(cost(.place, [("refid", "x")]), .light)
        XCTAssertEqual(cost(.reverse, [("lat", "10.7"), ("lng", "106.7")]), .light)
        XCTAssertEqual(cost(.autocomplete, [("text", "123 Nguyễn Thị Minh Khai, Phường Bến Thành, Quận 1, TP HCM")]), .light)
        XCTAssertEqual(cost(.route, points(5) + [("vehicle", "truck")]), .light, "over the hierarchy")
        XCTAssertEqual(cost(.routeV1, points(2) + [("avoid", "")]), .light)
        XCTAssertEqual(cost(.directionsV5, [("steps", "true"), ("exclude", "motorway")], path: directions(5)), .light)
        XCTAssertEqual(cost(.matrix, points(10)), .light, "10 × 10 cells")
        XCTAssertEqual(cost(.matrix, points(50) + [("sources", "0;1"), ("destinations", "2;3;4")]), .light, "2 × 3 cells")
        XCTAssertEqual(cost(.tsp, points(10)), .light)
    }

    func testHeavyRequests() {
        XCTAssertTrue(cost(.autocomplete, [("text", Array(repeating: "đường", count: 60).joined(separator: " "))]).isHeavy)
        XCTAssertTrue(cost(.search, [("text", String(repeating: "x", count: 200))]).isHeavy)
        XCTAssertTrue(cost(.route, points(6)).isHeavy)
        XCTAssertEqual(cost(.route, points(2) + [("avoid", "Toll")]), .heavy("a route avoiding toll"))
        XCTAssertTrue(cost(.routeV3, points(2) + [("vehicle", "container")]).isHeavy)
        XCTAssertTrue(cost(.route, points(2) + [("vehicle", "truck"), ("capacity", "9000")]).isHeavy)
        XCTAssertEqual(cost(.directionsV5, [], path: directions(25)), .heavy("Directions through 25 waypoints"))
        XCTAssertTrue(cost(.directionsV5, [("exclude", "ferry,toll")], path: directions(2)).isHeavy)
        XCTAssertEqual(cost(.matrix, points(100) + [("destinations", (0..<25).map(String.init).joined(separator: ";"))]),
                       .heavy("a matrix of 100 × 25 cells"))
        XCTAssertTrue(cost(.matrixV4, points(3) + [("avoid", "toll")]).isHeavy)
        XCTAssertTrue(cost(.tsp, points(25)).isHeavy)
    }
}
