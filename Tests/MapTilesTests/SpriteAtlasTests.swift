import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class SpriteAtlasTests {
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
        let object = try unwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: [String: Any]])
        return try object.mapValues { e in
            Entry(x: try unwrap(e["x"] as? Int), y: try unwrap(e["y"] as? Int), width: try unwrap(e["width"] as? Int),
                  height: try unwrap(e["height"] as? Int), pixelRatio: try unwrap(e["pixelRatio"] as? Int))
        }
    }

    /// The `stretchX` and `content` arrays of icon `name` (none when it has no stretch).
    func stretch(_ json: [UInt8], _ name: String) throws -> [NSArray] {
        let object = try unwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: [String: Any]])
        let entry = try unwrap(object[name])
        return ["stretchX", "content"].compactMap { entry[$0] as? NSArray }
    }

    @Test func testIndexListsEveryIconSortedWithoutOverlapInsideThePNG() throws {
        let (json, png) = try SpriteAtlas.build(icons: icons, pixelRatio: 1)
        let image = try PNGImage(decoding: png)
        expectTrue(image.hasAlpha)
        let index = try entries(json)
        expectEqual(Set(index.keys), Set(icons.map(\.name)))
        // Names appear in sorted order in the bytes.
        let text = String(decoding: json, as: UTF8.self)
        let positions = icons.map(\.name).sorted().map { text.range(of: "\"\($0)\"")!.lowerBound }
        expectEqual(positions, positions.sorted())
        let boxes = Array(index)
        for (name, e) in boxes {
            expectEqual(e.pixelRatio, 1)
            expectGreaterThanOrEqual(e.x, 0); expectGreaterThanOrEqual(e.y, 0)
            expectLessThanOrEqual(e.x + e.width, image.width, name)
            expectLessThanOrEqual(e.y + e.height, image.height, name)
        }
        for i in 0..<boxes.count {
            for j in (i + 1)..<boxes.count {
                let (a, b) = (boxes[i].value, boxes[j].value)
                let overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
                expectFalse(overlap, "\(boxes[i].key) overlaps \(boxes[j].key)")
            }
        }
        expectEqual(index["shield-ql"]?.width, 26)
        expectEqual(index["shield-ql"]?.height, 18)
        expectEqual(try stretch(json, "shield-ql"), [[[5, 21]], [4, 3, 22, 15]], text)
        expectEqual(try stretch(json, "fuel"), [], "only stretchable icons say how")
        // The middle of the plain circle icon has its fill colour; its corner is transparent.
        let fuel = try unwrap(index["fuel"])
        expectEqual(image.pixel(x: fuel.x + fuel.width / 2, y: fuel.y + fuel.height / 2), RGBAColor(rgb: 0x2F6FD0))
        expectEqual(image.pixel(x: fuel.x, y: fuel.y)?.alpha, 0)
        // The hospital's glyph puts white in its middle region, its fill around.
        let hospital = try unwrap(index["hospital"])
        expectEqual(image.pixel(x: hospital.x + 3, y: hospital.y + 8), red)
        var white = 0
        for y in hospital.y + 4..<hospital.y + 13 { for x in hospital.x + 4..<hospital.x + 13 where image.pixel(x: x, y: y) == .white { white += 1 } }
        expectGreaterThan(white, 5, "the H glyph")
    }

    @Test func testDoubleRatioDoublesTheLayout() throws {
        let one = try entries(SpriteAtlas.build(icons: icons, pixelRatio: 1).json)
        let (json2, png2) = try SpriteAtlas.build(icons: icons, pixelRatio: 2)
        let two = try entries(json2)
        let image1 = try PNGImage(decoding: SpriteAtlas.build(icons: icons, pixelRatio: 1).png)
        let image2 = try PNGImage(decoding: png2)
        expectEqual(image2.width, 2 * image1.width)
        expectEqual(image2.height, 2 * image1.height)
        for (name, e) in one {
            expectEqual(two[name], Entry(x: 2 * e.x, y: 2 * e.y, width: 2 * e.width, height: 2 * e.height, pixelRatio: 2), name)
        }
        let fuel = try unwrap(two["fuel"])
        expectEqual(image2.pixel(x: fuel.x + fuel.width / 2, y: fuel.y + fuel.height / 2), RGBAColor(rgb: 0x2F6FD0))
        expectEqual(try stretch(json2, "shield-ql"), [[[10, 42]], [8, 6, 44, 30]])
    }

    @Test func testSameBytesTwiceWhateverTheInputOrder() throws {
        let a = try SpriteAtlas.build(icons: icons, pixelRatio: 2)
        let b = try SpriteAtlas.build(icons: icons.reversed(), pixelRatio: 2)
        expectEqual(a.json, b.json)
        expectEqual(a.png, b.png)
    }

    @Test func testBadInputIsATypedError() {
        expectThrowsError(try SpriteAtlas.build(icons: icons, pixelRatio: 3)) { expectEqual($0 as? SpriteAtlasError, .unsupportedPixelRatio(3)) }
        expectThrowsError(try SpriteAtlas.build(icons: icons + [icons[0]], pixelRatio: 1)) {
            expectEqual($0 as? SpriteAtlasError, .duplicateName("hospital"))
        }
        let long = SpriteIcon(name: "x", shape: .circle, fill: .black, glyph: "ABC")
        expectThrowsError(try SpriteAtlas.build(icons: [long], pixelRatio: 1)) { expectEqual($0 as? SpriteAtlasError, .badGlyph(icon: "x")) }
        expectThrowsError(try SpriteAtlas.build(icons: [SpriteIcon(name: "", shape: .dot, fill: .black)], pixelRatio: 1))
    }

    @Test func testNoIconsGivesAnEmptyIndexAndAOnePixelPNG() throws {
        let (json, png) = try SpriteAtlas.build(icons: [], pixelRatio: 1)
        expectEqual(try entries(json).count, 0)
        let image = try PNGImage(decoding: png)
        expectEqual(image.width, 1)
        expectEqual(image.pixel(x: 0, y: 0)?.alpha, 0)
    }

    @Test func testNamesAreEscapedInTheIndex() throws {
        let (json, _) = try SpriteAtlas.build(icons: [SpriteIcon(name: "a\"b\\c", shape: .dot, fill: .black)], pixelRatio: 1)
        expectEqual(try entries(json).keys.first, "a\"b\\c")
    }
}
