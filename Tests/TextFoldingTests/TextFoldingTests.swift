import XCTest
@testable import TextFolding

final class TextFoldingTests: XCTestCase {
    func testAccentsToneAndCaseFoldToTheSameKey() {
        let expected = "nha tho duc ba"
        XCTAssertEqual(TextFolding.fold("Nhà thờ Đức Bà"), expected)
        XCTAssertEqual(TextFolding.fold("NHÀ THỜ ĐỨC BÀ"), expected)
        XCTAssertEqual(TextFolding.fold("nha tho duc ba"), expected)
        XCTAssertEqual(TextFolding.fold("Nhà thờ Ðức Bà"), expected)  // U+00D0 ETH
        XCTAssertEqual(TextFolding.fold("Nha\u{300} tho\u{31B}\u{300} \u{110}u\u{31B}\u{301}c Ba\u{300}"), expected)  // decomposed
    }

    func testTonePlacementVariantsMatch() {
        XCTAssertEqual(TextFolding.fold("Hòa"), TextFolding.fold("Hoà"))
        XCTAssertEqual(TextFolding.fold("Thủy"), TextFolding.fold("Thuỷ"))
        XCTAssertEqual(TextFolding.fold("Thủy"), "thuy")
    }

    func testIAndYAfterAConsonantAreOneSpelling() {
        XCTAssertEqual(TextFolding.fold("Lê Văn Sỹ"), TextFolding.fold("Lê Văn Sĩ"))
        XCTAssertEqual(TextFolding.fold("Lý Tự Trọng"), TextFolding.fold("Lí Tự Trọng"))
        XCTAssertEqual(TextFolding.fold("Kỹ thuật Mỹ"), "ki thuat mi")
        // After a vowel "y" is part of the vowel: unchanged.
        XCTAssertEqual(TextFolding.fold("Thủy Hay Quy"), "thuy hay quy")
        XCTAssertEqual(TextFolding.fold("Y Dược"), "y duoc")
    }

    func testPunctuationSeparatesWords() {
        XCTAssertEqual(TextFolding.fold("  197/3, Trần-Phú;;Q.5 "), "197 3 tran phu q 5")
        XCTAssertEqual(TextFolding.tokens("Bến Thành!").map(String.init), ["ben", "thanh"])
        XCTAssertEqual(TextFolding.fold(""), "")
        XCTAssertEqual(TextFolding.fold("!!!"), "")
    }

    func testCleanRepairsEthAndComposes() {
        XCTAssertEqual(TextFolding.clean("Ðồng  Khởi"), "Đồng Khởi")
        XCTAssertEqual(TextFolding.clean("Nha\u{300}"), "Nhà")
        XCTAssertEqual(TextFolding.clean("  a \n b "), "a b")
    }

    func testTheASCIIPathFoldsAsTheUnicodePath() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("aAbByYiIzZ09 .,/-_'\"\t\n!~yky sy ly") + ["\u{7F}", "\u{1}"]
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            XCTAssertEqual(TextFolding.fold(text), TextFolding.foldScalars(text), "\(text.debugDescription)")
        }
        XCTAssertEqual(TextFolding.fold("Ly Tu Trong, Q.1"), "li tu trong q 1")
        XCTAssertEqual(TextFolding.fold("  "), "")
    }
}
