import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class TilePixelProjectionTests {
    let tile = TileID(z: 10, x: 815, y: 481)!

    func world(_ px: Double, _ py: Double) -> WorldPoint {
        // Pixel (px, py) of the 256-px tile, as a world point.
        let b = tile.worldBounds
        return WorldPoint(x: b.minX + px / 256 * (b.maxX - b.minX), y: b.minY + py / 256 * (b.maxY - b.minY))
    }

    @Test func testProjectsToPixels() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 512, margin: 64)
        let p = projection.project(world(100, 200))
        expectEqual(p.x, 200, accuracy: 1e-6)
        expectEqual(p.y, 400, accuracy: 1e-6)
    }

    @Test func testALineLeavingAndComingBackIsCutIntoTwoRuns() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 256, margin: 16)
        // In the tile, out beyond the east margin (x 400), back in: two runs, each ending on the margin box.
        var runs: [[PixelPoint]] = []
        projection.appendRuns(of: [world(100, 50), world(400, 50), world(400, 150), world(100, 150)], to: &runs)
        expectEqual(runs.count, 2)
        expectEqual(runs[0].first?.x ?? 0, 100, accuracy: 1e-6)
        expectEqual(runs[0].last?.x ?? 0, 272, accuracy: 1e-6)
        expectEqual(runs[1].first?.x ?? 0, 272, accuracy: 1e-6)
        expectEqual(runs[1].last?.y ?? 0, 150, accuracy: 1e-6)
        // Wholly outside: nothing.
        runs = []
        projection.appendRuns(of: [world(-100, -100), world(-50, 300)], to: &runs)
        expectTrue(runs.isEmpty)
    }

    @Test func testARingIsCutToTheMarginBox() {
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: 256, margin: 10)
        let ring = projection.ring([world(-1000, -1000), world(1000, -1000), world(1000, 1000), world(-1000, 1000)])
        expectFalse(ring.isEmpty)
        for p in ring {
            expectTrue(p.x >= -10 - 1e-9 && p.x <= 266 + 1e-9 && p.y >= -10 - 1e-9 && p.y <= 266 + 1e-9, "\(p)")
        }
        expectTrue(projection.ring([world(300, 300), world(400, 300), world(400, 400)]).isEmpty)
    }
}
