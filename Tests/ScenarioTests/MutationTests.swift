import Foundation
import HTTPServer
import JSON
import Scenarios
import XCTest

/// Contract-breaking shapes made from real answers with JSON Patch.
final class MutationTests: XCTestCase {
    private func serve(_ patch: String, endpoint: String) throws -> HTTPServer {
        try startServer(try makeEngine(#"""
            {"name": "m", "description": "d", "rules": [{"match": {"endpoint": "\#(endpoint)"}, "patch": \#(patch)}]}
            """#))
    }

    func testChangeTypesAndKeysOfAutocompleteItems() throws {
        let server = try serve(#"""
            [{"op": "replace", "path": "/*/distance", "value": "0.5"},
             {"op": "move", "from": "/*/name", "path": "/*/title"},
             {"op": "add", "path": "/-", "value": {"unexpected": true}},
             {"op": "remove", "path": "/0/boundaries"}]
            """#, endpoint: "autocomplete")
        let items = try XCTUnwrap(try get(server, "/api/autocomplete/v4?apikey=scenario:m&text=ben%20thanh").json().arrayValue)
        let real = try XCTUnwrap(try get(server, "/api/autocomplete/v4?apikey=dev&text=ben%20thanh").json().arrayValue)
        XCTAssertEqual(items.count, real.count + 1)
        XCTAssertEqual(items.last, ["unexpected": true])
        XCTAssertNil(items[0]["boundaries"])
        XCTAssertNotNil(items[1]["boundaries"])
        for (item, original) in zip(items, real) {
            XCTAssertEqual(item["distance"], "0.5")
            XCTAssertNil(item["name"])
            XCTAssertEqual(item["title"], original["name"])
            XCTAssertEqual(item["ref_id"], original["ref_id"])
        }
    }

    func testPlaceFieldsTurnedIntoOtherTypes() throws {
        let server = try serve(#"""
            [{"op": "test", "path": "/district_id", "value": 0},
             {"op": "replace", "path": "/lat", "value": "10.77"},
             {"op": "copy", "from": "/display", "path": "/lng"},
             {"op": "replace", "path": "/city_id", "value": null}]
            """#, endpoint: "place")
        let items = try get(server, "/api/autocomplete/v4?apikey=dev&text=cho%20ben%20thanh").json()
        let refID = try XCTUnwrap(items[0]?["ref_id"]?.stringValue)
        let place = try get(server, "/api/place/v4?apikey=scenario:m&refid=\(refID)").json()
        XCTAssertEqual(place["lat"], "10.77")
        XCTAssertEqual(place["lng"], place["display"])
        XCTAssertEqual(place["city_id"], .null)
        XCTAssertEqual(place.objectValue?.count, 13, "key order and count kept")
    }
}
