import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class RasterTileRendererTests {
    // Tile 14/13048/7698 holds central Ho Chi Minh City; its world box is 1/16384 wide.
    let tile = TileID(z: 14, x: 13048, y: 7698)!
    let background = RGBAColor(rgb: 0xF8F4F0)
    let road = RGBAColor(rgb: 0xE0301E)
    let park = RGBAColor(rgb: 0x3C9A3C)

    /// The world point at pixel fraction (fx, fy) of the tile.
    func world(_ fx: Double, _ fy: Double) -> WorldPoint {
        let b = tile.worldBounds
        return WorldPoint(x: b.minX + fx * (b.maxX - b.minX), y: b.minY + fy * (b.maxY - b.minY))
    }

    func roadPaint(minZoom: Int = 0) -> RasterPaint {
        RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "roads", filter: .oneOf(key: "class", values: [.int(1)]), minZoom: minZoom,
                       drawing: .line(RasterLine(color: road, width: ZoomFunction(stops: [.init(10, 2), .init(18, 16)])))),
        ])
    }

    /// A road across the middle of the tile, west to east, beyond both edges.
    func horizontalRoad(roadClass: MapValue = .int(1)) -> MapFeature {
        MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[world(-0.2, 0.5), world(1.2, 0.5)]]),
                   properties: [MapProperty("class", roadClass)])
    }

    @Test func testPNGHeaderAndAHorizontalLineCrossesTheMiddle() throws {
        let png = try RasterTileRenderer().render(tile: tile, features: [horizontalRoad()], paint: roadPaint(), scale: 1)
        // Signature, then IHDR with width and height 256 (big-endian at bytes 16…23).
        expectEqual(Array(png[0..<8]), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        expectEqual(String(decoding: png[12..<16], as: UTF8.self), "IHDR")
        expectEqual(Array(png[16..<24]), [0, 0, 1, 0, 0, 0, 1, 0])
        let image = try PNGImage(decoding: png)
        expectEqual(image.width, 256)
        expectEqual(image.height, 256)
        expectFalse(image.hasAlpha, "an opaque background gives an RGB PNG")
        // Width at z14: 2 + (16 − 2)·4/8 = 9 px, centred on row 128.
        expectEqual(image.pixel(x: 128, y: 128), road)
        expectEqual(image.pixel(x: 0, y: 128), road, "the line reaches the tile's edge")
        expectEqual(image.pixel(x: 128, y: 124), road)
        expectEqual(image.pixel(x: 128, y: 118), background)
        expectEqual(image.pixel(x: 0, y: 0), background)
        expectEqual(image.pixel(x: 255, y: 255), background)
    }

    @Test func testTransparentBackgroundGivesStraightAlpha() throws {
        var paint = roadPaint()
        paint.background = .transparent
        paint.rules.append(RasterRule(sourceLayer: "roads", filter: .oneOf(key: "class", values: [.int(2)]),
                                      drawing: .line(RasterLine(color: RGBAColor(red: 0, green: 0, blue: 255, alpha: 128),
                                                                                     width: .constant(30)))))
        let vertical = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[world(0.25, -0.1), world(0.25, 1.1)]]),
                                  properties: [MapProperty("class", .int(2))])
        let image = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [horizontalRoad(), vertical], paint: paint, scale: 1))
        expectTrue(image.hasAlpha)
        expectEqual(image.pixel(x: 0, y: 0)?.alpha, 0)
        expectEqual(image.pixel(x: 200, y: 128), road, "opaque line on a transparent tile keeps its colour")
        let halfBlue = try unwrap(image.pixel(x: 64, y: 40))
        expectEqual(Int(halfBlue.alpha), 128, accuracy: 1)
        expectEqual(halfBlue.blue, 255, "colour written unpremultiplied")
        expectEqual(halfBlue.red, 0)
    }

    @Test func testFilterKeepsOnlyMatchingTypedValues() throws {
        // "1" (a string) is not 1 (an integer).
        let png = try RasterTileRenderer().render(tile: tile, features: [horizontalRoad(roadClass: .string("1"))], paint: roadPaint(), scale: 1)
        expectEqual(try PNGImage(decoding: png).pixel(x: 128, y: 128), background)
    }

    @Test func testMinimumZoomHidesARuleAndAFeature() throws {
        let hidden = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [horizontalRoad()], paint: roadPaint(minZoom: 15), scale: 1))
        expectEqual(hidden.pixel(x: 128, y: 128), background)
        var lateRoad = horizontalRoad()
        lateRoad.minZoom = 15
        let alsoHidden = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [lateRoad], paint: roadPaint(), scale: 1))
        expectEqual(alsoHidden.pixel(x: 128, y: 128), background)
        let shown = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [horizontalRoad()], paint: roadPaint(minZoom: 14), scale: 1))
        expectEqual(shown.pixel(x: 128, y: 128), road)
    }

    @Test func testPolygonFillWithHoleAndOutline() throws {
        let outline = RGBAColor(rgb: 0x102030)
        // A square from 25 % to 75 % of the tile with a hole from 40 % to 60 %, holes given in the same
        // orientation as the exterior (the renderer orients them itself).
        let outer = [world(0.25, 0.25), world(0.75, 0.25), world(0.75, 0.75), world(0.25, 0.75)]
        let hole = [world(0.4, 0.4), world(0.6, 0.4), world(0.6, 0.6), world(0.4, 0.6)]
        let feature = MapFeature(layer: "landuse", minZoom: 0, geometry: .polygons([[outer, hole]]), properties: [])
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "landuse", drawing: .fill(RasterFill(color: park, outline: outline, outlineWidth: 2))),
        ])
        let image = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [feature], paint: paint, scale: 1))
        expectEqual(image.pixel(x: 80, y: 80), park)
        expectEqual(image.pixel(x: 180, y: 170), park)
        expectEqual(image.pixel(x: 128, y: 128), background, "the hole stays empty")
        expectEqual(image.pixel(x: 30, y: 30), background)
        expectEqual(image.pixel(x: 64, y: 128), outline, "outline on the exterior's west edge (x = 64)")
    }

    @Test func testHugePolygonAtDeepZoomFillsTheTile() throws {
        // A polygon covering a whole z2 tile, drawn at z20: its vertices are millions of pixels away.
        let deep = TileID(z: 20, x: 834_000, y: 492_700)!
        let ring = [WorldPoint(x: 0.5, y: 0.25), WorldPoint(x: 1, y: 0.25), WorldPoint(x: 1, y: 0.5), WorldPoint(x: 0.5, y: 0.5)]
        let line = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[WorldPoint(x: 0.5, y: deep.worldBounds.minY),
                                                                             WorldPoint(x: 1, y: deep.worldBounds.maxY)]]), properties: [])
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "landuse", drawing: .fill(RasterFill(color: park))),
            RasterRule(sourceLayer: "roads", drawing: .line(RasterLine(color: road, width: .constant(4)))),
        ])
        let features = [MapFeature(layer: "landuse", minZoom: 0, geometry: .polygons([[ring]]), properties: []), line]
        let image = try PNGImage(decoding: RasterTileRenderer().render(tile: deep, features: features, paint: paint, scale: 1))
        expectEqual(image.pixel(x: 0, y: 0), park)
        expectEqual(image.pixel(x: 255, y: 255), park)
        expectEqual(image.pixel(x: 128, y: 128), park, "the far line's nearly vertical span misses the middle")
    }

    @Test func testScaleTwoIsTheSamePictureAt512() throws {
        let outer = [world(0.1, 0.1), world(0.3, 0.1), world(0.3, 0.3), world(0.1, 0.3)]
        let features = [horizontalRoad(), MapFeature(layer: "landuse", minZoom: 0, geometry: .polygons([[outer]]), properties: [])]
        var paint = roadPaint()
        paint.rules.insert(RasterRule(sourceLayer: "landuse", drawing: .fill(RasterFill(color: park))), at: 0)
        let png = try RasterTileRenderer().render(tile: tile, features: features, paint: paint, scale: 2)
        expectEqual(Array(png[16..<24]), [0, 0, 2, 0, 0, 0, 2, 0], "IHDR 512 × 512")
        let small = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: features, paint: paint, scale: 1))
        let large = try PNGImage(decoding: png)
        expectEqual(large.width, 512)
        expectEqual(large.height, 512)
        // Away from edges (antialiasing differs there) every sampled pixel matches its 1x counterpart.
        var compared = 0
        for y in stride(from: 2, to: 256, by: 6) {
            for x in stride(from: 2, to: 256, by: 6) {
                let a = small.pixel(x: x, y: y)
                guard a == small.pixel(x: x - 1, y: y - 1), a == small.pixel(x: x + 1, y: y + 1) else { continue }
                expectEqual(large.pixel(x: 2 * x, y: 2 * y), a, "pixel (\(x), \(y))")
                compared += 1
            }
        }
        expectGreaterThan(compared, 1500)
        expectEqual(large.pixel(x: 256, y: 256), road)
        expectEqual(large.pixel(x: 100, y: 100), park)
    }

    @Test func testCasingIsDrawnUnderEveryLine() throws {
        let casing = RGBAColor(rgb: 0x202020)
        let minor = RGBAColor(rgb: 0xFFFFFF)
        // A minor road (north–south) drawn after a major cased one: the major's casing must not cut it.
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "roads", filter: .oneOf(key: "class", values: [.int(1)]),
                       drawing: .line(RasterLine(color: road, width: .constant(10), casing: RasterCasing(color: casing, width: .constant(16))))),
            RasterRule(sourceLayer: "roads", filter: .oneOf(key: "class", values: [.int(2)]),
                       drawing: .line(RasterLine(color: minor, width: .constant(4), casing: RasterCasing(color: casing, width: .constant(8))))),
        ])
        let vertical = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[world(0.5, -0.1), world(0.5, 1.1)]]),
                                  properties: [MapProperty("class", .int(2))])
        let image = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [horizontalRoad(), vertical], paint: paint, scale: 1))
        expectEqual(image.pixel(x: 60, y: 128), road)
        expectEqual(image.pixel(x: 60, y: 121), casing, "casing 3 px beyond the 10-px line")
        expectEqual(image.pixel(x: 128, y: 128), minor, "the later rule's line crosses on top")
        expectEqual(image.pixel(x: 128, y: 60), minor)
        expectEqual(image.pixel(x: 125, y: 60), casing)
    }

    @Test func testCirclesAndLabelsWithCollision() throws {
        let dot = RGBAColor(rgb: 0x1060C0)
        let text = RGBAColor(rgb: 0x000000)
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "poi", drawing: .circle(RasterCircle(radius: .constant(6), fill: dot, stroke: .white, strokeWidth: 1))),
            RasterRule(sourceLayer: "poi", drawing: .label(RasterLabel(textKey: "name", size: 14, color: text, halo: .white, haloWidth: 2, offsetY: 16))),
        ])
        let first = MapFeature(layer: "poi", minZoom: 0, geometry: .points([world(0.5, 0.3)]), properties: [MapProperty("name", .string("Chợ Bến Thành"))])
        // Same place, other name: its label would overlap the first and is skipped.
        let second = MapFeature(layer: "poi", minZoom: 0, geometry: .points([world(0.5, 0.3)]), properties: [MapProperty("name", .string("WWWWWWWW"))])
        let renderer = RasterTileRenderer()
        let both = try PNGImage(decoding: renderer.render(tile: tile, features: [first, second], paint: paint, scale: 1))
        let alone = try PNGImage(decoding: renderer.render(tile: tile, features: [first], paint: paint, scale: 1))
        expectEqual(both.pixel(x: 128, y: 77), dot, "circle centre at 30 % of 256")
        expectEqual(both.rgba, alone.rgba, "the overlapping second label is skipped")
        // The label row (16 px below the circle) has dark text pixels.
        var dark = 0
        for y in 84...104 { for x in 60...196 where both.pixel(x: x, y: y)?.blue ?? 255 < 80 { dark += 1 } }
        expectGreaterThan(dark, 40, "text drawn below the circle")
        // A label that cannot fit inside the tile is not drawn.
        let edge = MapFeature(layer: "poi", minZoom: 0, geometry: .points([world(0.01, 0.9)]), properties: [MapProperty("name", .string("Bến Nghé"))])
        let cut = try PNGImage(decoding: renderer.render(tile: tile, features: [edge], paint: paint, scale: 1))
        var textPixels = 0
        for y in 230...256 - 1 { for x in 0..<60 where cut.pixel(x: x, y: y)?.blue ?? 255 < 80 { textPixels += 1 } }
        expectEqual(textPixels, 0)
    }

    @Test func testNonsenseNumbersDrawNothingOrSomethingBoundedButNeverFail() throws {
        let nan = WorldPoint(x: .nan, y: 0.5)
        let broken = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[nan, world(0.5, 0.2), WorldPoint(x: .infinity, y: 0)]]),
                                properties: [MapProperty("class", .int(1))])
        let brokenPolygon = MapFeature(layer: "landuse", minZoom: 0, geometry: .polygons([[[nan, nan, nan, world(0.1, 0.1)]]]), properties: [])
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "landuse", drawing: .fill(RasterFill(color: park, outline: .black, outlineWidth: .infinity))),
            // A dash far under a pixel would have Cairo cut millions of dashes: drawn solid instead.
            RasterRule(sourceLayer: "roads", drawing: .line(RasterLine(color: road, width: .constant(4), dash: [1e-9, 1e-9]))),
            RasterRule(sourceLayer: "roads", drawing: .circle(RasterCircle(radius: .constant(.nan), fill: .black))),
            RasterRule(sourceLayer: "roads", drawing: .label(RasterLabel(textKey: "class", size: 1e12, color: .black, offsetY: .nan))),
        ])
        let image = try PNGImage(decoding: RasterTileRenderer().render(tile: tile, features: [broken, brokenPolygon, horizontalRoad()],
                                                                       paint: paint, scale: 1))
        expectEqual(image.pixel(x: 128, y: 128), road, "the good road is drawn, solid")
        expectEqual(image.pixel(x: 131, y: 128), road)
        expectEqual(image.pixel(x: 10, y: 240), background)
    }

    @Test func testAStreetOfManyEdgesIsNamedOncePerHalfTile() throws {
        let paint = RasterPaint(background: background, rules: [
            RasterRule(sourceLayer: "roads", drawing: .label(RasterLabel(textKey: "name", size: 12, color: .black))),
        ])
        func edge(_ from: Double, _ to: Double, _ name: String) -> MapFeature {
            MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[world(from, 0.5), world(to, 0.5)]]), properties: [MapProperty("name", .string(name))])
        }
        // Two consecutive edges of one street, each long enough for its label: one label.
        let renderer = RasterTileRenderer()
        let first = try PNGImage(decoding: renderer.render(tile: tile, features: [edge(0.0, 0.45, "Lê Lợi")], paint: paint, scale: 1))
        let both = try PNGImage(decoding: renderer.render(tile: tile, features: [edge(0.0, 0.45, "Lê Lợi"), edge(0.45, 0.9, "Lê Lợi")], paint: paint, scale: 1))
        expectTrue(first.rgba.contains(0), "the first edge's label is drawn in black")
        expectEqual(both.rgba, first.rgba)
        // A second edge of another name is labelled.
        let other = try PNGImage(decoding: renderer.render(tile: tile, features: [edge(0.0, 0.45, "Lê Lợi"), edge(0.45, 0.9, "Pasteur")], paint: paint, scale: 1))
        expectNotEqual(other.rgba, first.rgba)
    }

    @Test func testBadScaleIsATypedError() {
        expectThrowsError(try RasterTileRenderer().render(tile: tile, features: [horizontalRoad()], paint: roadPaint(), scale: 3)) { error in
            expectEqual(error as? RasterTileError, .unsupportedScale(3))
        }
        expectThrowsError(try RasterTileRenderer().render(tile: tile, features: [MapFeature](), paint: roadPaint(), scale: 0))
    }

    @Test func testSameBytesTwiceAndFromManyThreads() throws {
        let paint = RasterPaint(background: background, rules: roadPaint().rules + [
            RasterRule(sourceLayer: "roads", drawing: .label(RasterLabel(textKey: "name", size: 12, color: .black, halo: .white))),
        ])
        var named = horizontalRoad()
        named.properties.append(MapProperty("name", .string("Đường Lê Lợi")))
        let renderer = RasterTileRenderer()
        let reference = try renderer.render(tile: tile, features: [named], paint: paint, scale: 2)
        expectEqual(try renderer.render(tile: tile, features: [named], paint: paint, scale: 2), reference)
        let results = ResultBox(count: 16)
        let (tile, features) = (self.tile, [named])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            results.set(i, try? renderer.render(tile: tile, features: features, paint: paint, scale: 2))
        }
        for i in 0..<16 { expectEqual(results.get(i), reference, "thread result \(i)") }
    }

    @Test func testLabelTextOfTypedValues() {
        expectEqual(RasterTileRenderer.labelText(.string("  Quận 1 ")), "Quận 1")
        expectEqual(RasterTileRenderer.labelText(.int(22)), "22")
        expectEqual(RasterTileRenderer.labelText(.double(12.0)), "12")
        expectNil(RasterTileRenderer.labelText(.bool(true)))
    }
}

/// Results written by concurrent workers, one slot each.
private final class ResultBox: @unchecked Sendable {
    private var slots: [[UInt8]?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: [UInt8]?) { lock.lock(); slots[i] = value; lock.unlock() }
    func get(_ i: Int) -> [UInt8]? { lock.lock(); defer { lock.unlock() }; return slots[i] }
}
