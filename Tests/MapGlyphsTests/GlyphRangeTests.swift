import MapGlyphs
import XCTest

final class GlyphRangeTests: XCTestCase {
    func testBlocksOf256Parse() throws {
        let first = try GlyphRange(parsing: "0-255")
        XCTAssertEqual(first.start, 0)
        XCTAssertEqual(first.end, 255)
        XCTAssertEqual(try GlyphRange(parsing: "7680-7935").codePoints, 7680...7935)
        XCTAssertEqual(try GlyphRange(parsing: "65280-65535").end, 65535)
        XCTAssertEqual(try GlyphRange(parsing: "256-511").description, "256-511")
        XCTAssertEqual(GlyphRange(containing: 0x1EA1)?.description, "7680-7935")
        XCTAssertNil(GlyphRange(containing: 0x1F600))
    }

    func testAnythingElseIsRefused() {
        for text in ["0-256", "256-255", "65536-65791", "100-355"] {
            XCTAssertThrowsError(try GlyphRange(parsing: text), text) { XCTAssertEqual($0 as? GlyphRange.ParseError, .notABlock(text)) }
        }
        for text in ["a-b", "", "0", "0-", "-255", "0-255-511", "+0-255", " 0-255", "0-255.pbf", "000000-255", "0x0-255"] {
            XCTAssertThrowsError(try GlyphRange(parsing: text), text) { XCTAssertEqual($0 as? GlyphRange.ParseError, .notARange(text)) }
        }
    }
}
