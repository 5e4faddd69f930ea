import Foundation
import TestExpectations
import Testing
@testable import MapTiles

/// Clipping to the tile plus its buffer, simplification, and overzoomed tiles, read back from the bytes.
@Suite final class TileClippingTests {
    let tile = TileID(z: 14, x: 13048, y: 7698)!

    private func parts(_ geometry: MapGeometry, at id: TileID? = nil, maxZoom: Int = 14, buffer: Int = 64) throws -> [[VectorTileReader.Point]] {
        let index = MapFeatureIndex(features: [MapFeature(layer: "x", minZoom: 0, geometry: geometry, properties: [])])
        let vt = VectorTileBuilder(index: index, buffer: buffer, maxZoom: maxZoom).tile(id ?? tile)
        return try VectorTileReader(vt.data)[layer: "x"]?.features.first?.parts ?? []
    }

    @Test func testALineCrossingTheTileIsCutAtTheBufferEdge() throws {
        let got = try parts(.lines([TileUnits.line(tile, [(-1000, 2000), (5000, 2000)])]))
        expectEqual(got, [TileUnits.points([(-64, 2000), (4160, 2000)])])
        let noBuffer = try parts(.lines([TileUnits.line(tile, [(-1000, 2000), (5000, 2000)])]), buffer: 0)
        expectEqual(noBuffer, [TileUnits.points([(0, 2000), (4096, 2000)])])
    }

    @Test func testALineThatLeavesAndComesBackBecomesTwoParts() throws {
        let got = try parts(.lines([TileUnits.line(tile, [(1000, 1000), (1000, -1000), (2000, -1000), (2000, 1000)])]))
        expectEqual(got, [TileUnits.points([(1000, 1000), (1000, -64)]), TileUnits.points([(2000, -64), (2000, 1000)])])
    }

    @Test func testAPolygonIsClippedToTheBufferedTile() throws {
        let square = TileUnits.line(tile, [(-1000, -1000), (1000, -1000), (1000, 1000), (-1000, 1000)])
        let got = try parts(.polygons([[square]]))
        expectEqual(got.count, 1)
        expectEqual(Set(got[0]), Set(TileUnits.points([(-64, -64), (1000, -64), (1000, 1000), (-64, 1000)])))
        expectEqual(VectorTileReader.doubledArea(got[0]), 2 * 1064 * 1064)
        // A polygon covering the whole tile becomes the buffered square.
        let big = TileUnits.line(tile, [(-9000, -9000), (9000, -9000), (9000, 9000), (-9000, 9000)])
        let cover = try parts(.polygons([[big]]))
        expectEqual(Set(cover[0]), Set(TileUnits.points([(-64, -64), (4160, -64), (4160, 4160), (-64, 4160)])))
    }

    @Test func testPointsOutsideTheBufferAreDropped() throws {
        let got = try parts(.points([TileUnits.world(tile, -63, 10), TileUnits.world(tile, -65, 10), TileUnits.world(tile, 2000, 4200)]))
        expectEqual(got, [TileUnits.points([(-63, 10)])])
    }

    @Test func testSimplificationBelowMaxZoomKeepsEndpointsAndDropsSmallWiggles() throws {
        let wiggly = TileUnits.line(tile, [(0, 100), (500, 100.4), (1000, 99.6), (1500, 100), (2000, 900)])
        expectEqual(try parts(.lines([wiggly]), maxZoom: 15), [TileUnits.points([(0, 100), (1500, 100), (2000, 900)])])
        // At maxZoom nothing is simplified: quantization alone keeps collinear points.
        expectEqual(try parts(.lines([wiggly]), maxZoom: 14),
                       [TileUnits.points([(0, 100), (500, 100), (1000, 100), (1500, 100), (2000, 900)])])
    }

    @Test func testOverzoomedTilesAreCutFromTheFullGeometry() throws {
        // A line through the whole z14 tile, requested at z18 where its middle 1/16 lies in one tile.
        let deep = TileID(z: 18, x: 13048 * 16 + 8, y: 7698 * 16 + 8)!
        let line = TileUnits.line(tile, [(0, 2048 + 64), (4096, 2048 + 64)])  // y = 2112/4096 of the z14 tile
        let got = try parts(.lines([line]), at: deep, maxZoom: 14)
        // At z18 the z14 y 2112 is (2112 − 8·256)·16 = 1024; x spans the whole buffered tile.
        expectEqual(got, [TileUnits.points([(-64, 1024), (4160, 1024)])])
        let deepest = TileID(z: 24, x: (13048 << 10) + 3, y: (7698 << 10) + 5)!
        let p = TileUnits.world(deepest, 1234, 3210)
        expectEqual(try parts(.points([p]), at: deepest, maxZoom: 14), [TileUnits.points([(1234, 3210)])])
    }
}
