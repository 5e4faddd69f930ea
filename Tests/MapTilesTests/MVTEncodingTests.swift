import Foundation
import TestExpectations
import Testing
@testable import MapTiles

/// The MVT bytes: layer header, key/value tables with types, ids, geometry commands, ring orientation.
@Suite final class MVTEncodingTests {
    let tile = TileID(z: 14, x: 13048, y: 7698)!

    private func build(_ features: [MapFeature], maxZoom: Int = 14, at id: TileID? = nil) throws -> (VectorTile, VectorTileReader) {
        let builder = VectorTileBuilder(index: MapFeatureIndex(features: features), maxZoom: maxZoom)
        let vt = builder.tile(id ?? tile)
        return (vt, try VectorTileReader(vt.data))
    }

    @Test func testPropertiesRoundTripWithTheirTypesAndTablesAreDeduplicated() throws {
        let p = TileUnits.world(tile, 100, 200)
        let a = MapFeature(id: 7, layer: "roads", minZoom: 0, geometry: .points([p]), properties: [
            MapProperty("name", .string("Đường Lê Lợi")), MapProperty("class", .int(3)),
            MapProperty("offset", .int(-42)), MapProperty("min", .int(.min)), MapProperty("max", .int(.max)),
            MapProperty("width", .double(7.5)), MapProperty("oneway", .bool(true)),
        ])
        let b = MapFeature(id: nil, layer: "roads", minZoom: 0, geometry: .points([p]), properties: [
            MapProperty("class", .int(3)), MapProperty("width", .double(3)), MapProperty("real", .double(3)),
            MapProperty("oneway", .bool(false)), MapProperty("name", .string("3")),
        ])
        let (vt, decoded) = try build([a, b])
        expectEqual(vt.layers, [VectorTile.Layer(name: "roads", featureCount: 2)])
        let layer = try unwrap(decoded[layer: "roads"])
        expectEqual(layer.version, 2)
        expectEqual(layer.extent, 4096)
        expectEqual(layer.features[0].id, 7)
        expectNil(layer.features[1].id)
        expectEqual(layer.features[0].properties, Dictionary(uniqueKeysWithValues: a.properties.map { ($0.key, $0.value) }))
        expectEqual(layer.features[1].properties, Dictionary(uniqueKeysWithValues: b.properties.map { ($0.key, $0.value) }))
        // Keys: name class offset min max width oneway real; values: one entry per distinct typed value
        // (3 as int, 3.0 as double and "3" as string are three; 3.0 twice is one).
        expectEqual(layer.keys, ["name", "class", "offset", "min", "max", "width", "oneway", "real"])
        expectEqual(layer.values.count, 10)
        expectEqual(Set(layer.values).count, 10)
    }

    @Test func testGeometryCommandsDecodeToTheTileCoordinates() throws {
        let line = MapFeature(layer: "l", minZoom: 0, geometry: .lines([TileUnits.line(tile, [(100, 100), (200, 100), (200, 300)])]), properties: [])
        let points = MapFeature(layer: "p", minZoom: 0, geometry: .points([TileUnits.world(tile, 5, 6), TileUnits.world(tile, 4000, 4095)]), properties: [])
        let (_, decoded) = try build([line, points])
        let l = try unwrap(decoded[layer: "l"]?.features.first)
        expectEqual(l.type, .lineString)
        // MoveTo(1) (100,100), LineTo(2) (+100,0) (0,+200), zigzag encoded.
        expectEqual(l.commands, [9, 200, 200, 18, 200, 0, 0, 400])
        expectEqual(l.parts, [TileUnits.points([(100, 100), (200, 100), (200, 300)])])
        let p = try unwrap(decoded[layer: "p"]?.features.first)
        expectEqual(p.type, .point)
        expectEqual(p.commands.first, 1 | 2 << 3)
        expectEqual(p.parts, [TileUnits.points([(5, 6), (4000, 4095)])])
        expectEqual(decoded.layers.map(\.name), ["l", "p"])
    }

