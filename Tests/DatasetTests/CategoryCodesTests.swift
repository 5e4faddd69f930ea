import Dataset
import Foundation
import TestExpectations
import Testing

@Suite final class CategoryCodesTests {
    @Test func testMappingExactWildcardAndFallback() {
        expectEqual(CategoryCodes.code(forOSM: "amenity=restaurant"), "1001")
        expectEqual(CategoryCodes.code(forOSM: "amenity=cafe"), "1003")
        expectEqual(CategoryCodes.code(forOSM: "tourism=hotel"), "2001")
        expectEqual(CategoryCodes.code(forOSM: "amenity=atm"), "3002")
        expectEqual(CategoryCodes.code(forOSM: "amenity=place_of_worship"), "6001")
        expectEqual(CategoryCodes.code(forOSM: "shop=bakery"), "8004", "shop=* rule")
        expectEqual(CategoryCodes.code(forOSM: "historic=castle"), "6004", "historic=* rule")
        expectEqual(CategoryCodes.code(forOSM: "amenity=Dai hoc Bach khoa TPHCM"), CategoryCodes.fallbackCode)
        expectEqual(CategoryCodes.code(forOSM: "garbage"), "9999")
    }

    @Test func testImportanceIsWithinTheDocumentedRange() {
        for rule in CategoryCodes.rules {
            let importance = CategoryCodes.importance(forOSM: rule.osm.replacingOccurrences(of: "=*", with: "=anything"))
            expectTrue((0.35...0.9).contains(importance), "\(rule.osm): \(importance)")
        }
        expectGreaterThan(CategoryCodes.importance(forOSM: "railway=station"), CategoryCodes.importance(forOSM: "shop=bakery"))
        expectEqual(CategoryCodes.importance(forOSM: "place=city"), 0.9)
    }

    @Test func testEveryRuleUsesAKnownCodeAndTheTableListsThemAll() {
        let codes = Set(CategoryCodes.categories.map(\.code))
        expectEqual(codes.count, CategoryCodes.categories.count, "codes are unique")
        for rule in CategoryCodes.rules { expectTrue(codes.contains(rule.code), rule.osm) }
        let table = CategoryCodes.markdownTable()
        for code in codes { expectTrue(table.contains("| `\(code)` |"), code) }
    }
}
