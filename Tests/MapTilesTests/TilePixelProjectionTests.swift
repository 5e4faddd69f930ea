import XCTest
@testable import MapTiles

final class TilePixelProjectionTests: XCTestCase {
    let tile = TileID(z: 10, x: 815, y: 481)!

    func world(_ px: Double, _ py: Double) -> WorldPoint {
        // Pixel (px, py) of the 256-px tile, as a world point.
        let b = tile.worldBounds
        return WorldPoint(x: b.minX + px / 256 * (b.maxX - b.minX), y: b.minY + py / 256 * (b.maxY - b.minY))
    }

    func testProjectsToPixels() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 512, margin: 64)
        let p = projection.project(world(100, 200))
        XCTAssertEqual(p.x, 200, accuracy: 1e-6)
        XCTAssertEqual(p.y, 400, accuracy: 1e-6)
    }

    func testALineLeavingAndComingBackIsCutIntoTwoRuns() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 256, margin: 16)
        // In the tile, out beyond the east margin (x 400), back in: two runs, each ending on the margin box.
        var runs: [[PixelPoint]] = []
        projection.appendRuns(of: [world(100, 50), world(400, 50), world(400, 150), world(100, 150)], to: &runs)
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(runs[0].first?.x ?? 0, 100, accuracy: 1e-6)
        XCTAssertEqual(runs[0].last?.x ?? 0, 272, accuracy: 1e-6)
        XCTAssertEqual(runs[1].first?.x ?? 0, 272, accuracy: 1e-6)
        XCTAssertEqual(runs[1].last?.y ?? 0, 150, accuracy: 1e-6)
        // Wholly outside: nothing.
        runs = []
        projection.appendRuns(of: [world(-100, -100), world(-50, 300)], to: &runs)
        XCTAssertTrue(runs.isEmpty)
    }

    func testARingIsCutToTheMarginBox() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 256, margin: 10)
        let ring = projection.ring([world(-1000, -1000), world(1000, -1000), world(1000, 1000), world(-1000, 1000)])
        XCTAssertFalse(ring.isEmpty)
        for p in ring {
            XCTAssertTrue(p.x >= -10 - 1e-9 && p.x <= 266 + 1e-9 && p.y >= -10 - 1e-9 && p.y <= 266 + 1e-9, "\(p)")
        }
        XCTAssertTrue(projection.ring([world(300, 300), world(400, 300), world(400, 400)]).isEmpty)
    }
}
