import Dataset
import XCTest

final class CategoryCodesTests: XCTestCase {
    func testMappingExactWildcardAndFallback() {
        XCTAssertEqual(CategoryCodes.code(forOSM: "amenity=restaurant"), "1001")
        XCTAssertEqual(CategoryCodes.code(forOSM: "amenity=cafe"), "1003")
        XCTAssertEqual(CategoryCodes.code(forOSM: "tourism=hotel"), "2001")
        XCTAssertEqual(CategoryCodes.code(forOSM: "amenity=atm"), "3002")
        XCTAssertEqual(CategoryCodes.code(forOSM: "amenity=place_of_worship"), "6001")
        XCTAssertEqual(CategoryCodes.code(forOSM: "shop=bakery"), "8004", "shop=* rule")
        XCTAssertEqual(CategoryCodes.code(forOSM: "historic=castle"), "6004", "historic=* rule")
        XCTAssertEqual(CategoryCodes.code(forOSM: "amenity=Dai hoc Bach khoa TPHCM"), CategoryCodes.fallbackCode)
        XCTAssertEqual(CategoryCodes.code(forOSM: "garbage"), "9999")
    }

    func testImportanceIsWithinTheDocumentedRange() {
        for rule in CategoryCodes.rules {
            let importance = CategoryCodes.importance(forOSM: rule.osm.replacingOccurrences(of: "=*", with: "=anything"))
            XCTAssertTrue((0.35...0.9).contains(importance), "\(rule.osm): \(importance)")
        }
        XCTAssertGreaterThan(CategoryCodes.importance(forOSM: "railway=station"), CategoryCodes.importance(forOSM: "shop=bakery"))
        XCTAssertEqual(CategoryCodes.importance(forOSM: "place=city"), 0.9)
    }

    func testEveryRuleUsesAKnownCodeAndTheTableListsThemAll() {
        let codes = Set(CategoryCodes.categories.map(\.code))
        XCTAssertEqual(codes.count, CategoryCodes.categories.count, "codes are unique")
        for rule in CategoryCodes.rules { XCTAssertTrue(codes.contains(rule.code), rule.osm) }
        let table = CategoryCodes.markdownTable()
        for code in codes { XCTAssertTrue(table.contains("| `\(code)` |"), code) }
    }
}
