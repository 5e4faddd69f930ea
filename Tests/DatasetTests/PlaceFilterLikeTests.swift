import Foundation
@testable import Search
import SeededRandom
import SimTesting
import SQLiteStore
import TestExpectations
import Testing

/// ``PlaceFilter/like(_:_:)`` against SQLite's own `LIKE` (what the category filter was in SQL)
/// on random patterns and texts: wildcards, commas, ASCII case, multi-byte letters.
@Suite final class PlaceFilterLikeTests {
    @Test func testRandomPatternsMatchAsSQLiteLikeDoes() throws {
        let db = try Database(path: ":memory:", mode: .create)
        let statement = try db.prepare("SELECT ? LIKE ?")
        let letters = ["a", "A", "b", "1", "-", ",", "é", "É", "đ", "Đ", "ệ"]
        var generator = SplitMix64(seed: 7)
        func random(_ alphabet: [String], _ maxLength: Int) -> String {
            (0..<Int(generator.next() % UInt64(maxLength + 1))).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
        var matched = 0
        for _ in 0..<4_000 {
            let pattern = random(letters + ["%", "_", "%", "_"], 7), text = random(letters, 9)
            statement.reset()
            _ = try statement.bind(.text(text), .text(pattern))
            expectTrue(try statement.step())
            let sqlite = statement.int(0) == 1
            expectEqual(PlaceFilter.like(Array(pattern.utf8), Array(text.utf8)), sqlite, "'\(text)' LIKE '\(pattern)'")
            if sqlite { matched += 1 }
        }
        expectGreaterThan(matched, 100, "both outcomes are compared")
    }
}
