import Foundation
import JSON
import TextFolding
import XCTest

/// Query understanding, other names, typos, category words, focus and import cleaning, over real
/// HTTP on the default dataset (docs/search.md). Expected places are named as in the data files.
final class AutocompleteUnderstandingTests: XCTestCase {
    let sim = SimulatorHarness.shared
    static let hcm = ("focus", "10.7769,106.7009")
    static let hanoi = ("focus", "21.0285,105.8542")

    func autocomplete(_ text: String, _ extra: [(String, String)] = []) async throws -> [JSONValue] {
        let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", text)] + extra)
        XCTAssertEqual(reply.status, 200, String(decoding: reply.data, as: UTF8.self))
        return try XCTUnwrap(reply.json().arrayValue)
    }

    func names(_ items: [JSONValue]) -> [String] { items.compactMap { $0["name"]?.stringValue } }

    /// The first item's name, folded (the data spells some names with U+00D0 or without accents).
    func first(_ text: String, _ extra: [(String, String)] = []) async throws -> String {
        let items = try await autocomplete(text, extra)
        return TextFolding.fold(items.first?["name"]?.stringValue ?? "")
    }

    func testGenericWordsBeforeAndAfterNamesAreOptional() async throws {
        for (text, expected) in [("đường Nguyễn Đình Chiểu", "nguyen dinh chieu"), ("duong dong khoi", "dong khoi"),
                                 ("Đ. Lê Lợi", "le loi"), ("Le Loi street", "le loi"),
                                 ("đại lộ Nguyễn Thị Minh Khai", "nguyen thi minh khai"), ("số 17 hoàng sa", "17 hoang sa")] {
            let name = try await first(text, [Self.hcm])
            XCTAssertTrue(name.hasPrefix(TextFolding.fold(expected)), "\(text) → \(name)")
        }
        let yenPhu = try await first("phố Yên Phụ", [Self.hanoi])
        XCTAssertEqual(yenPhu, "yen phu")
    }

    func testAdminQualifiersNameTheUnitInAnySpelling() async throws {
        for text in ["Q1", "Q.1", "Quận Nhất", "District 1", "quan 1"] {
            let items = try await autocomplete(text, [("display_type", "2")])
            XCTAssertEqual(names(items).first, "Quận 1", text)
            // The OSM locality node "Quận 1" does not repeat the unit.
            XCTAssertEqual(names(items).filter { $0 == "Quận 1" }.count, 1, "\(text): \(names(items))")
        }
        let ward = try await autocomplete("P. Bến Nghé", [("display_type", "2")])
        XCTAssertEqual(names(ward).first, "Phường Bến Nghé")
        // A unit's name beats a number word read into it ("ba" is also 3).
        let baDinh = try await autocomplete("phuong ba dinh")
        XCTAssertEqual(names(baDinh).first, "Phường Ba Đình")
        let third = try await autocomplete("Quận Ba", [("display_type", "2")])
        XCTAssertEqual(names(third).first, "Quận 3")
        for text in ["TP HCM", "tp.hcm", "HCM", "TPHCM", "Saigon"] {
            let name = try await first(text)
            XCTAssertEqual(name, "thanh pho ho chi minh", text)
        }
        // The names as typed beat a reading of "sài gòn" as the city.
        let postOffice = try await first("bưu điện sài gòn")
        XCTAssertEqual(postOffice, TextFolding.fold("Bưu điện Trung tâm Sài Gòn"))
        for text in ["HN", "Hanoi"] {
            let name = try await first(text)
            XCTAssertEqual(name, "thanh pho ha noi", text)
        }
    }

    func testAdminQualifiersConstrainThePlaceInsteadOfItsName() async throws {
        // Every answer lies in old Quận 1 (id 760) when the text says Q1.
        let items = try await autocomplete("Lê Lợi Q1", [("display_type", "2")])
        XCTAssertTrue(TextFolding.fold(names(items).first ?? "").hasPrefix("le loi"), "\(names(items))")
        let districts = items.prefix(3).compactMap { $0["boundaries"]?.arrayValue?.first { $0["type"]?.doubleValue == 1 }?["id"]?.doubleValue }
        XCTAssertEqual(districts, [760, 760, 760])
    }

