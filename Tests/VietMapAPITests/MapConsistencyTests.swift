import Foundation
import JSON
import MapTiles
import Polyline
import XCTest

/// The map agrees with the other APIs, as a user sees it: a route drawn from route v4 or Directions v5 runs
/// along the roads the vector tiles draw, and a place autocomplete finds is drawn where place v4 puts it.
final class MapConsistencyTests: XCTestCase {
    private let sim = SimulatorHarness.shared
    private let map = MapHTTPClient.shared

    /// 3 px of a 512 px z16 tile of extent 4096.
    private static let tolerance = 3.0 * 4096 / 512

    /// For every vertex of `line` (lat, lng): its distance in z16 tile units to the nearest `vietmap_network` line.
    private func offRoad(_ line: [(Double, Double)]) throws -> [(vertex: Int, units: Double)] {
        var far: [(Int, Double)] = [], worst = 0.0
        defer { print("map-consistency: \(line.count) vertices, the farthest \(worst) tile units from a drawn road") }
        for (i, (lat, lng)) in line.enumerated() {
            let at = TilePosition(lat: lat, lng: lng, z: 16)
            let network = try map.vectorTile(16, at.x, at.y)[layer: "vietmap_network"]
            let distance = at.distance(to: (network?.features ?? []).flatMap(\.parts))
            worst = max(worst, distance)
            if distance > Self.tolerance { far.append((i, distance)) }
        }
        return far
    }

    /// Routes in District 1 (lat, lng).
    private static let routes: [[(Double, Double)]] = [
        [(10.7769, 106.7008), (10.7798, 106.6990)],
        [(10.7725, 106.6980), (10.7798, 106.6990)],
    ]

    func testRouteV4RunsAlongTheDrawnRoads() async throws {
        for points in Self.routes {
            let reply = try await sim.get("/api/route/v4", [("apikey", "k")] + points.map { ("point", "\($0.0),\($0.1)") })
            XCTAssertEqual(reply.status, 200)
            let encoded = try XCTUnwrap(reply.json()["paths"]?[0]?["points"]?.stringValue)
            let line = try Polyline.decode(encoded, precision: 5).map { ($0.lat, $0.lng) }
            XCTAssertGreaterThan(line.count, 2)
            let far = try offRoad(line)
            XCTAssertTrue(far.isEmpty, "route v4 \(points): vertices off the drawn roads (index, tile units): \(far)")
        }
    }

    func testDirectionsV5RunsAlongTheDrawnRoads() async throws {
        let points = Self.routes[1]
        let coordinates = points.map { "\($0.1),\($0.0)" }.joined(separator: ";")
        let reply = try await sim.get("/api/navigations/route/directions/v5/mapbox/driving-traffic/\(coordinates).json",
                                      [("apikey", "k"), ("geometries", "polyline6"), ("overview", "full")])
        XCTAssertEqual(reply.status, 200)
        let encoded = try XCTUnwrap(reply.json()["routes"]?[0]?["geometry"]?.stringValue)
        let line = try Polyline.decode(encoded, precision: 6).map { ($0.lat, $0.lng) }
        XCTAssertGreaterThan(line.count, 2)
        let far = try offRoad(line)
        XCTAssertTrue(far.isEmpty, "directions v5: vertices off the drawn roads (index, tile units): \(far)")
    }

    func testAutocompletePlacesAreDrawnWherePlaceV4PutsThem() async throws {
        var checked = 0, z16 = 0
        for text in ["Chợ Bến Thành", "Nhà thờ Đức Bà", "Bưu điện Thành phố"] {
            let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "k"), ("text", text), ("focus", "10.7769,106.7008")])
            XCTAssertEqual(reply.status, 200)
            for item in (try reply.json().arrayValue ?? []).prefix(3) {
                guard let ref = item["ref_id"]?.stringValue, let name = item["name"]?.stringValue else { continue }
                let detail = try await sim.get("/api/place/v4", [("apikey", "k"), ("refid", ref)]).json()
                let lat = try XCTUnwrap(detail["lat"]?.doubleValue), lng = try XCTUnwrap(detail["lng"]?.doubleValue)
                // Only the POIs of District 1 (the layer holds POIs, not streets or admin units).
                guard abs(lat - 10.7769) < 0.03, abs(lng - 106.7008) < 0.03 else { continue }
                // Every POI is in its z18 tile; all but the classes VietMap shows from z18 (bus, company, other)
                // already in its z16 tile.
                let deep = try drawnPoint(ref: ref, name: name, lat: lat, lng: lng, z: 18)
                guard let deep else {
                    XCTFail("\(text): \(name) (\(ref)) is not in vietmap_point of its z18 tile")
                    continue
                }
                guard case .string(let pointClass)? = deep["class"] else { XCTFail("\(name): no class"); continue }
                if !["bus", "company", "other"].contains(pointClass) {
                    XCTAssertNotNil(try drawnPoint(ref: ref, name: name, lat: lat, lng: lng, z: 16),
                                    "\(text): \(name) (\(ref), \(pointClass)) is not in vietmap_point of its z16 tile")
                    z16 += 1
                }
                print("map-consistency: \(text) → \(name) [\(pointClass)] drawn at z18\(["bus", "company", "other"].contains(pointClass) ? "" : " and z16")")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 3, "places of District 1 were checked")
        XCTAssertGreaterThanOrEqual(z16, 2, "landmarks were checked at z16")
    }

    /// The `vietmap_point` feature of the z`z` tile holding (lat, lng) with `ref_id` `ref` (or else `name`), if it is
    /// drawn within 2 tile units of that position.
    private func drawnPoint(ref: String, name: String, lat: Double, lng: Double, z: Int) throws -> VectorTileReader.Feature? {
        let at = TilePosition(lat: lat, lng: lng, z: z)
        let points = try map.vectorTile(z, at.x, at.y)[layer: "vietmap_point"]?.features ?? []
        let match = points.first { $0["ref_id"] == .string(ref) } ?? points.first { $0["name"] == .string(name) }
        guard let match else { return nil }
        XCTAssertLessThan(at.distance(to: match.parts), 2, "\(name): drawn at z\(z) where place v4 puts it")
        return match
    }
}
