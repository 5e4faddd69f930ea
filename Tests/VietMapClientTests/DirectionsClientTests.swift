import Foundation
import VietMapClient
import XCTest

/// Directions v5 through the client library, over real HTTP against the in-process simulator.
final class DirectionsClientTests: XCTestCase {
    let sim = ClientTestSimulator.shared

    /// Metres between two coordinates (haversine).
    func meters(_ a: VMCoordinate, _ b: VMCoordinate) -> Double {
        let r = 6_371_000.0, rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLng = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    func testARouteDecodesWithPolyline6NearTheRequestedPointsAndDepartToArrive() async throws {
        // Q1 → Q3, both points beside a road (8 m and 24 m; Chợ Bến Thành's is 59 m inside the market).
        let points = [VMCoordinate(latitude: 10.7745, longitude: 106.7030), Places.q3]
        let answer = try await sim.provider().directions(profile: .motorcycle, coordinates: points)
        XCTAssertTrue(answer.isOk)
        XCTAssertEqual(answer.uuid?.count, 36)
        XCTAssertEqual(answer.waypoints?.count, 2)
        let route = try XCTUnwrap(answer.routes.first)
        XCTAssertEqual(route.voiceLocale, "vi")
        let line = try XCTUnwrap(route.geometry).coordinates(precision: VMDirectionsOptions.Geometries.polyline6.precision)
        XCTAssertGreaterThan(line.count, 2)
        XCTAssertLessThan(meters(try XCTUnwrap(line.first), points[0]), 50)
        XCTAssertLessThan(meters(try XCTUnwrap(line.last), points[1]), 50)
        // A polyline6 string read as 1e5 would be ten times too far out: the precision matters.
        if case .encoded(let text) = route.geometry {
            XCTAssertEqual(try decodePolylineStrict(text, precision: 1e6).count, line.count)
        } else {
            XCTFail("polyline6 geometry expected, got \(String(describing: route.geometry))")
        }

        let leg = try XCTUnwrap(route.legs.first)
        XCTAssertGreaterThan(leg.steps.count, 1)
        XCTAssertEqual(leg.steps.first?.maneuver.type, "depart")
        XCTAssertEqual(leg.steps.last?.maneuver.type, "arrive")
        XCTAssertEqual(leg.steps.map(\.distance).reduce(0, +), leg.distance, accuracy: 0.5)
        XCTAssertFalse(leg.steps.first?.maneuver.instruction?.isEmpty ?? true)
        XCTAssertTrue(leg.steps.allSatisfy { $0.bannerInstructions?.isEmpty == false })
        XCTAssertNotNil(leg.steps.first?.voiceInstructions?.first?.announcement)
        XCTAssertEqual(leg.annotation?.distance?.count, line.count - 1)
        XCTAssertTrue(leg.annotation?.congestion?.allSatisfy { $0 == "unknown" } ?? false)
        XCTAssertLessThan(meters(try XCTUnwrap(leg.steps.first?.maneuver.coordinate), points[0]), 50)

        // What arrived: the profile and lng,lat coordinates in the path, the SDK's query, the key.
        let entry = try XCTUnwrap(sim.log.all.last { $0.path.hasPrefix("/api/navigations/route/directions/v5/") })
        XCTAssertEqual(entry.path, "/api/navigations/route/directions/v5/mapbox/motorcycle/106.703000,10.774500;106.699000,10.779800.json")
        XCTAssertEqual(entry.items.first, VMParameter("apikey", ClientTestSimulator.apiKey))
        XCTAssertEqual(entry.items.first { $0.name == "geometries" }?.value, "polyline6")
    }

    func testGeoJSONAndPolylineGeometriesDecodeToTheSameLine() async throws {
        let points = [Places.benThanhMarket, Places.q3]
        var options = VMDirectionsOptions()
        options.steps = false
        let six = try await sim.provider().directions(coordinates: points, options: options)
        options.geometries = .polyline
        let five = try await sim.provider().directions(coordinates: points, options: options)
        options.geometries = .geojson
        let json = try await sim.provider().directions(coordinates: points, options: options)
        let a = try XCTUnwrap(six.routes.first?.geometry).coordinates(precision: 1e6)
        let b = try XCTUnwrap(five.routes.first?.geometry).coordinates(precision: VMDirectionsOptions.Geometries.polyline.precision)
        let c = try XCTUnwrap(json.routes.first?.geometry).coordinates()
        XCTAssertEqual(a.count, b.count)
        XCTAssertEqual(a.count, c.count)
        for (p, q) in zip(a, b) { XCTAssertLessThan(meters(p, q), 1.5) }
        for (p, q) in zip(a, c) { XCTAssertLessThan(meters(p, q), 0.2) }
        XCTAssertEqual(six.routes.first?.legs.first?.steps.count, 0, "steps=false")
    }

    func testNoRouteDecodesWithEmptyRoutes() async throws {
        let answer = try await sim.provider().directions(coordinates: [Places.benThanhMarket, Places.hoanKiem])
        XCTAssertEqual(answer.code, "NoRoute")
        XCTAssertFalse(answer.isOk)
        XCTAssertTrue(answer.routes.isEmpty)
        XCTAssertFalse(answer.message?.isEmpty ?? true)
    }

    func testErrorsMapToTheClientErrorWithTheMapboxCodeAndMessage() async throws {
        let provider = sim.provider()
        // A latitude out of range reaches the server only through a raw request (the builder refuses it).
        let bad = VMRequest(.directionsV5, [], pathSuffix: "/mapbox/driving/106.698,10.7725;106.699,95.json")
        let invalid = await assertThrowsClientError { try VMResponseDecoding.decoded(VMDirectionsResponse.self, from: try await provider.send(bad)) }
        XCTAssertEqual(invalid?.status, 422)
        XCTAssertEqual(invalid?.apiError?.code, "InvalidInput")
        XCTAssertFalse(invalid?.apiError?.message?.isEmpty ?? true)

        let profile = await assertThrowsClientError { try await provider.directions(profile: "mapbox/helicopter", coordinates: [Places.benThanhMarket, Places.q3]) }
        XCTAssertEqual(profile?.status, 404)
        XCTAssertEqual(profile?.apiError?.code, "ProfileNotFound")

        let key = await assertThrowsClientError { try await self.sim.provider(apiKey: "wrong").directions(coordinates: [Places.benThanhMarket, Places.q3]) }
        XCTAssertEqual(key?.status, 401)
        XCTAssertEqual(key?.apiError?.code, "InvalidToken")
    }

    func testBadArgumentsAreRefusedBeforeSendingAndBadPolylinesNeverTrap() async throws {
        let before = sim.log.all.count
        let provider = sim.provider()
        var options = VMDirectionsOptions()
        options.bearings = [VMBearing(degrees: .nan, range: 45), nil]
        for call in [
            { try await provider.directions(coordinates: [Places.q3]) },
            { try await provider.directions(coordinates: [Places.q3, VMCoordinate(latitude: .infinity, longitude: 0)]) },
            { try await provider.directions(profile: "", coordinates: [Places.q3, Places.benThanhMarket]) },
            { try await provider.directions(profile: "mapbox//x", coordinates: [Places.q3, Places.benThanhMarket]) },
            { try await provider.directions(coordinates: [Places.q3, Places.benThanhMarket], options: options) },
        ] as [() async throws -> VMDirectionsResponse] {
            let error = await assertThrowsClientError(call)
            guard case .invalidArgument = error else { XCTFail("expected invalidArgument, got \(String(describing: error))"); continue }
        }
        XCTAssertEqual(sim.log.all.count, before, "nothing sent")

        for junk in ["", "~", "\u{1F6F5}", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", String(repeating: "~", count: 40)] {
            _ = decodePolyline(junk, precision: 1e6)
            _ = decodePolyline(junk, precision: 0)
            _ = decodePolyline(junk, precision: .nan)
        }
        XCTAssertThrowsError(try decodePolylineStrict("_p~iF~ps|U", precision: -1))
        XCTAssertEqual(VMDirectionsGeometry.lineString([[106.7], [106.7, 10.7]]).coordinates().count, 1)
        // Bodies that fit no model are decoding errors, not traps.
        for body in ["{}", "[]", "{\"code\":\"Ok\",\"routes\":[{}]}", "{\"code\":\"Ok\",\"routes\":[{\"legs\":[],\"distance\":1,\"duration\":1,\"geometry\":42}]}"] {
            let error = await assertThrowsClientError {
                try VMResponseDecoding.decoded(VMDirectionsResponse.self, from: VMRawResponse(status: 200, body: Data(body.utf8)))
            }
            guard case .decoding = error else { XCTFail("\(body): expected decoding, got \(String(describing: error))"); continue }
        }
    }
}
