import XCTest
@testable import MapTiles

final class PNGImageTests: XCTestCase {
    func testRefusesWhatIsNotAPNG() throws {
        XCTAssertThrowsError(try PNGImage(decoding: Array("GIF89a".utf8))) { XCTAssertEqual($0 as? PNGImageError, .notPNG) }
        let png = try SpriteAtlas.build(icons: [SpriteIcon(name: "a", shape: .dot, fill: .black)], pixelRatio: 1).png
        XCTAssertThrowsError(try PNGImage(decoding: Array(png.prefix(40)))) { XCTAssertEqual($0 as? PNGImageError, .truncated) }
        var flipped = png
        flipped[20] ^= 0x01  // inside IHDR's width
        XCTAssertThrowsError(try PNGImage(decoding: flipped)) { XCTAssertEqual($0 as? PNGImageError, .badChecksum(chunk: "IHDR")) }
    }
}
