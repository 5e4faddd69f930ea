import XCTest
@testable import VietMapAPI

/// The response cache's key: the path, then each parameter but `apikey` as \u{1} name \u{2} value, in order; nil
/// once longer than `maxKeyBytes` (the path alone is not limited).
final class ResponseCacheKeyTests: XCTestCase {
    /// The key as a plain concatenation.
    static func plainKey(path: String, items: [(name: String, value: String)]) -> String? {
        var key = path
        for item in items where item.name != "apikey" {
            key += "\u{1}" + item.name + "\u{2}" + item.value
            guard key.utf8.count <= ResponseCache.maxKeyBytes else { return nil }
        }
        return key
    }

    func testTheKeyIsThePathAndEveryParameterButTheKey() {
        let long = String(repeating: "đường ", count: 40)  // 400 bytes
        let cases: [(String, [(name: String, value: String)])] = [
            ("/api/place/v4", [("apikey", "bench"), ("refid", "auto:Q-hPD7ws4SaZkyAXss3avc_LBJo")]),
            ("/api/autocomplete/v4", [("text", "chợ bến thành"), ("apikey", "k"), ("focus", "10.77,106.70"), ("text", "")]),
            ("/p", []), ("/p", [("apikey", "only")]), ("", [("", "")]), ("/p", [("a", ""), ("", "b")]),
            ("/api/search/v4", [("text", long), ("layers", long)]),                // 1,000 bytes or so: kept
            ("/api/search/v4", [("text", long), ("layers", long), ("x", long)]),   // too long: nil
            (String(repeating: "/p", count: 600), []),                              // a long path alone: kept
            (String(repeating: "/p", count: 600), [("a", "b")]),                    // with a parameter: nil
        ]
        for (path, items) in cases {
            let key = ResponseCache.key(path: path, items: items)
            XCTAssertEqual(key, Self.plainKey(path: path, items: items), "\(path.prefix(30)) \(items.map(\.name))")
            if let key { XCTAssertEqual(Array(key.utf8), Array(Self.plainKey(path: path, items: items)!.utf8)) }
        }
        XCTAssertNotNil(ResponseCache.key(path: "/api/search/v4", items: [("text", long), ("layers", long)]))
        XCTAssertNil(ResponseCache.key(path: "/api/search/v4", items: [("text", long), ("layers", long), ("x", long)]))
    }

    func testServerTimingIsMillisecondsWithThreeDecimals() {
        for micros: UInt64 in [0, 7, 98, 100, 999, 1_000, 1_005, 12_345, 999_999, 1_000_000, 123_456_789, 18_446_744_073_709_551] {
            let fraction = micros % 1_000
            let expected = "app;dur=\(micros / 1_000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + String(fraction)
            XCTAssertEqual(VietMapService.serverTiming(micros: micros), expected)
        }
    }
}
