@testable import Dataset
import Foundation
import TestExpectations
import Testing

/// The import's cleaning rules one by one (docs/search.md), and their counts in the report.
@Suite final class PlaceCleaningTests {
    func place(_ name: String, street: String = "", aliases: [String] = [], lat: Double = 10.77, lng: Double = 106.70) -> ImportedPlace {
        var record = ImportedPlace(key: "poi:node/\(name.hashValue)", kind: .poi, name: name, lat: lat, lng: lng, importance: 0.4,
                                 newWard: 26740, newProvince: 79)
        record.street = street
        record.aliases = aliases
        return record
    }

    @Test func testForeignScriptStreetIsDroppedAndNameReplacedOrDropped() {
        var cleaning = PlaceCleaning()
        var market = place("Chợ Bến Thành", street: "滨城市场night", aliases: ["Ben Thanh Market", "滨城市场"])
        expectTrue(cleaning.clean(&market))
        expectEqual(market.street, "")
        expectEqual(market.aliases, ["Ben Thanh Market"])
        var khmer = place("វាល", aliases: ["Nguyen Hue"])
        expectTrue(cleaning.clean(&khmer))
        expectEqual(khmer.name, "Nguyen Hue")
        var parking = place("停车点")
        expectFalse(cleaning.clean(&parking))
        var hotel = place("KS. Phương Vy", aliases: ["tphcm", "Phuong Vy Hotel"])
        expectTrue(cleaning.clean(&hotel))
        expectEqual(hotel.aliases, ["Phuong Vy Hotel"])
        var viet = place("Phở Hòa Pasteur", street: "Pasteur")
        expectTrue(cleaning.clean(&viet))
        expectEqual(viet.name, "Phở Hòa Pasteur")
        expectEqual(viet.street, "Pasteur")
        expectEqual(cleaning.counts, ["foreign-script-street": 1, "foreign-script-alias": 1, "foreign-script-name": 1,
                                         "foreign-script-name-dropped": 1, "city-name-alias": 1])
    }

    @Test func testPhoneNumbersAndWebAddressesAreCutFromNames() {
        var cleaning = PlaceCleaning()
        var company = place("Cty TNHH Minh Bách (minhbach.vn)")
        expectTrue(cleaning.clean(&company))
        expectEqual(company.name, "Cty TNHH Minh Bách")
        var spa = place("Spa Hoa Sen - 0909 123 456")
        expectTrue(cleaning.clean(&spa))
        expectEqual(spa.name, "Spa Hoa Sen")
        var onlyURL = place("www.example.com")
        expectFalse(cleaning.clean(&onlyURL))
        var travel = place("Du lịch Khám Phá - discotravel.vn")
        expectTrue(cleaning.clean(&travel))
        expectEqual(travel.name, "Du lịch Khám Phá")
        for brand in ["Didongviet.vn", "C.Ty Viettech.vn", "Babikids.vn - Thời Trang trẻ em"] {
            var shop = place(brand)
            expectTrue(cleaning.clean(&shop))
            expectEqual(shop.name, brand)
        }
        var plain = place("Quán 123")
        expectTrue(cleaning.clean(&plain))
        expectEqual(plain.name, "Quán 123")
        expectEqual(cleaning.counts, ["url-in-name": 3, "phone-in-name": 1, "emptied-name": 1])
    }

    @Test func testPhoneNumbersAreCutFromHouseNumbersAndStreets() {
        var cleaning = PlaceCleaning()
        var rental = place("Motorbike rental")
        rental.hsNum = "+905452465656"
        rental.street = "Bùi Viện"
        expectTrue(cleaning.clean(&rental))
        expectEqual(rental.hsNum, "")
        expectEqual(rental.street, "Bùi Viện")
        var shop = place("Tạp hóa Lan")
        shop.street = "Lê Lợi 0909 123 456"
        shop.hsNum = "12/3A"
        expectTrue(cleaning.clean(&shop))
        expectEqual(shop.street, "Lê Lợi")
        expectEqual(shop.hsNum, "12/3A")
        var plain = place("Nhà 175")
        plain.hsNum = "175"
        plain.street = "Đường 3 Tháng 2"
        expectTrue(cleaning.clean(&plain))
        expectEqual(plain.hsNum, "175")
        expectEqual(plain.street, "Đường 3 Tháng 2")
        expectEqual(cleaning.counts, ["phone-in-address": 2])
    }

    @Test func testAdvertisingIsDroppedAndStacksKeepOne() {
        var cleaning = PlaceCleaning()
        var ad = place("Phá thai an toàn ở Nhà hộ sinh A")
        expectFalse(cleaning.clean(&ad))
        let stack = (0..<6).map { place("Nhà hộ sinh A \($0)", lat: 10.77 + Double($0) * 0.00001) }
        let shops = (0..<4).map { place("ATM Vietcombank \($0)", lat: 10.78) }
        let kept = cleaning.droppingStacks(stack + shops)
        expectEqual(kept.count, 1 + 4)
        expectEqual(cleaning.counts, ["advertising": 1, "stacked-duplicates": 5])
    }

    @Test func testTheDefaultImportReportsEveryRuleThatFired() throws {
        let notes = try SharedDataset.get().report.notes
        for rule in ["foreign-script-street", "advertising", "stacked-duplicates", "url-in-name"] {
            expectTrue(notes.contains { $0.hasPrefix("cleaning: \(rule) ") }, "\(rule): \(notes)")
        }
        expectTrue(notes.contains { $0.contains("streets got other names") }, "\(notes)")
    }

    @Test func testNamedAreasComeFromWaysAndMultipolygons() throws {
        let db = try SharedDataset.open()
        let lake = try db.rows("SELECT name, lat, lng, alias_key FROM place WHERE key = 'poi:relation/198437'", columns: 4)
        expectEqual(lake.first?[0], "Hồ Hoàn Kiếm")
        expectEqual(Double(lake.first?[1] ?? "") ?? 0, 21.0288, accuracy: 0.003)
        expectEqual(Double(lake.first?[2] ?? "") ?? 0, 105.8525, accuracy: 0.003)
        expectTrue(lake.first?[3].contains("ho guom") == true, "\(lake)")
    }
}
