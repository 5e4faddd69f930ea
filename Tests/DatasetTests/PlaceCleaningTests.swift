@testable import Dataset
import XCTest

/// The import's cleaning rules one by one (docs/search.md), and their counts in the report.
final class PlaceCleaningTests: XCTestCase {
    func place(_ name: String, street: String = "", aliases: [String] = [], lat: Double = 10.77, lng: Double = 106.70) -> ImportedPlace {
        var record = ImportedPlace(key: "poi:node/\(name.hashValue)", kind: .poi, name: name, lat: lat, lng: lng, importance: 0.4,
                                 newWard: 26740, newProvince: 79)
        record.street = street
        record.aliases = aliases
        return record
    }

    func testForeignScriptStreetIsDroppedAndNameReplacedOrDropped() {
        var cleaning = PlaceCleaning()
        var market = place("Chợ Bến Thành", street: "滨城市场night", aliases: ["Ben Thanh Market", "滨城市场"])
        XCTAssertTrue(cleaning.clean(&market))
        XCTAssertEqual(market.street, "")
        XCTAssertEqual(market.aliases, ["Ben Thanh Market"])
        var khmer = place("វាល", aliases: ["Nguyen Hue"])
        XCTAssertTrue(cleaning.clean(&khmer))
        XCTAssertEqual(khmer.name, "Nguyen Hue")
        var parking = place("停车点")
        XCTAssertFalse(cleaning.clean(&parking))
        var hotel = place("KS. Phương Vy", aliases: ["tphcm", "Phuong Vy Hotel"])
        XCTAssertTrue(cleaning.clean(&hotel))
        XCTAssertEqual(hotel.aliases, ["Phuong Vy Hotel"])
        var viet = place("Phở Hòa Pasteur", street: "Pasteur")
        XCTAssertTrue(cleaning.clean(&viet))
        XCTAssertEqual(viet.name, "Phở Hòa Pasteur")
        XCTAssertEqual(viet.street, "Pasteur")
        XCTAssertEqual(cleaning.counts, ["foreign-script-street": 1, "foreign-script-alias": 1, "foreign-script-name": 1,
                                         "foreign-script-name-dropped": 1, "city-name-alias": 1])
    }

    func testPhoneNumbersAndWebAddressesAreCutFromNames() {
        var cleaning = PlaceCleaning()
        var company = place("Cty TNHH Minh Bách (minhbach.vn)")
        XCTAssertTrue(cleaning.clean(&company))
        XCTAssertEqual(company.name, "Cty TNHH Minh Bách")
        var spa = place("Spa Hoa Sen - 0909 123 456")
        XCTAssertTrue(cleaning.clean(&spa))
        XCTAssertEqual(spa.name, "Spa Hoa Sen")
        var onlyURL = place("www.example.com")
        XCTAssertFalse(cleaning.clean(&onlyURL))
        var travel = place("Du lịch Khám Phá - discotravel.vn")
        XCTAssertTrue(cleaning.clean(&travel))
        XCTAssertEqual(travel.name, "Du lịch Khám Phá")
        for brand in ["Didongviet.vn", "C.Ty Viettech.vn", "Babikids.vn - Thời Trang trẻ em"] {
            var shop = place(brand)
            XCTAssertTrue(cleaning.clean(&shop))
            XCTAssertEqual(shop.name, brand)
        }
        var plain = place("Quán 123")
        XCTAssertTrue(cleaning.clean(&plain))
        XCTAssertEqual(plain.name, "Quán 123")
        XCTAssertEqual(cleaning.counts, ["url-in-name": 3, "phone-in-name": 1, "emptied-name": 1])
    }

    func testPhoneNumbersAreCutFromHouseNumbersAndStreets() {
        var cleaning = PlaceCleaning()
        var rental = place("Motorbike rental")
        rental.hsNum = "+905452465656"
        rental.street = "Bùi Viện"
        XCTAssertTrue(cleaning.clean(&rental))
        XCTAssertEqual(rental.hsNum, "")
        XCTAssertEqual(rental.street, "Bùi Viện")
        var shop = place("Tạp hóa Lan")
        shop.street = "Lê Lợi 0909 123 456"
        shop.hsNum = "12/3A"
        XCTAssertTrue(cleaning.clean(&shop))
        XCTAssertEqual(shop.street, "Lê Lợi")
        XCTAssertEqual(shop.hsNum, "12/3A")
        var plain = place("Nhà 175")
        plain.hsNum = "175"
        plain.street = "Đường 3 Tháng 2"
        XCTAssertTrue(cleaning.clean(&plain))
        XCTAssertEqual(plain.hsNum, "175")
        XCTAssertEqual(plain.street, "Đường 3 Tháng 2")
        XCTAssertEqual(cleaning.counts, ["phone-in-address": 2])
    }

    func testAdvertisingIsDroppedAndStacksKeepOne() {
        var cleaning = PlaceCleaning()
        var ad = place("Phá thai an toàn ở Nhà hộ sinh A")
        XCTAssertFalse(cleaning.clean(&ad))
        let stack = (0..<6).map { place("Nhà hộ sinh A \($0)", lat: 10.77 + Double($0) * 0.00001) }
        let shops = (0..<4).map { place("ATM Vietcombank \($0)", lat: 10.78) }
        let kept = cleaning.droppingStacks(stack + shops)
        XCTAssertEqual(kept.count, 1 + 4)
        XCTAssertEqual(cleaning.counts, ["advertising": 1, "stacked-duplicates": 5])
    }

    func testTheDefaultImportReportsEveryRuleThatFired() throws {
        let notes = try SharedDataset.get().report.notes
        for rule in ["foreign-script-street", "advertising", "stacked-duplicates", "url-in-name"] {
            XCTAssertTrue(notes.contains { $0.hasPrefix("cleaning: \(rule) ") }, "\(rule): \(notes)")
        }
        XCTAssertTrue(notes.contains { $0.contains("streets got other names") }, "\(notes)")
    }

    func testNamedAreasComeFromWaysAndMultipolygons() throws {
        let db = try SharedDataset.open()
        let lake = try db.rows("SELECT name, lat, lng, alias_key FROM place WHERE key = 'poi:relation/198437'", columns: 4)
        XCTAssertEqual(lake.first?[0], "Hồ Hoàn Kiếm")
        XCTAssertEqual(Double(lake.first?[1] ?? "") ?? 0, 21.0288, accuracy: 0.003)
        XCTAssertEqual(Double(lake.first?[2] ?? "") ?? 0, 105.8525, accuracy: 0.003)
        XCTAssertTrue(lake.first?[3].contains("ho guom") == true, "\(lake)")
    }
}
