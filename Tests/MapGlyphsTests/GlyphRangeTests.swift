import Foundation
import MapGlyphs
import TestExpectations
import Testing

@Suite final class GlyphRangeTests {
    @Test func testBlocksOf256Parse() throws {
        let first = try GlyphRange(parsing: "0-255")
        expectEqual(first.start, 0)
        expectEqual(first.end, 255)
        expectEqual(try GlyphRange(parsing: "7680-7935").codePoints, 7680...7935)
        expectEqual(try GlyphRange(parsing: "65280-65535").end, 65535)
        expectEqual(try GlyphRange(parsing: "256-511").description, "256-511")
        expectEqual(GlyphRange(containing: 0x1EA1)?.description, "7680-7935")
        expectNil(GlyphRange(containing: 0x1F600))
    }

    @Test func testAnythingElseIsRefused() {
        for text in ["0-256", "256-255", "65536-65791", "100-355"] {
            expectThrowsError(try GlyphRange(parsing: text), text) { expectEqual($0 as? GlyphRange.ParseError, .notABlock(text)) }
        }
        for text in ["a-b", "", "0", "0-", "-255", "0-255-511", "+0-255", " 0-255", "0-255.pbf", "000000-255", "0x0-255"] {
            expectThrowsError(try GlyphRange(parsing: text), text) { expectEqual($0 as? GlyphRange.ParseError, .notARange(text)) }
        }
    }
}
