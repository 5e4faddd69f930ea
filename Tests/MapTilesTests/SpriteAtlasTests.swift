import Foundation
import XCTest
@testable import MapTiles

final class SpriteAtlasTests: XCTestCase {
    let red = RGBAColor(rgb: 0xD03A2F)
    let icons: [SpriteIcon] = [
        SpriteIcon(name: "hospital", shape: .roundedSquare, fill: RGBAColor(rgb: 0xD03A2F), stroke: .white, glyph: "H"),
        SpriteIcon(name: "fuel", shape: .circle, fill: RGBAColor(rgb: 0x2F6FD0)),
        SpriteIcon(name: "shield-ql", shape: .shield, fill: RGBAColor(rgb: 0x1D7A3A), stroke: .white, glyph: "QL"),
        SpriteIcon(name: "junction", shape: .diamond, fill: RGBAColor(rgb: 0xF0B000), stroke: .black),
        SpriteIcon(name: "bus", shape: .dot, fill: RGBAColor(rgb: 0x444444)),
        SpriteIcon(name: "atm", shape: .circle, fill: RGBAColor(rgb: 0x7A1DA0), glyph: "$"),
    ]

    struct Entry: Equatable { var x, y, width, height, pixelRatio: Int }

    func entries(_ json: [UInt8]) throws -> [String: Entry] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: [String: Any]])
        return try object.mapValues { e in
            Entry(x: try XCTUnwrap(e["x"] as? Int), y: try XCTUnwrap(e["y"] as? Int), width: try XCTUnwrap(e["width"] as? Int),
                  height: try XCTUnwrap(e["height"] as? Int), pixelRatio: try XCTUnwrap(e["pixelRatio"] as? Int))
        }
    }

    /// The `stretchX` and `content` arrays of icon `name` (none when it has no stretch).
    func stretch(_ json: [UInt8], _ name: String) throws -> [NSArray] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: [String: Any]])
        let entry = try XCTUnwrap(object[name])
        return ["stretchX", "content"].compactMap { entry[$0] as? NSArray }
    }

    func testIndexListsEveryIconSortedWithoutOverlapInsideThePNG() throws {
        let (json, png) = try SpriteAtlas.build(icons: icons, pixelRatio: 1)
        let image = try PNGImage(decoding: png)
        XCTAssertTrue(image.hasAlpha)
        let index = try entries(json)
        XCTAssertEqual(Set(index.keys), Set(icons.map(\.name)))
        // Names appear in sorted order in the bytes.
        let text = String(decoding: json, as: UTF8.self)
        let positions = icons.map(\.name).sorted().map { text.range(of: "\"\($0)\"")!.lowerBound }
        XCTAssertEqual(positions, positions.sorted())
        let boxes = Array(index)
        for (name, e) in boxes {
            XCTAssertEqual(e.pixelRatio, 1)
            XCTAssertGreaterThanOrEqual(e.x, 0); XCTAssertGreaterThanOrEqual(e.y, 0)
            XCTAssertLessThanOrEqual(e.x + e.width, image.width, name)
            XCTAssertLessThanOrEqual(e.y + e.height, image.height, name)
        }
        for i in 0..<boxes.count {
            for j in (i + 1)..<boxes.count {
                let (a, b) = (boxes[i].value, boxes[j].value)
                let overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
                XCTAssertFalse(overlap, "\(boxes[i].key) overlaps \(boxes[j].key)")
            }
        }
        XCTAssertEqual(index["shield-ql"]?.width, 26)
        XCTAssertEqual(index["shield-ql"]?.height, 18)
        XCTAssertEqual(try stretch(json, "shield-ql"), [[[5, 21]], [4, 3, 22, 15]], text)
        XCTAssertEqual(try stretch(json, "fuel"), [], "only stretchable icons say how")
        // The middle of the plain circle icon has its fill colour; its corner is transparent.
        let fuel = try XCTUnwrap(index["fuel"])
        XCTAssertEqual(image.pixel(x: fuel.x + fuel.width / 2, y: fuel.y + fuel.height / 2), RGBAColor(rgb: 0x2F6FD0))
        XCTAssertEqual(image.pixel(x: fuel.x, y: fuel.y)?.alpha, 0)
        // The hospital's glyph puts white in its middle region, its fill around.
        let hospital = try XCTUnwrap(index["hospital"])
        XCTAssertEqual(image.pixel(x: hospital.x + 3, y: hospital.y + 8), red)
        var white = 0
        for y in hospital.y + 4..<hospital.y + 13 { for x in hospital.x + 4..<hospital.x + 13 where image.pixel(x: x, y: y) == .white { white += 1 } }
        XCTAssertGreaterThan(white, 5, "the H glyph")
    }

    func testDoubleRatioDoublesTheLayout() throws {
        let one = try entries(SpriteAtlas.build(icons: icons, pixelRatio: 1).json)
        let (json2, png2) = try SpriteAtlas.build(icons: icons, pixelRatio: 2)
        let two = try entries(json2)
        let image1 = try PNGImage(decoding: SpriteAtlas.build(icons: icons, pixelRatio: 1).png)
        let image2 = try PNGImage(decoding: png2)
        XCTAssertEqual(image2.width, 2 * image1.width)
        XCTAssertEqual(image2.height, 2 * image1.height)
        for (name, e) in one {
            XCTAssertEqual(two[name], Entry(x: 2 * e.x, y: 2 * e.y, width: 2 * e.width, height: 2 * e.height, pixelRatio: 2), name)
        }
        let fuel = try XCTUnwrap(two["fuel"])
        XCTAssertEqual(image2.pixel(x: fuel.x + fuel.width / 2, y: fuel.y + fuel.height / 2), RGBAColor(rgb: 0x2F6FD0))
        XCTAssertEqual(try stretch(json2, "shield-ql"), [[[10, 42]], [8, 6, 44, 30]])
    }

    func testSameBytesTwiceWhateverTheInputOrder() throws {
        let a = try SpriteAtlas.build(icons: icons, pixelRatio: 2)
        let b = try SpriteAtlas.build(icons: icons.reversed(), pixelRatio: 2)
        XCTAssertEqual(a.json, b.json)
        XCTAssertEqual(a.png, b.png)
    }

    func testBadInputIsATypedError() {
        XCTAssertThrowsError(try SpriteAtlas.build(icons: icons, pixelRatio: 3)) { XCTAssertEqual($0 as? SpriteAtlasError, .unsupportedPixelRatio(3)) }
        XCTAssertThrowsError(try SpriteAtlas.build(icons: icons + [icons[0]], pixelRatio: 1)) {
            XCTAssertEqual($0 as? SpriteAtlasError, .duplicateName("hospital"))
        }
        let long = SpriteIcon(name: "x", shape: .circle, fill: .black, glyph: "ABC")
        XCTAssertThrowsError(try SpriteAtlas.build(icons: [long], pixelRatio: 1)) { XCTAssertEqual($0 as? SpriteAtlasError, .badGlyph(icon: "x")) }
        XCTAssertThrowsError(try SpriteAtlas.build(icons: [SpriteIcon(name: "", shape: .dot, fill: .black)], pixelRatio: 1))
    }

    func testNoIconsGivesAnEmptyIndexAndAOnePixelPNG() throws {
        let (json, png) = try SpriteAtlas.build(icons: [], pixelRatio: 1)
        XCTAssertEqual(try entries(json).count, 0)
        let image = try PNGImage(decoding: png)
        XCTAssertEqual(image.width, 1)
        XCTAssertEqual(image.pixel(x: 0, y: 0)?.alpha, 0)
    }

    func testNamesAreEscapedInTheIndex() throws {
        let (json, _) = try SpriteAtlas.build(icons: [SpriteIcon(name: "a\"b\\c", shape: .dot, fill: .black)], pixelRatio: 1)
        XCTAssertEqual(try entries(json).keys.first, "a\"b\\c")
    }
}