    func testHouseNumberStreetAndWardOldOrNew() async throws {
        for text in ["20 Lý Tự Trọng", "20 Lý Tự Trọng, Phường Bến Nghé", "20 Lý Tự Trọng, Phường Sài Gòn", "so 20 ly tu trong"] {
            let name = try await first(text)
            XCTAssertEqual(name, TextFolding.fold("20 Lý Tự Trọng"), text)
        }
        let hanoi = try await first("34 Hàng Giấy, Hoàn Kiếm")
        XCTAssertEqual(hanoi, "34 hang giay")
    }

    func testStreetInitialismsAndDatesFromTheData() async throws {
        for (text, expected) in [("CMT8", "cach mang thang tam"), ("NKKN", "nam ky khoi nghia"), ("NTMK", "nguyen thi minh khai"),
                                 ("3/2", "3 thang 2"), ("đường CMT8", "cach mang thang tam")] {
            let name = try await first(text, [Self.hcm])
            XCTAssertEqual(name, TextFolding.fold(expected), text)
        }
    }

    func testOtherNamesAreSearchable() async throws {
        let sy = try await first("Lê Văn Sĩ", [Self.hcm])
        XCTAssertEqual(sy, TextFolding.fold("Lê Văn Sỹ"))
        let lake = try await autocomplete("Hồ Gươm", [Self.hanoi])
        XCTAssertEqual(names(lake).first, "Hồ Hoàn Kiếm")
        XCTAssertLessThan(lake.first?["distance"]?.doubleValue ?? 99, 2)
        let opera = try await first("Hanoi Opera House")
        XCTAssertTrue(["nha hat lon"].contains(opera), opera)
        let notreDame = try await first("Notre Dame Cathedral", [Self.hcm])
        XCTAssertEqual(notreDame, "nha tho duc ba")
    }

    func testIAndYSpellingsFindTheSamePlaces() async throws {
        let sy = try await autocomplete("Lê Văn Sỹ", [Self.hcm])
        let si = try await autocomplete("le van si", [Self.hcm])
        XCTAssertEqual(names(sy).prefix(3), names(si).prefix(3))
        let li = try await first("Lí Tự Trọng", [Self.hcm])
        XCTAssertEqual(li, TextFolding.fold("Lý Tự Trọng"))
    }

    func testOneTypoInALongWordRanksBelowExactMatches() async throws {
        for (text, expected) in [("Bệnh Việ Chợ Rẫy", "benh vien cho ray"), ("cho ben thnah", "cho ben thanh"),
                                 ("Ngyuen Dinh Chieu", "nguyen dinh chieu")] {
            let name = try await first(text, [Self.hcm])
            XCTAssertEqual(name, TextFolding.fold(expected), text)
        }
        // "Thanh" is a word of the data: an exact "… Thanh" match is not displaced by a correction.
        let exact = try await first("cho ben thanh", [Self.hcm])
        XCTAssertEqual(exact, "cho ben thanh")
    }

    func testCategoryWordsFindThatKindNearTheFocus() async throws {
        let cases: [(String, (String, String), String, Double)] = [
            ("cafe", Self.hcm, "1003", 2), ("cà phê", Self.hanoi, "1003", 2), ("coffee", Self.hcm, "1003", 2),
            ("atm", Self.hcm, "3002", 2), ("ngân hàng", Self.hanoi, "3001", 2), ("khách sạn", Self.hanoi, "2001", 2),
            ("cây xăng", Self.hanoi, "9001", 10), ("bưu điện", Self.hanoi, "9202", 10), ("nha thuoc", Self.hcm, "4003", 3),
        ]
        for (text, focus, code, km) in cases {
            let items = try await autocomplete(text, [focus])
            let first = try XCTUnwrap(items.first, text)
            XCTAssertTrue(first["categories"]?.arrayValue?.contains(.string(code)) == true, "\(text): \(names(items).prefix(3))")
            XCTAssertLessThan(first["distance"]?.doubleValue ?? 999, km, text)
        }
    }

