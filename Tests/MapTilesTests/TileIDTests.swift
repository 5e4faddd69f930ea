import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class TileIDTests {
    @Test func testImpossibleCoordinatesAreRefused() {
        expectNil(TileID(z: -1, x: 0, y: 0))
        expectNil(TileID(z: 2, x: 4, y: 0))
        expectNil(TileID(z: 2, x: 0, y: -1))
        expectNil(TileID(z: 25, x: 0, y: 0))
        expectEqual(TileID(z: 3, x: 7, y: 7)?.tmsRow, 0)
    }

    @Test func testWorldProjectionRoundTripsAndTileHoldsItsPoint() throws {
        let p = WorldPoint(latitude: 10.7769, longitude: 106.7009)
        expectEqual(p.latitude, 10.7769, accuracy: 1e-9)
        expectEqual(p.longitude, 106.7009, accuracy: 1e-9)
        let t = try unwrap(TileID(z: 14, x: Int(p.x * 16384), y: Int(p.y * 16384)))
        expectEqual(t.description, "14/13048/7698")
        expectEqual(t.ancestor(atZoom: 12).description, "12/3262/1924")
    }
}
