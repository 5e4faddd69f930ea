import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class PNGImageTests {
    @Test func testRefusesWhatIsNotAPNG() throws {
        expectThrowsError(try PNGImage(decoding: Array("GIF89a".utf8))) { expectEqual($0 as? PNGImageError, .notPNG) }
        let png = try SpriteAtlas.build(icons: [SpriteIcon(name: "a", shape: .dot, fill: .black)], pixelRatio: 1).png
        expectThrowsError(try PNGImage(decoding: Array(png.prefix(40)))) { expectEqual($0 as? PNGImageError, .truncated) }
        var flipped = png
        flipped[20] ^= 0x01  // inside IHDR's width
        expectThrowsError(try PNGImage(decoding: flipped)) { expectEqual($0 as? PNGImageError, .badChecksum(chunk: "IHDR")) }
    }
}
