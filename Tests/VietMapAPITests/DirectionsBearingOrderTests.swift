import Foundation
import JSON
import Routing
import VietMapWire
import XCTest

/// Directions v5 `bearings` in both orders VietMap's navigation SDKs write (`DirectionsBearingOrder`):
/// Mapbox's `degrees,range` (the Android SDK, and anyone not marked) and the iOS fork's
/// `accuracy,heading` (marked by the User-Agent its `MBDirections.swift` builds), over real HTTP on
/// the default dataset.
final class DirectionsBearingOrderTests: XCTestCase {
    let sim = SimulatorHarness.shared
    static let path = "/api/navigations/route/directions/v5"

    /// The User-Agent `maps-sdk-directions-ios` 2.0.2 sends from an app through CocoaPods.
    static let iOSAgent = "VietMapNavigationDemo/1.0 VietMapDirections/0.23.0 iOS/17.4.0 (arm64)"
    /// mapbox-java's `ApiCallHelper.getHeaderUserAgent` on Android (the Android navigation SDK).
    static let androidAgent = "MapboxJava/5.9.0 Linux/4.19.191 (aarch64)"

    /// On Lê Duẩn (Q1, in front of Nhà thờ Đức Bà), a dual carriageway: the point is on the north-east
    /// bound carriageway (43°), the south-west bound one (223°) runs ~15 m away. The route ends at
    /// Bến Thành, south-west.
    static let start = (10.779705, 106.697964), end = (10.7725, 106.6980)

    struct Departure {
        let code: String
        /// The first waypoint's distance from the asked point (m) and the depart step's `bearing_after`.
        let snapDistance: Double, bearingAfter: Double, outBearing: Double
    }

    func depart(bearings: String, userAgent: String?) async throws -> Departure {
        let coordinates = "\(Self.start.1),\(Self.start.0);\(Self.end.1),\(Self.end.0)"
        let reply = try await sim.get("\(Self.path)/mapbox/driving-traffic/\(coordinates).json",
                                      DirectionsV5Tests.sdkQuery + [("bearings", bearings)],
                                      headers: userAgent.map { ["User-Agent": $0] } ?? [:])
        XCTAssertEqual(reply.status, 200, "\(bearings) \(userAgent ?? "-"): \(String(decoding: reply.data, as: UTF8.self).prefix(300))")
        let body = try reply.json()
        let step = try XCTUnwrap(body["routes"]?[0]?["legs"]?[0]?["steps"]?[0], "\(bearings): \(body["code"] ?? .null)")
        let crossing = try XCTUnwrap(step["intersections"]?[0])
        let out = try XCTUnwrap(crossing["out"]?.intValue)
        let departure = Departure(code: body["code"]?.stringValue ?? "",
                                  snapDistance: try XCTUnwrap(body["waypoints"]?[0]?["distance"]?.doubleValue),
                                  bearingAfter: try XCTUnwrap(step["maneuver"]?["bearing_after"]?.doubleValue),
                                  outBearing: try XCTUnwrap(crossing["bearings"]?[out]?.doubleValue))
        print("bearings=\(bearings) agent=\(userAgent ?? "-"): snapped \(departure.snapDistance) m, leaves at \(departure.bearingAfter)° (out \(departure.outBearing)°)")
        return departure
    }

    func gap(_ a: Double, _ b: Double) -> Double { let d = abs(a - b).truncatingRemainder(dividingBy: 360); return min(d, 360 - d) }

    /// The issue's case: an iOS reroute with a course of 223° leaves at 223° (Mapbox's reading,
    /// a range of 223, is a 422 there).
    func testAnIOSRerouteLeavesAtItsCourse() async throws {
        let unfiltered = try await depart(bearings: "", userAgent: Self.iOSAgent)
        XCTAssertLessThan(gap(unfiltered.bearingAfter, 43), 30, "the point lies on the 43° carriageway")
        let reroute = try await depart(bearings: "90,223;", userAgent: Self.iOSAgent)
        XCTAssertEqual(reroute.code, "Ok")
        XCTAssertLessThan(gap(reroute.bearingAfter, 223), 30)
        XCTAssertLessThan(gap(reroute.outBearing, 223), 30)
        XCTAssertLessThan(reroute.snapDistance, 30, "the other carriageway of the same street")
        // A second number above 180 can only be a heading: the same without the marker.
        for agent in [nil, Self.androidAgent] {
            let unmarked = try await depart(bearings: "90,223;", userAgent: agent)
            XCTAssertLessThan(gap(unmarked.bearingAfter, 223), 30)
        }
        // A first number above 180 can only be Mapbox's degrees: the same with the marker.
        let mapboxShaped = try await depart(bearings: "223,45;", userAgent: Self.iOSAgent)
        XCTAssertLessThan(gap(mapboxShaped.bearingAfter, 223), 30)
    }

