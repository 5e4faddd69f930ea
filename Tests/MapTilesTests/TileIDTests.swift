import XCTest
@testable import MapTiles

final class TileIDTests: XCTestCase {
    func testImpossibleCoordinatesAreRefused() {
        XCTAssertNil(TileID(z: -1, x: 0, y: 0))
        XCTAssertNil(TileID(z: 2, x: 4, y: 0))
        XCTAssertNil(TileID(z: 2, x: 0, y: -1))
        XCTAssertNil(TileID(z: 25, x: 0, y: 0))
        XCTAssertEqual(TileID(z: 3, x: 7, y: 7)?.tmsRow, 0)
    }

    func testWorldProjectionRoundTripsAndTileHoldsItsPoint() throws {
        let p = WorldPoint(latitude: 10.7769, longitude: 106.7009)
        XCTAssertEqual(p.latitude, 10.7769, accuracy: 1e-9)
        XCTAssertEqual(p.longitude, 106.7009, accuracy: 1e-9)
        let t = try XCTUnwrap(TileID(z: 14, x: Int(p.x * 16384), y: Int(p.y * 16384)))
        XCTAssertEqual(t.description, "14/13048/7698")
        XCTAssertEqual(t.ancestor(atZoom: 12).description, "12/3262/1924")
    }
}
