import Foundation
import TestExpectations
import Testing
@testable import TextFolding

@Suite final class TextFoldingTests {
    @Test func testAccentsToneAndCaseFoldToTheSameKey() {
        let expected = "nha tho duc ba"
        expectEqual(TextFolding.fold("Nhà thờ Đức Bà"), expected)
        expectEqual(TextFolding.fold("NHÀ THỜ ĐỨC BÀ"), expected)
        expectEqual(TextFolding.fold("nha tho duc ba"), expected)
        expectEqual(TextFolding.fold("Nhà thờ Ðức Bà"), expected)  // U+00D0 ETH
        expectEqual(TextFolding.fold("Nha\u{300} tho\u{31B}\u{300} \u{110}u\u{31B}\u{301}c Ba\u{300}"), expected)  // decomposed
    }

    @Test func testTonePlacementVariantsMatch() {
        expectEqual(TextFolding.fold("Hòa"), TextFolding.fold("Hoà"))
        expectEqual(TextFolding.fold("Thủy"), TextFolding.fold("Thuỷ"))
        expectEqual(TextFolding.fold("Thủy"), "thuy")
    }

    @Test func testIAndYAfterAConsonantAreOneSpelling() {
        expectEqual(TextFolding.fold("Lê Văn Sỹ"), TextFolding.fold("Lê Văn Sĩ"))
        expectEqual(TextFolding.fold("Lý Tự Trọng"), TextFolding.fold("Lí Tự Trọng"))
        expectEqual(TextFolding.fold("Kỹ thuật Mỹ"), "ki thuat mi")
        // After a vowel "y" is part of the vowel: unchanged.
        expectEqual(TextFolding.fold("Thủy Hay Quy"), "thuy hay quy")
        expectEqual(TextFolding.fold("Y Dược"), "y duoc")
    }

    @Test func testPunctuationSeparatesWords() {
        expectEqual(TextFolding.fold("  197/3, Trần-Phú;;Q.5 "), "197 3 tran phu q 5")
        expectEqual(TextFolding.tokens("Bến Thành!").map(String.init), ["ben", "thanh"])
        expectEqual(TextFolding.fold(""), "")
        expectEqual(TextFolding.fold("!!!"), "")
    }

    @Test func testCleanRepairsEthAndComposes() {
        expectEqual(TextFolding.clean("Ðồng  Khởi"), "Đồng Khởi")
        expectEqual(TextFolding.clean("Nha\u{300}"), "Nhà")
        expectEqual(TextFolding.clean("  a \n b "), "a b")
    }

    @Test func testTheASCIIPathFoldsAsTheUnicodePath() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("aAbByYiIzZ09 .,/-_'\"\t\n!~yky sy ly") + ["\u{7F}", "\u{1}"]
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            expectEqual(TextFolding.fold(text), TextFolding.foldScalars(text), "\(text.debugDescription)")
        }
        expectEqual(TextFolding.fold("Ly Tu Trong, Q.1"), "li tu trong q 1")
        expectEqual(TextFolding.fold("  "), "")
    }
}