    /// `90,43` is valid in both orders: the User-Agent decides.
    func testAnAmbiguousPairIsReadInTheSendersOrder() async throws {
        // iOS: heading 43 ± 90 — the carriageway the point is on, leaving north-east.
        let iOS = try await depart(bearings: "90,43;", userAgent: Self.iOSAgent)
        XCTAssertLessThan(gap(iOS.bearingAfter, 43), 30)
        XCTAssertLessThan(iOS.snapDistance, 5)
        // Android / Mapbox: 90° ± 43 — not Lê Duẩn's 43° or 223°: another street, leaving east-ish.
        for agent in [nil, Self.androidAgent] {
            let mapbox = try await depart(bearings: "90,43;", userAgent: agent)
            XCTAssertLessThanOrEqual(gap(mapbox.bearingAfter, 90), 44)
            XCTAssertGreaterThan(mapbox.snapDistance, iOS.snapDistance + 10, "moved off the carriageway the point is on")
        }
    }

    /// Pairs valid in neither order are still a 422 naming both forms.
    func testAPairValidInNeitherOrderIsInvalidInput() async throws {
        for (bearings, agent) in [("200,200;", Self.iOSAgent), ("200,200;", nil), ("-1,90;", Self.iOSAgent), ("90,361;", nil), ("90;", Self.iOSAgent)] {
            let coordinates = "\(Self.start.1),\(Self.start.0);\(Self.end.1),\(Self.end.0)"
            let reply = try await sim.get("\(Self.path)/mapbox/driving/\(coordinates).json", [("apikey", "dev"), ("bearings", bearings)],
                                          headers: agent.map { ["User-Agent": $0] } ?? [:])
            XCTAssertEqual(reply.status, 422, bearings)
            let body = try reply.json()
            XCTAssertEqual(body["code"], "InvalidInput")
            XCTAssertTrue(body["message"]?.stringValue?.contains("accuracy,heading") == true, "\(body)")
        }
    }

    /// Which User-Agents mark the iOS fork, and how each order reads a pair.
    func testTheMarkerAndTheRule() {
        let iOS: [String] = [
            Self.iOSAgent,
            "Foo/2.3 MapboxDirections/0.23.0 iOS/16.1.2 (arm64)",   // the fork built from its Xcode project
            "Foo/2.3 iOS/17.0.0 (arm64)",                           // linked statically: no library component
            "Foo/2.3 VietMapDirections/0.23.0 macOS/14.2.1 (x86_64)",
        ]
        let others: [String?] = [
            nil, "", Self.androidAgent, "mapbox-navigation-android/0.42.6 MapboxJava/5.9.0 Linux/4.19.191 (aarch64)",
            "okhttp/4.12.0", "Foo/1 CFNetwork/1494.0.7 Darwin/23.4.0",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Foo/2.3 iOS/17.0 (arm64)", "Foo/2.3 iOS/17.x.0 (arm64)",
        ]
        for agent in iOS { XCTAssertEqual(DirectionsBearingOrder(userAgent: agent), .accuracyHeading, agent) }
        for agent in others { XCTAssertEqual(DirectionsBearingOrder(userAgent: agent), .degreesRange, agent ?? "nil") }

        func read(_ order: DirectionsBearingOrder, _ a: Double, _ b: Double) -> [Double]? { order.read(a, b).map { [$0.degrees, $0.range] } }
        XCTAssertEqual(read(.accuracyHeading, 90, 43), [43, 90])
        XCTAssertEqual(read(.degreesRange, 90, 43), [90, 43])
        for order in [DirectionsBearingOrder.accuracyHeading, .degreesRange] {
            XCTAssertEqual(read(order, 90, 223), [223, 90])
            XCTAssertEqual(read(order, 223, 90), [223, 90])
            XCTAssertEqual(read(order, 180, 360), [360, 180])
            XCTAssertNil(read(order, 200, 200))
            XCTAssertNil(read(order, .nan, 10))
            XCTAssertNil(read(order, 10, -1))
        }
    }
}
