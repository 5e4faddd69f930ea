import Foundation
import TestExpectations
import Testing
@testable import MapTiles

@Suite final class TileCoverTests {
    /// The simulator's HCMC box and the counts of map-screens.md §6.2.
    @Test func testHCMCBoxCountsMatchTheReferenceTable() throws {
        let covers = try TileCover.covers(west: 106.35, south: 10.35, east: 107.05, north: 11.17, zooms: 0...16)
        let expected = [1, 1, 1, 1, 1, 1, 2, 2, 2, 4, 9, 20, 80, 320, 1_248, 4_928, 19_584]
        expectEqual(covers.map(\.z), Array(0...16))
        expectEqual(covers.map(\.count), expected)
        expectEqual(covers[0...12].reduce(0) { $0 + $1.count }, 125)
        expectEqual(covers[0...14].reduce(0) { $0 + $1.count }, 1_693)
        expectEqual(covers.reduce(0) { $0 + $1.count }, 26_205)
        // The z14 cover holds Bến Thành's tile (see TileIDTests).
        expectTrue(covers[14].contains(TileID(z: 14, x: 13048, y: 7698)!))
        expectFalse(covers[14].contains(TileID(z: 13, x: 6524, y: 3849)!))
    }

    @Test func testHoanKiemExtractCounts() throws {
        let counts = try TileCover.covers(west: 105.8411, south: 21.0166, east: 105.8632, north: 21.0407, zooms: 14...16).map(\.count)
        expectEqual(counts, [4, 9, 30])
    }

    @Test func testWalkingACoverYieldsEachTileOnceRowByRow() throws {
        let cover = try TileCover(z: 12, west: 106.35, south: 10.35, east: 107.05, north: 11.17)
        let tiles = Array(cover)
        expectEqual(tiles.count, cover.count)
        expectEqual(Set(tiles).count, tiles.count)
        expectTrue(tiles.allSatisfy { cover.contains($0) })
        expectEqual(tiles.first, TileID(z: 12, x: cover.columns.lowerBound, y: cover.rows.lowerBound))
        expectEqual(tiles[1].y, tiles[0].y)
        expectEqual(tiles.last, TileID(z: 12, x: cover.columns.upperBound, y: cover.rows.upperBound))
    }

    @Test func testBoxEdgesOnTileEdgesAndDegenerateBoxes() throws {
        // The eastern half of the world at z1 is column 1 only; its western edge 0.5 is not in column 0.
        let east = try TileCover(z: 1, covering: WorldBounds(minX: 0.5, minY: 0, maxX: 1, maxY: 0.5))
        expectEqual(east.columns, 1...1)
        expectEqual(east.rows, 0...0)
        // A point covers the one tile it lies in.
        let point = try TileCover(z: 14, west: 106.7009, south: 10.7769, east: 106.7009, north: 10.7769)
        expectEqual(Array(point), [TileID(z: 14, x: 13048, y: 7698)!])
        // The whole world at z3.
        expectEqual(try TileCover(z: 3, west: -180, south: -90, east: 180, north: 90).count, 64)
    }

    @Test func testBadInputIsATypedError() {
        expectThrowsError(try TileCover(z: 10, west: 107, south: 10, east: 106, north: 11)) {
            guard case .invertedBox = $0 as? TileCoverError else { return fail("\($0)") }
        }
        expectThrowsError(try TileCover(z: 10, west: 106, south: 11, east: 107, north: 10)) {
            guard case .invertedBox = $0 as? TileCoverError else { return fail("\($0)") }
        }
        expectThrowsError(try TileCover(z: 10, west: 106, south: 10, east: 181, north: 11)) {
            guard case .invalidCoordinate = $0 as? TileCoverError else { return fail("\($0)") }
        }
        expectThrowsError(try TileCover(z: 10, west: .nan, south: 10, east: 107, north: 11)) {
            guard case .invalidCoordinate = $0 as? TileCoverError else { return fail("\($0)") }
        }
        expectThrowsError(try TileCover.covers(west: 106, south: 10, east: 107, north: 11, zooms: 0...25)) {
            expectEqual($0 as? TileCoverError, .invalidZoom(25))
        }
        expectThrowsError(try TileCover(z: -1, west: 106, south: 10, east: 107, north: 11)) {
            expectEqual($0 as? TileCoverError, .invalidZoom(-1))
        }
    }

    @Test func testDeepCoverIsCountedWithoutBeingBuilt() throws {
        // z24 over the HCMC box: over a billion tiles (z16 × 4^8 ≈ 1.28 × 10^9), counted in O(1).
        let deep = try TileCover(z: 24, west: 106.35, south: 10.35, east: 107.05, north: 11.17)
        expectGreaterThan(deep.count, 1_000_000_000)
        expectEqual(deep.count, deep.columns.count * deep.rows.count)
    }
}
