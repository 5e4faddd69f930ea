import Foundation
import JSON
import Scenarios
import SimTesting
import XCTest

/// The page and its files under /__sim/ui/, and the place lookup the map uses.
final class DashboardPageTests: XCTestCase {
    func testPageAndFilesWithContentTypesAndCaching() throws {
        let (server, engine, _) = try startDashboardServer()
        let redirect = try send(server, "/__sim/ui")
        XCTAssertEqual(redirect.status, 308)
        XCTAssertEqual(redirect.header("Location"), "/__sim/ui/")

        let page = try send(server, "/__sim/ui/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        let csp = try XCTUnwrap(page.header("Content-Security-Policy"))
        XCTAssertTrue(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"), csp)
        let html = String(decoding: page.body, as: UTF8.self)
        for file in ["vendor/leaflet/leaflet.js", "vendor/leaflet/leaflet.css", "dashboard.js", "map-view.js", "polyline.js", "dashboard.css"] {
            XCTAssertTrue(html.contains("\"\(file)\""), file)
            let asset = try send(server, "/__sim/ui/" + file)
            XCTAssertEqual(asset.status, 200, file)
            XCTAssertEqual(asset.header("X-Content-Type-Options"), "nosniff")
            XCTAssertEqual(asset.header("Content-Type"), file.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8", file)
            XCTAssertEqual(asset.header("Cache-Control"), file.hasPrefix("vendor/") ? "public, max-age=86400" : "no-cache", file)
        }
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing fetched from elsewhere")
        let license = try send(server, "/__sim/ui/vendor/leaflet/LICENSE")
        XCTAssertEqual(license.status, 200)
        XCTAssertTrue(String(decoding: license.body, as: UTF8.self).contains("BSD-2-clause"))

        let script = try send(server, "/__sim/ui/dashboard.js")
        let etag = try XCTUnwrap(script.header("ETag"))
        XCTAssertEqual(try send(server, "/__sim/ui/dashboard.js", headers: ["If-None-Match": etag]).status, 304)
        XCTAssertEqual(try send(server, "/__sim/ui/dashboard.js", headers: ["If-None-Match": "\"other\""]).status, 200)

        for missing in ["/__sim/ui/nope.js", "/__sim/ui/../Package.swift", "/__sim/ui/%2e%2e/%2e%2e/Package.swift", "/__sim/ui/vendor"] {
            XCTAssertEqual(try send(server, missing).status, 404, missing)
        }
        XCTAssertEqual(try send(server, "/__sim/ui/", method: "DELETE", headers: ["X-VietMap-Sim-Admin": "1"]).status, 405)
        XCTAssertEqual(try send(server, "/__sim/ui/", method: "DELETE").status, 403, "a state-changing request passes the admin guard first")
        XCTAssertEqual(engine.journal.count(), 0, "the dashboard's own requests are not journaled")
        XCTAssertEqual(try send(server, "/__sim/scenarios").status, 200, "the admin API behind it still answers")
    }

    func testPlaceLookupBypassesScenariosAndTheJournal() throws {
        let (server, engine, _) = try startDashboardServer()
        let items = try send(server, "/api/autocomplete/v4?apikey=k&text=ben%20thanh").json()
        let refid = try XCTUnwrap(items[0]?["ref_id"]?.stringValue)
        try engine.activate("bad-key-401")
        let before = engine.journal.count()
        let place = try send(server, "/__sim/place?refid=" + refid.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertEqual(place.status, 200, "no scenario applies")
        XCTAssertNotNil(try place.json()["lat"]?.doubleValue)
        XCTAssertEqual(engine.journal.count(), before, "not journaled")
        XCTAssertEqual(try send(server, "/api/place/v4?apikey=k&refid=" + refid).status, 401, "the API itself is under the scenario")
        XCTAssertEqual(try send(server, "/__sim/place").status, 400)
        XCTAssertEqual(try send(server, "/__sim/place?refid=auto:nope").status, 404)
    }
}
