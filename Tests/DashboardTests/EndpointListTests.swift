import Dashboard
import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapWire
import XCTest

/// `GET /__sim/endpoints`: the page's source of truth for endpoint names, paths and families.
final class EndpointListTests: XCTestCase {
    func testListsEveryEndpointWithPathFamilyAndVersion() throws {
        let (server, engine, _) = try startDashboardServer()
        let answer = try send(server, "/__sim/endpoints")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.header("Content-Type")?.hasPrefix("application/json"), true)
        let document = try answer.json()
        let endpoints = try XCTUnwrap(document["endpoints"]?.arrayValue)
        XCTAssertEqual(endpoints.compactMap { $0["name"]?.stringValue }, APIEndpoint.allCases.map(\.name), "every endpoint, in order")
        for item in endpoints {
            let name = try XCTUnwrap(item["name"]?.stringValue)
            let endpoint = try XCTUnwrap(APIEndpoint(rawValue: name), name)
            XCTAssertEqual(item["path"]?.stringValue, endpoint.path, name)
            XCTAssertEqual(item["family"]?.stringValue, endpoint.family.rawValue, name)
            XCTAssertEqual(item["apiVersion"]?.stringValue, endpoint.apiVersion, name)
            XCTAssertEqual(item["apiVersion"]?.isNull, endpoint.apiVersion == nil, "\(name): null, not absent")
        }
        // Spelled out, so a change in the list or in the rendering shows here.
        let legacy = try XCTUnwrap(endpoints.first { $0["name"]?.stringValue == "route-1.1" })
        XCTAssertEqual(legacy["path"]?.stringValue, "/api/route")
        XCTAssertEqual(legacy["family"]?.stringValue, "route")
        XCTAssertEqual(legacy["apiVersion"]?.stringValue, "1.1")
        let migrate = try XCTUnwrap(endpoints.first { $0["name"]?.stringValue == "migrate-address" })
        XCTAssertEqual(migrate["path"]?.stringValue, "/api/migrate-address/v3")
        XCTAssertEqual(migrate["family"]?.stringValue, "migrate-address")

        let families = try XCTUnwrap(document["families"]?.arrayValue)
        XCTAssertEqual(families.compactMap { $0["name"]?.stringValue }, APIFamily.allCases.map(\.rawValue))
        var grouped: [String] = []
        for family in families {
            let name = try XCTUnwrap(family["name"]?.stringValue)
            let members = try XCTUnwrap(family["endpoints"]?.arrayValue).compactMap(\.stringValue)
            XCTAssertFalse(members.isEmpty, name)
            XCTAssertEqual(Set(members), APIEndpoint.named(name).map { Set($0.map(\.name)) }, "the journal filter's meaning of '\(name)'")
            grouped += members
        }
        XCTAssertEqual(Set(grouped), Set(APIEndpoint.allCases.map(\.name)))
        XCTAssertEqual(grouped.count, APIEndpoint.allCases.count, "each endpoint in exactly one family")
        XCTAssertEqual(families.first { $0["name"]?.stringValue == "route" }?["endpoints"]?.arrayValue?.compactMap(\.stringValue),
                       ["route", "route-v3", "route-1.1"])
        XCTAssertEqual(document["other"]?.stringValue, "other")

        XCTAssertEqual(try send(server, "/__sim/endpoints", method: "POST", headers: ["X-VietMap-Sim-Admin": "1"]).status, 405)
        XCTAssertEqual(try send(server, "/__sim/endpoints/", method: "GET").status, 404, "no such admin endpoint")
        XCTAssertEqual(Dashboard(roadGraph: nil).routes.filter { $0.pattern == Dashboard.endpointsPath }.map(\.isOpen), [false],
                       "behind the admin guard's token like the other dashboard data")
        XCTAssertEqual(engine.journal.count(), 0, "not journaled")
    }

    func testThePageReadsTheListInsteadOfHardCodingIt() throws {
        let (server, _, _) = try startDashboardServer()
        let script = String(decoding: try send(server, "/__sim/ui/dashboard.js").body, as: UTF8.self)
        XCTAssertTrue(script.contains("\"../endpoints\""), "dashboard.js fetches the list")
        let html = String(decoding: try send(server, "/__sim/ui/").body, as: UTF8.self)
        for name in ["route-v3", "route-1.1", "reverse", "matrix"] {
            XCTAssertFalse(html.contains("<option>\(name)</option>"), "\(name) is not hard-coded in the page")
        }
    }
}
