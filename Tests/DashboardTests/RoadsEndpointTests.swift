import Foundation
import ArrayBlob
import JSON
import Routing
import SimTesting
import VietMapAPI
import XCTest

/// `GET /__sim/roads`: the road graph's edges in a rectangle as GeoJSON, over real HTTP.
final class RoadsEndpointTests: XCTestCase {
    /// Around Bến Thành market, District 1.
    private let box = (minLon: 106.6950, minLat: 10.7700, maxLon: 106.7030, maxLat: 10.7760)

    private var boxQuery: String { "\(box.minLon),\(box.minLat),\(box.maxLon),\(box.maxLat)" }

    /// The edges whose geometry's bounding box meets the rectangle, by brute force over the graph.
    private func expectedEdges(_ graph: RoadGraph) -> Set<Int> {
        Set((0..<graph.edgeCount).filter { edge in
            let points = graph.edgeGeometry(edge)
            let lats = points.map(\.latitude), lons = points.map(\.longitude)
            return lons.min()! <= box.maxLon && lons.max()! >= box.minLon && lats.min()! <= box.maxLat && lats.max()! >= box.minLat
        })
    }

    func testEveryEdgeInTheRectangleWithItsGeometryNameAndClass() throws {
        let (server, _, service) = try startDashboardServer()
        let graph = try XCTUnwrap(service.roadGraph, "the test dataset has roads")
        let response = try send(server, "/__sim/roads?bbox=\(boxQuery)&limit=20000")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/geo+json; charset=utf-8")
        XCTAssertNotNil(response.header("Cache-Control"))
        let collection = try response.json()
        XCTAssertEqual(collection["type"], "FeatureCollection")
        XCTAssertEqual(collection["truncated"], false)
        let features = try XCTUnwrap(collection["features"]?.arrayValue)
        let ids = Set(features.compactMap { $0["id"]?.intValue })
        let expected = expectedEdges(graph)
        XCTAssertGreaterThan(expected.count, 50, "a busy area of the dataset")
        XCTAssertEqual(ids, expected)
        XCTAssertEqual(collection["total"]?.intValue, expected.count)

        var named = 0
        for feature in features {
            let edge = try XCTUnwrap(feature["id"]?.intValue)
            XCTAssertEqual(feature["geometry"]?["type"], "LineString")
            let coordinates = try XCTUnwrap(feature["geometry"]?["coordinates"]?.arrayValue)
            let geometry = graph.edgeGeometry(edge)
            XCTAssertEqual(coordinates.count, geometry.count)
            for (pair, point) in zip(coordinates, geometry) {
                XCTAssertEqual(pair[0]?.doubleValue ?? .nan, point.longitude, accuracy: 0.000_000_51)
                XCTAssertEqual(pair[1]?.doubleValue ?? .nan, point.latitude, accuracy: 0.000_000_51)
            }
            XCTAssertEqual(feature["properties"]?["name"]?.stringValue, graph.name(ofEdge: edge))
            if graph.name(ofEdge: edge) == "Lê Lợi" { named += 1 }
            let roadClass = try XCTUnwrap(feature["properties"]?["class"]?.stringValue)
            XCTAssertTrue(roadClass.allSatisfy { $0.isLowercase || $0 == "_" }, roadClass)
        }
        XCTAssertGreaterThan(named, 0, "Lê Lợi runs through the rectangle")
    }

    func testLimitKeepsTheMostImportantRoads() throws {
        let (server, _, service) = try startDashboardServer()
        let graph = try XCTUnwrap(service.roadGraph)
        let expected = expectedEdges(graph)
        let collection = try send(server, "/__sim/roads?bbox=\(boxQuery)&limit=10").json()
        let features = try XCTUnwrap(collection["features"]?.arrayValue)
        XCTAssertEqual(features.count, 10)
        XCTAssertEqual(collection["truncated"], true)
        XCTAssertEqual(collection["total"]?.intValue, expected.count)
        // RoadClass raw values run from motorway (1) down to minor ways; 0 is "other" (least important).
        func rank(_ edge: Int) -> Int { let raw = Int(graph.storage.edgeRoadClass[edge]); return raw == 0 ? 100 : raw }
        let kept = Set(features.compactMap { $0["id"]?.intValue })
        let worstKept = kept.map(rank).max()!
        let bestDropped = expected.subtracting(kept).map(rank).min()!
        XCTAssertLessThanOrEqual(worstKept, bestDropped)
    }

    func testEmptyAreaGivesAnEmptyCollection() throws {
        let (server, _, _) = try startDashboardServer()
        let collection = try send(server, "/__sim/roads?bbox=0,0,0.1,0.1").json()
        XCTAssertEqual(collection["features"], .array([]))
        XCTAssertEqual(collection["total"], 0)
    }

    func testBadInputIsA400NamingTheProblem() throws {
        let (server, _, _) = try startDashboardServer()
        let cases: [(String, String)] = [
            ("", "bbox is required"),
            ("?bbox=", "bbox is required"),
            ("?bbox=106.69,10.77,106.70", "four numbers"),
            ("?bbox=106.69,10.77,106.70,10.78,1", "four numbers"),
            ("?bbox=a,b,c,d", "four numbers"),
            ("?bbox=nan,10.77,106.70,10.78", "four numbers"),
            ("?bbox=106.69,10.77,inf,10.78", "four numbers"),
            ("?bbox=190,10.77,191,10.78", "out of range"),
            ("?bbox=106.70,10.77,106.69,10.78", "minLon < maxLon"),
            ("?bbox=106.69,10.78,106.70,10.78", "minLat < maxLat"),
            ("?bbox=106.0,10.0,106.6,10.2", "too large"),
            ("?bbox=106.69,10.77,106.70,10.78&limit=0", "limit"),
            ("?bbox=106.69,10.77,106.70,10.78&limit=20001", "limit"),
            ("?bbox=106.69,10.77,106.70,10.78&limit=ten", "limit"),
            ("?bbox=%zz", "malformed query"),
        ]
        for (query, expected) in cases {
            let response = try send(server, "/__sim/roads" + query)
            XCTAssertEqual(response.status, 400, query)
            let message = try response.json()["error"]?.stringValue ?? ""
            XCTAssertTrue(message.contains(expected), "\(query): \(message)")
        }
        let post = try send(server, "/__sim/roads?bbox=\(boxQuery)", method: "POST", headers: ["X-VietMap-Sim-Admin": "1"])
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD")
    }

    func testStartIsWhereTheRoadsAre() throws {
        let (server, _, _) = try startDashboardServer()
        let center = try XCTUnwrap(send(server, "/__sim/roads/start").json()["center"]?.arrayValue)
        let lat = try XCTUnwrap(center[0].doubleValue), lon = try XCTUnwrap(center[1].doubleValue)
        let around = "\(lon - 0.0025),\(lat - 0.0025),\(lon + 0.0025),\(lat + 0.0025)"
        let total = try send(server, "/__sim/roads?bbox=\(around)").json()["total"]?.intValue ?? 0
        XCTAssertGreaterThan(total, 50, "the busiest cell (\(lat), \(lon)) has many roads")
    }
}
