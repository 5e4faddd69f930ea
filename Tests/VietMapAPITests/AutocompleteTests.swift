import Foundation
import JSON
import TextFolding
import VietMapClient
import XCTest

/// Autocomplete v4 over real HTTP on the default dataset.
final class AutocompleteTests: XCTestCase {
    let sim = SimulatorHarness.shared

    func autocomplete(_ text: String, _ extra: [(String, String)] = []) async throws -> [JSONValue] {
        let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", text)] + extra)
        XCTAssertEqual(reply.status, 200, String(decoding: reply.data, as: UTF8.self))
        _ = try reply.decode([VMSearchItem].self)  // the reference model must decode every answer
        return try XCTUnwrap(reply.json().arrayValue)
    }

    func names(_ items: [JSONValue]) -> [String] { items.compactMap { $0["name"]?.stringValue } }

    func testAccentCaseEthAndDecomposedSpellingsGiveTheSameResults() async throws {
        let unaccented = try await autocomplete("nha tho duc ba")
        XCTAssertEqual(unaccented.first?["name"], "Nhà thờ Đức Bà")
        let upper = try await autocomplete("NHA THO DUC BA")
        XCTAssertEqual(names(upper), names(unaccented))
        // (With accents the tone rule may reorder: "bà" does not begin "Bắc".)
        let reference = try await autocomplete("Nhà thờ Đức Bà")
        XCTAssertEqual(reference.first?["name"], "Nhà thờ Đức Bà")
        for spelling in ["Nhà thờ Ðức Bà", "Nha\u{300} tho\u{31B}\u{300} \u{110}u\u{31B}\u{301}c Ba\u{300}", "  nhà   THỜ đức bà "] {
            let items = try await autocomplete(spelling)
            XCTAssertEqual(names(items), names(reference), "spelling \(spelling)")
        }
    }

    func testPrefixWhileTyping() async throws {
        let items = try await autocomplete("ben th")
        XCTAssertTrue(names(items).prefix(5).contains("Chợ Bến Thành"), "\(names(items))")
        // (Names that begin with what is typed rank by importance, not by how short they are: the
        // metro station and the market may come before the ward.)
        XCTAssertTrue(names(items).prefix(3).contains("Phường Bến Thành"), "\(names(items))")
        XCTAssertTrue(names(items).prefix(3).allSatisfy { TextFolding.fold($0).replacingOccurrences(of: "phuong ", with: "").contains("ben th") }, "\(names(items))")
        let partial = try await autocomplete("cho ben tha")
        XCTAssertEqual(partial.first?["name"], "Chợ Bến Thành")
    }

    func testTonePlacementVariantsMatch() async throws {
        let a = try await autocomplete("Thuỷ")
        let b = try await autocomplete("Thủy")
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(names(a), names(b))
    }

    func testDStrokeFoldsBothWays() async throws {
        // The data spells the street "Ðồng Khởi" with U+00D0; the simulator shows Đ (U+0110).
        for spelling in ["dong khoi", "Đồng Khởi", "ĐỒNG KHỞI", "Ðồng Khởi"] {
            let items = try await autocomplete(spelling, [("layers", "STREET")])
            XCTAssertTrue(names(items).contains { $0.hasPrefix("Đồng Khởi") }, "\(spelling): \(names(items))")
            XCTAssertFalse(names(items).contains { $0.contains("\u{00D0}") })
        }
    }

