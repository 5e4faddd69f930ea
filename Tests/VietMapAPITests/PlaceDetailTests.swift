import Foundation
import JSON
import VietMapClient
import XCTest

/// Place v4 over real HTTP: every autocomplete result resolves, in the format its ref_id carries.
final class PlaceDetailTests: XCTestCase {
    let sim = SimulatorHarness.shared
    static let keys = ["display", "name", "hs_num", "street", "address", "city_id", "city", "district_id", "district",
                       "ward_id", "ward", "lat", "lng"]

    func items(_ text: String, _ extra: [(String, String)] = []) async throws -> [JSONValue] {
        let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", text)] + extra)
        return try XCTUnwrap(reply.json().arrayValue)
    }

    func detail(_ refID: String) async throws -> SimulatorHarness.Reply {
        try await sim.get("/api/place/v4", [("apikey", "dev"), ("refid", refID)])
    }

    func testEveryResultOfAQueryResolvesInItsFormat() async throws {
        for (query, displayType) in [("ben thanh", "1"), ("ben thanh", "2"), ("hoan kiem", "1"), ("le loi", "2"), ("ha noi", "1")] {
            let results = try await items(query, [("display_type", displayType), ("focus", "10.7769,106.7008")])
            XCTAssertFalse(results.isEmpty, query)
            for item in results {
                let reply = try await detail(item["ref_id"]!.stringValue!)
                XCTAssertEqual(reply.status, 200)
                let object = try XCTUnwrap(reply.json().objectValue)
                XCTAssertEqual(object.keys, Self.keys)
                let place = try reply.decode(VMPlaceDetail.self)
                let lat = try XCTUnwrap(place.lat), lng = try XCTUnwrap(place.lng)
                XCTAssertTrue((8.0...23.5).contains(lat) && (102.0...110.0).contains(lng), "inside Vietnam")
                let boundaries = item["boundaries"]!.arrayValue!
                XCTAssertEqual(place.cityId, boundaries.last?["id"]?.intValue, "\(query): same city as the item")
                if displayType == "1" {
                    XCTAssertEqual(place.districtId, 0)
                    XCTAssertEqual(place.district, "")
                } else if boundaries.count == 3 {
                    XCTAssertEqual(place.districtId, boundaries[1]["id"]?.intValue)
                    XCTAssertTrue(place.district?.isEmpty == false)
                }
                XCTAssertTrue(place.display?.isEmpty == false)
            }
        }
    }

    func testNewAndOldFormatsOfTheSamePlace() async throws {
        let found = try await items("cho ben thanh", [("display_type", "5")])
        let item = try XCTUnwrap(found.first)
        let newRef = item["ref_id"]!.stringValue!, oldRef = item["data_old"]!["ref_id"]!.stringValue!
        XCTAssertNotEqual(newRef, oldRef)
        let newPlace = try await detail(newRef).decode(VMPlaceDetail.self)
        let oldPlace = try await detail(oldRef).decode(VMPlaceDetail.self)
        XCTAssertEqual(newPlace.name, "Chợ Bến Thành")
        XCTAssertEqual(newPlace.ward, "Phường Bến Thành")
        XCTAssertEqual(newPlace.city, "Thành Phố Hồ Chí Minh")
        XCTAssertEqual(newPlace.cityId, 79)
        XCTAssertEqual(newPlace.districtId, 0)
        XCTAssertEqual(oldPlace.district, "Quận 1")
        XCTAssertEqual(oldPlace.districtId, 760)
        XCTAssertEqual(oldPlace.lat, newPlace.lat)
        // (The OSM data carries a vandalised addr:street on this market; it is shown as it is.)
        XCTAssertTrue(newPlace.display?.hasPrefix("Chợ Bến Thành,") == true)
        XCTAssertTrue(newPlace.display?.hasSuffix(",Phường Bến Thành,Thành Phố Hồ Chí Minh") == true)
        XCTAssertTrue(oldPlace.display?.hasSuffix(",Quận 1,Thành Phố Hồ Chí Minh") == true, oldPlace.display ?? "")
    }

    func testAddressPointDetail() async throws {
        let results = try await items("nguyen thong", [("layers", "ADDRESS")])
        let item = try XCTUnwrap(results.first)
        let place = try await detail(item["ref_id"]!.stringValue!).decode(VMPlaceDetail.self)
        XCTAssertEqual(place.name, "", "plain addresses have an empty name, as in the live example")
        XCTAssertFalse(place.hsNum?.isEmpty ?? true)
        XCTAssertEqual(place.address, "\(place.hsNum!) \(place.street!)")
        XCTAssertTrue(place.display?.hasPrefix(place.address!) == true)
    }

    func testRefIDsAreStableAcrossRequests() async throws {
        let a = try await items("nha tho duc ba").first?["ref_id"]
        let b = try await items("Nhà thờ Đức Bà").first?["ref_id"]
        XCTAssertNotNil(a)
        XCTAssertEqual(a, b)
    }

    func testRefIdAliasIsAccepted() async throws {
        let found = try await items("cho ben thanh")
        let refID = try XCTUnwrap(found.first?["ref_id"]?.stringValue)
        let reply = try await sim.get("/api/place/v4", [("apikey", "dev"), ("refId", refID)])
        XCTAssertEqual(reply.status, 200)
    }

    func testUnknownGarbledAndMissingRefIDs() async throws {
        let found = try await items("cho ben thanh")
        let valid = try XCTUnwrap(found.first?["ref_id"]?.stringValue)
        var garbled = Array(valid)
        garbled[garbled.count - 3] = garbled[garbled.count - 3] == "A" ? "B" : "A"
        for refID in ["auto:AAAA", "vm:POI:123", "nonsense", String(garbled), "auto:" + String(repeating: "x", count: 3000)] {
            let reply = try await detail(refID)
            XCTAssertEqual(reply.status, 404, refID)
            XCTAssertEqual(try reply.json()["code"], "NOT_FOUND")
        }
        let missing = try await sim.get("/api/place/v4", [("apikey", "dev")])
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(try missing.json()["code"], "INVALID_REQUEST")
        let empty = try await sim.get("/api/place/v4", [("apikey", "dev"), ("refid", "")])
        XCTAssertEqual(empty.status, 400)
    }
}