    @Test func testPointsRepeatedAfterQuantizationAreDroppedAndDegenerateLinesVanish() throws {
        let line = MapFeature(layer: "l", minZoom: 0, geometry: .lines([
            TileUnits.line(tile, [(100, 100), (100.2, 100.3), (99.8, 99.9), (300, 100), (300.4, 100)]),
            TileUnits.line(tile, [(50, 50), (50.3, 50.2)]),   // one point once quantized
        ]), properties: [])
        let (vt, decoded) = try build([line])
        let f = try unwrap(decoded[layer: "l"]?.features.first)
        expectEqual(f.parts, [TileUnits.points([(100, 100), (300, 100)])])
        let tiny = MapFeature(layer: "l", minZoom: 0, geometry: .lines([TileUnits.line(tile, [(50, 50), (50.3, 50.2)])]), properties: [])
        let (empty, _) = try build([tiny])
        expectTrue(empty.isEmpty)
        expectTrue(empty.data.isEmpty)
        expectFalse(vt.isEmpty)
    }

    @Test func testRingsAreOrientedExteriorClockwiseOnScreenAndHolesCounterclockwise() throws {
        // Exterior given counterclockwise on screen (negative area, y down), hole clockwise: both wrong.
        let exterior = TileUnits.line(tile, [(100, 100), (100, 1000), (1000, 1000), (1000, 100)])
        let hole = TileUnits.line(tile, [(300, 300), (600, 300), (600, 600), (300, 600)])
        let wrong = MapFeature(layer: "a", minZoom: 0, geometry: .polygons([[exterior, hole]]), properties: [])
        let right = MapFeature(layer: "a", minZoom: 0, geometry: .polygons([[exterior.reversed(), hole.reversed()]]), properties: [])
        let (_, decoded) = try build([wrong, right])
        let features = try unwrap(decoded[layer: "a"]?.features)
        expectEqual(features.count, 2)
        for f in features {
            expectEqual(f.type, .polygon)
            expectEqual(f.parts.count, 2)
            expectEqual(VectorTileReader.doubledArea(f.parts[0]), 2 * 900 * 900)
            expectEqual(VectorTileReader.doubledArea(f.parts[1]), -2 * 300 * 300)
            expectEqual(f.parts[0].count, 4, "first point not repeated")
            expectEqual(f.commands.filter { $0 == 15 }.count, 2, "one ClosePath per ring")
        }
    }

    @Test func testRingsThatCollapseAreDroppedWithTheirHoles() throws {
        // A 0.4-unit square is one point once quantized; a sliver is a line.
        let speck = MapFeature(layer: "a", minZoom: 0, geometry: .polygons([[TileUnits.line(tile, [(10, 10), (10.4, 10), (10.4, 10.4), (10, 10.4)])]]), properties: [])
        let sliver = MapFeature(layer: "a", minZoom: 0, geometry: .polygons([[TileUnits.line(tile, [(10, 10), (500, 10), (900, 10.2)])]]), properties: [])
        let (vt, _) = try build([speck, sliver])
        expectTrue(vt.isEmpty)
    }

    @Test func testMultipolygonKeepsEachExteriorWithItsOwnHoles() throws {
        // First polygon far outside the tile (exterior and hole dropped), second inside with a hole.
        let outside = TileUnits.line(tile, [(9000, 9000), (9900, 9000), (9900, 9900), (9000, 9900)])
        let outsideHole = TileUnits.line(tile, [(9100, 9100), (9100, 9200), (9200, 9200), (9200, 9100)])
        let inside = TileUnits.line(tile, [(0, 0), (2000, 0), (2000, 2000), (0, 2000)])
        let insideHole = TileUnits.line(tile, [(500, 500), (500, 600), (600, 600), (600, 500)])
        let lone = TileUnits.line(tile, [(3000, 3000), (3500, 3000), (3500, 3500)])
        let f = MapFeature(layer: "a", minZoom: 0, geometry: .polygons([[outside, outsideHole], [inside, insideHole], [lone]]), properties: [])
        let (_, decoded) = try build([f])
        let rings = try unwrap(decoded[layer: "a"]?.features.first?.parts)
        expectEqual(rings.map(VectorTileReader.doubledArea), [2 * 2000 * 2000, -2 * 100 * 100, 500 * 500])
        expectEqual(rings[0].first, VectorTileReader.Point(x: 0, y: 0))
    }
}