    func testWithAFocusNothingFarAwayComesFirst() async throws {
        for text in ["Hai Bà Trưng", "Điện Biên Phủ", "Highlands Coffee", "Opera House", "nha sach", "buu dien"] {
            let items = try await autocomplete(text, [Self.hanoi])
            XCTAssertLessThan(items.first?["distance"]?.doubleValue ?? 9999, 30, "\(text): \(names(items).prefix(3))")
        }
        // HCMC has Lê Thánh Tôn, Hanoi Lê Thánh Tông: near the focus, part of the query beats all of it far away.
        let tong = try await autocomplete("Lê Thánh Tông", [Self.hcm])
        XCTAssertLessThan(tong.first?["distance"]?.doubleValue ?? 9999, 30, "\(names(tong).prefix(3))")
        XCTAssertTrue(TextFolding.fold(names(tong).first ?? "").hasPrefix("le thanh"), "\(names(tong).prefix(3))")
    }

    func testVandalisedAndAdvertisingValuesAreNotAnswered() async throws {
        let market = try await autocomplete("Chợ Bến Thành", [Self.hcm])
        XCTAssertEqual(names(market).first, "Chợ Bến Thành")
        XCTAssertFalse(market.first?["address"]?.stringValue?.contains("滨") ?? true)
        let clinic = try await autocomplete("Nhà hộ sinh A", [Self.hanoi])
        XCTAssertLessThanOrEqual(names(clinic).filter { $0.hasPrefix("Nhà hộ sinh A") }.count, 3, "\(names(clinic))")
        let abortion = try await autocomplete("phá thai", [Self.hanoi])
        XCTAssertFalse(names(abortion).contains { TextFolding.fold($0).contains("pha thai") }, "\(names(abortion))")
        let company = try await autocomplete("Minh Bách")
        XCTAssertTrue(names(company).contains("Cty TNHH Minh Bách"), "\(names(company))")
        XCTAssertFalse(names(company).contains { $0.contains("minhbach.vn") })
    }

    func displays(_ items: [JSONValue]) -> [String] { items.compactMap { $0["display"]?.stringValue } }

    /// An address whose house number the data lacks falls back to its street in the named
    /// district and city, before unrelated places (issue #37 item 7): the street in the top 3 and
    /// every result inside the named city.
    func testAnAddressWithAnUnknownHouseNumberFindsItsStreetInTheNamedUnits() async throws {
        for (text, street, city) in [("36 hang bac, hoan kiem, ha noi", "Hàng Bạc", "Hà Nội"),
                                     ("12 hang dao, hoan kiem, ha noi", "Hàng Đào", "Hà Nội"),
                                     ("250 ly tu trong, quan 1, ho chi minh", "Lý Tự Trọng", "Hồ Chí Minh")] {
            let shown = displays(try await autocomplete(text))
            XCTAssertTrue(shown.prefix(3).contains { $0.hasPrefix(street) }, "\(text): \(shown)")
            XCTAssertFalse(shown.isEmpty, text)
            for display in shown { XCTAssertTrue(display.contains(city), "\(text): \(display)") }
        }
        let hangBac = displays(try await autocomplete("36 hang bac, hoan kiem, ha noi"))
        XCTAssertTrue(hangBac.prefix(3).contains { $0.hasPrefix("Hàng Bạc") && $0.contains("Phường Hoàn Kiếm") }, "\(hangBac)")
    }

    /// A street with its district keeps the results inside the district's city: no café "pho" in
    /// HCMC, no ward of another province.
    func testAStreetWithItsDistrictKeepsResultsInside() async throws {
        for (text, street, city) in [("phố Hàng Bạc, Hoàn Kiếm", "Hàng Bạc", "Hà Nội"), ("phố Hàng Đào, Hoàn Kiếm", "Hàng Đào", "Hà Nội"),
                                     ("Lý Tự Trọng, Quận 1", "Lý Tự Trọng", "Hồ Chí Minh")] {
            let shown = displays(try await autocomplete(text))
            XCTAssertTrue(shown.prefix(3).contains { $0.hasPrefix(street) }, "\(text): \(shown)")
            for display in shown { XCTAssertTrue(display.contains(city), "\(text): \(display)") }
        }
        // A unit named without a match inside it keeps the ranked list (better than nothing).
        let elsewhere = try await autocomplete("Hàng Bạc, Quận 1")
        XCTAssertFalse(elsewhere.isEmpty)
    }
}
