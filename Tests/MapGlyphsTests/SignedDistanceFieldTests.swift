@testable import MapGlyphs
import Foundation
import TestExpectations
import Testing

@Suite final class SignedDistanceFieldTests {
    /// A fully covered 10×10 square: exact Euclidean distances between pixel centres, so the
    /// bytes are `round(255 − 255·(d/8 + 0.25))` of known `d`.
    @Test func testASolidSquareHasExactDistances() {
        let field = SignedDistanceField.encode(coverage: [UInt8](repeating: 255, count: 100), width: 10, height: 10)
        expectEqual(field.count, 16 * 16)
        func at(_ x: Int, _ y: Int) -> UInt8 { field[y * 16 + x] }
        func expected(_ d: Double) -> UInt8 { UInt8(min(255, max(0, (255 - 255 * (d / 8 + 0.25)).rounded()))) }
        expectEqual(at(2, 8), expected(1), "one pixel left of the square")            // 159
        expectEqual(at(3, 8), expected(-1), "the square's left column")               // 223
        expectEqual(at(0, 8), expected(3), "the border's outer column")
        expectEqual(at(0, 0), expected(18.0.squareRoot()), "the corner, √18 px from the square's corner")
        expectEqual(at(7, 7), expected(-5), "the middle, 5 px from the outside")
        expectEqual(at(15, 15), at(0, 0), "symmetric")
        expectEqual(at(8, 2), at(2, 8), "symmetric")
    }

    @Test func testPartialCoverageMovesTheEdgeWithinThePixel() {
        // One column of half-covered pixels: the edge sits at their centre, so they read ≈ 191.
        let field = SignedDistanceField.encode(coverage: [UInt8](repeating: 128, count: 5), width: 1, height: 5)
        expectEqual(field.count, 7 * 11)
        expectTrue((188...194).contains(field[5 * 7 + 3]), "\(field[5 * 7 + 3])")
        expectLessThan(field[5 * 7 + 0], 130)
    }

    @Test func testAnEmptyBitmapIsOnlyBorderAndDark() {
        let field = SignedDistanceField.encode(coverage: [UInt8](repeating: 0, count: 4), width: 2, height: 2)
        expectEqual(field.count, 64)
        expectTrue(field.allSatisfy { $0 == 0 })
    }
}
