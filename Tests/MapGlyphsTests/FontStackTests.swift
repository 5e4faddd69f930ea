import Foundation
import MapGlyphs
import TestExpectations
import Testing

@Suite final class FontStackTests {
    @Test func testPercentEncodedCommaJoinedStackSplitsIntoTrimmedNames() throws {
        expectEqual(try FontStack(pathSegment: "Roboto%20Regular%2cRoboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        expectEqual(try FontStack(pathSegment: "Roboto%20Regular%2CRoboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        expectEqual(try FontStack(pathSegment: "Roboto%20Regular,%20Roboto%20Medium").fonts, ["Roboto Regular", "Roboto Medium"])
        expectEqual(try FontStack(pathSegment: "Roboto Condensed Italic").fonts, ["Roboto Condensed Italic"])
        expectEqual(try FontStack(pathSegment: "Roboto%20Regular%2cRoboto%20Medium").name, "Roboto Regular, Roboto Medium")
    }

    @Test func testEmptyNamesBrokenEncodingAndLongStacksAreRefused() {
        expectThrowsError(try FontStack(pathSegment: "")) { expectEqual($0 as? FontStack.ParseError, .emptyFontName) }
        expectThrowsError(try FontStack(pathSegment: "Roboto%20Regular%2c%2cRoboto%20Medium")) {
            expectEqual($0 as? FontStack.ParseError, .emptyFontName)
        }
        expectThrowsError(try FontStack(pathSegment: "%20%20")) { expectEqual($0 as? FontStack.ParseError, .emptyFontName) }
        expectThrowsError(try FontStack(pathSegment: "Roboto%2")) {
            expectEqual($0 as? FontStack.ParseError, .badPercentEncoding("Roboto%2"))
        }
        expectThrowsError(try FontStack(pathSegment: "Roboto%FF")) {
            expectEqual($0 as? FontStack.ParseError, .badPercentEncoding("Roboto%FF"))
        }
        let seven = Array(repeating: "A", count: FontStack.maximumFonts + 1).joined(separator: "%2c")
        expectThrowsError(try FontStack(pathSegment: seven)) {
            expectEqual($0 as? FontStack.ParseError, .tooManyFonts(FontStack.maximumFonts + 1))
        }
        expectThrowsError(try FontStack(pathSegment: String(repeating: "x", count: 10_000))) {
            expectEqual($0 as? FontStack.ParseError, .fontNameTooLong(10_000))
        }
    }
}
