import MapGlyphs
import XCTest

final class FontStackTests: XCTestCase {
    func testPercentEncodedCommaJoinedStackSplitsIntoTrimmedNames() throws {
        XCTAssertEqual(try FontStack(pathSegment: "Roboto%20Regular%2cRoboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        XCTAssertEqual(try FontStack(pathSegment: "Roboto%20Regular%2CRoboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        XCTAssertEqual(try FontStack(pathSegment: "Roboto%20Regular,%20Roboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        XCTAssertEqual(try FontStack(pathSegment: "Roboto Condensed Italic").fonts, ["Roboto Condensed Italic"])
        XCTAssertEqual(try FontStack(pathSegment: "Roboto%20Regular%2cRoboto%20Medium").name, "Roboto Regular, Roboto Medium")
    }

    func testEmptyNamesBrokenEncodingAndLongStacksAreRefused() {
        XCTAssertThrowsError(try FontStack(pathSegment: "")) { XCTAssertEqual($0 as? FontStack.ParseError, .emptyFontName) }
        XCTAssertThrowsError(try FontStack(pathSegment: "Roboto%20Regular%2c%2cRoboto%20Medium")) {
            XCTAssertEqual($0 as? FontStack.ParseError, .emptyFontName)
        }
        XCTAssertThrowsError(try FontStack(pathSegment: "%20%20")) { XCTAssertEqual($0 as? FontStack.ParseError, .emptyFontName) }
        XCTAssertThrowsError(try FontStack(pathSegment: "Roboto%2")) {
            XCTAssertEqual($0 as? FontStack.ParseError, .badPercentEncoding("Roboto%2"))
        }
        XCTAssertThrowsError(try FontStack(pathSegment: "Roboto%FF")) {
            XCTAssertEqual($0 as? FontStack.ParseError, .badPercentEncoding("Roboto%FF"))
        }
        let seven = Array(repeating: "A", count: FontStack.maximumFonts + 1).joined(separator: "%2c")
        XCTAssertThrowsError(try FontStack(pathSegment: seven)) {
            XCTAssertEqual($0 as? FontStack.ParseError, .tooManyFonts(FontStack.maximumFonts + 1))
        }
        XCTAssertThrowsError(try FontStack(pathSegment: String(repeating: "x", count: 10_000))) {
            XCTAssertEqual($0 as? FontStack.ParseError, .fontNameTooLong(10_000))
        }
    }
}