    func testItemsHaveExactlyTheLiveKeysAndTypes() async throws {
        let items = try await autocomplete("le loi", [("focus", "10.7769,106.7008")])
        XCTAssertEqual(items.count, 10)
        for item in items {
            let object = try XCTUnwrap(item.objectValue)
            XCTAssertEqual(object.keys, ["ref_id", "distance", "address", "name", "display", "boundaries", "categories",
                                         "entry_points", "data_old", "data_new", "partner_code"])
            XCTAssertTrue(object["ref_id"]?.stringValue?.hasPrefix("auto:") == true)
            XCTAssertNotNil(object["distance"]?.doubleValue)
            XCTAssertEqual(object["display"]?.stringValue,
                           [object["name"]?.stringValue, object["address"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " "))
            XCTAssertTrue(object["data_old"]?.isNull == true && object["data_new"]?.isNull == true && object["partner_code"]?.isNull == true)
            XCTAssertNotNil(object["entry_points"]?.arrayValue)
            XCTAssertNotNil(object["categories"]?.arrayValue)
            let refID = try XCTUnwrap(object["ref_id"]?.stringValue)
            XCTAssertTrue(refID.dropFirst(5).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, refID)
            XCTAssertFalse(object["address"]?.stringValue?.contains(", ") ?? true, "v4 joins without spaces")
        }
    }

    func testNoMatchIsAnEmptyArray() async throws {
        let items = try await autocomplete("zzqxqzzq wwvvxx")
        XCTAssertEqual(items, [])
        let punctuation = try await autocomplete("?!…")
        XCTAssertEqual(punctuation, [])
    }

    func testDisplayTypesShapeTheBoundaries() async throws {
        func types(_ item: JSONValue?) -> [Int] { item?["boundaries"]?.arrayValue?.compactMap { $0["type"]?.intValue } ?? [] }
        let newFormat = try await autocomplete("cho ben thanh")
        XCTAssertEqual(types(newFormat.first), [2, 0])
        XCTAssertTrue(newFormat.first?["address"]?.stringValue?.hasSuffix("Phường Bến Thành,Thành Phố Hồ Chí Minh") == true,
                      "\(newFormat.first?["address"] ?? nil)")
        let oldFormat = try await autocomplete("cho ben thanh", [("display_type", "2")])
        XCTAssertEqual(types(oldFormat.first), [2, 1, 0])
        XCTAssertTrue(oldFormat.first?["address"]?.stringValue?.contains("Quận 1") == true)

        let both = try await autocomplete("cho ben thanh", [("display_type", "5")])
        XCTAssertEqual(types(both.first), [2, 0])
        XCTAssertEqual(types(both.first?["data_old"]), [2, 1, 0])
        XCTAssertEqual(both.first?["data_new"], .null)
        XCTAssertEqual(both.first?["data_old"]?["data_old"], .null)
        XCTAssertEqual(both.first?["data_old"]?["name"], both.first?["name"])

        let reverse = try await autocomplete("cho ben thanh", [("display_type", "6")])
        XCTAssertEqual(types(reverse.first), [2, 1, 0])
        XCTAssertEqual(types(reverse.first?["data_new"]), [2, 0])
        XCTAssertEqual(reverse.first?["data_old"], .null)

        // 3 = as input: old admin names in the text → old format.
        let asInputOld = try await autocomplete("le loi quan 1", [("display_type", "3")])
        XCTAssertEqual(types(asInputOld.first), [2, 1, 0])
        let asInputNew = try await autocomplete("le loi phuong ben thanh", [("display_type", "3")])
        XCTAssertEqual(types(asInputNew.first), [2, 0])
        // The alias the JS SDK sends.
        let alias = try await autocomplete("cho ben thanh", [("displayType", "2")])
        XCTAssertEqual(types(alias.first), [2, 1, 0])
    }

    func testAdminUnitsOfBothSchemesAreSearchable() async throws {
        let province = try await autocomplete("ha noi")
        XCTAssertTrue(names(province).prefix(3).contains("Thành Phố Hà Nội"), "\(names(province))")
        let ward = try await autocomplete("phuong ben thanh")
        XCTAssertEqual(ward.first?["name"], "Phường Bến Thành")
        XCTAssertEqual(ward.first?["address"], "Thành Phố Hồ Chí Minh")
        // Old districts exist only in the old format.
        let district = try await autocomplete("quan 1", [("display_type", "2"), ("layers", "DIST")])
        XCTAssertEqual(district.first?["name"], "Quận 1")
        let noDistrictInNew = try await autocomplete("quan 1", [("layers", "DIST")])
        XCTAssertEqual(noDistrictInNew, [])
        let oldProvince = try await autocomplete("binh duong", [("display_type", "2"), ("layers", "CITY")])
        XCTAssertEqual(oldProvince.first?["name"], "Tỉnh Bình Dương")
        let merged = try await autocomplete("binh duong", [("layers", "CITY")])
        XCTAssertFalse(names(merged).contains("Tỉnh Bình Dương"), "Bình Dương province no longer exists in 2025")
    }

    func testFocusRanksNearbyFirstAndDistanceIsKilometres() async throws {
        let hanoi = "21.0285,105.8542", saigon = "10.7769,106.7008"
        let nearHanoi = try await autocomplete("highlands coffee", [("focus", hanoi)])
        let nearSaigon = try await autocomplete("highlands coffee", [("focus", saigon)])
        func cityID(_ item: JSONValue?) -> Int? { item?["boundaries"]?.arrayValue?.last?["id"]?.intValue }
        XCTAssertEqual(cityID(nearHanoi.first), 1)
        XCTAssertEqual(cityID(nearSaigon.first), 79)
        let distances = nearSaigon.compactMap { $0["distance"]?.doubleValue }
        XCTAssertTrue(distances.allSatisfy { $0 >= 0 && $0 < 1_500 })
        XCTAssertLessThan(distances.first ?? 99, 5, "the nearest Highlands is within a few km of the centre")

        // distance is the haversine distance in km from focus to the place's coordinates.
        let first = try XCTUnwrap(nearSaigon.first)
        let detail = try await sim.get("/api/place/v4", [("apikey", "dev"), ("refid", first["ref_id"]!.stringValue!)])
        let place = try detail.decode(VMPlaceDetail.self)
        let expected = haversineKm(10.7769, 106.7008, place.lat!, place.lng!)
        XCTAssertEqual(first["distance"]!.doubleValue!, expected, accuracy: 0.001)

        // A generic word near Hoàn Kiếm gives Hanoi places, though HCMC has more of them.
        let cafesNearHanoi = try await autocomplete("cafe", [("focus", hanoi)])
        XCTAssertEqual(cafesNearHanoi.prefix(5).map { cityID($0) }, [1, 1, 1, 1, 1])

        let noFocus = try await autocomplete("highlands coffee")
        XCTAssertTrue(noFocus.allSatisfy { $0["distance"] == .integer(0) })
        let emptyFocus = try await autocomplete("highlands coffee", [("focus", "")])
        XCTAssertEqual(names(emptyFocus), names(noFocus))
    }

    func testFilters() async throws {
        func cityIDs(_ items: [JSONValue]) -> Set<Int> {
            Set(items.compactMap { $0["boundaries"]?.arrayValue?.last?["id"]?.intValue })
        }
        let hanoiOnly = try await autocomplete("cafe", [("cityId", "1")])
        XCTAssertFalse(hanoiOnly.isEmpty)
        XCTAssertEqual(cityIDs(hanoiOnly), [1])
        let saigonOnly = try await autocomplete("cafe", [("cityId", "79")])
        XCTAssertEqual(cityIDs(saigonOnly), [79])

        let ward = try await autocomplete("le", [("wardId", "26743")])  // Phường Bến Thành (2025)
        XCTAssertFalse(ward.isEmpty)
        XCTAssertTrue(ward.allSatisfy { $0["boundaries"]?[0]?["id"] == .integer(26743) })

        let district = try await autocomplete("cafe", [("distId", "760"), ("display_type", "2")])  // old Quận 1
        XCTAssertFalse(district.isEmpty)
        XCTAssertTrue(district.allSatisfy { $0["boundaries"]?[1]?["id"] == .integer(760) })

        let streets = try await autocomplete("le loi", [("layers", "STREET")])
        XCTAssertFalse(streets.isEmpty)
        XCTAssertTrue(streets.allSatisfy { $0["categories"] == .array([]) })
        let wards = try await autocomplete("ben", [("layers", "WARD")])
        XCTAssertFalse(wards.isEmpty)
        XCTAssertTrue(wards.allSatisfy { $0["name"]?.stringValue?.hasPrefix("Phường") == true || $0["name"]?.stringValue?.hasPrefix("Xã") == true })

        let categorised = try await autocomplete("pho", [("focus", "10.7769,106.7008")])
        let code = try XCTUnwrap(categorised.compactMap { $0["categories"]?[0]?.stringValue }.first)
        let byCategory = try await autocomplete("pho", [("cats", code)])
        XCTAssertFalse(byCategory.isEmpty)
        XCTAssertTrue(byCategory.allSatisfy { $0["categories"]?.arrayValue?.contains(.string(code)) == true })
    }

    func testCircleKeepsResultsInsideTheRadius() async throws {
        let center = (10.7725, 106.6980)  // Chợ Bến Thành
        let items = try await autocomplete("nha", [("circle_center", "\(center.0),\(center.1)"), ("circle_radius", "500")])
        XCTAssertFalse(items.isEmpty)
        for item in items {
            let detail = try await sim.get("/api/place/v4", [("apikey", "k"), ("refid", item["ref_id"]!.stringValue!)])
            let place = try detail.decode(VMPlaceDetail.self)
            XCTAssertLessThanOrEqual(haversineKm(center.0, center.1, place.lat!, place.lng!), 0.5 + 1e-6)
        }
        // The JS SDK's camelCase spelling is accepted too.
        let alias = try await autocomplete("nha", [("circleCenter", "\(center.0),\(center.1)"), ("circleRadius", "500")])
        XCTAssertEqual(names(alias), names(items))
    }

    func testRepeatedKeysUseTheFirstValueAndUnknownParametersAreIgnored() async throws {
        let reply = try await sim.get(rawURL: "\(sim.baseURL)/api/autocomplete/v4?apikey=dev&text=cho+ben+thanh&text=ha+noi&foo=bar&focus=")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(try reply.json()[0]?["name"], "Chợ Bến Thành")
    }

    func testVeryLongTextIsAnsweredNotCrashed() async throws {
        let long = String(repeating: "nhà thờ đức bà ", count: 300)
        let items = try await autocomplete(long)
        XCTAssertLessThanOrEqual(items.count, 10)
    }

    func testAddressPointsAndStreetsAreResults() async throws {
        let items = try await autocomplete("197 tran phu")
        XCTAssertFalse(items.isEmpty)
        let address = try await autocomplete("1 nguyen thong", [("layers", "ADDRESS")])
        XCTAssertTrue(address.allSatisfy { $0["categories"] == .array([]) })
    }
}

func haversineKm(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
    let r = 6_371.0088
    let dLat = (lat2 - lat1) * .pi / 180, dLng = (lng2 - lng1) * .pi / 180
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLng / 2) * sin(dLng / 2)
    return 2 * r * asin(min(1, sqrt(a)))
}
