import Scenarios
import SeededRandom
import XCTest

/// The engine's own PRNG: pinned outputs (so faults are the same on every machine) and sane
/// distributions.
final class SeededGeneratorTests: XCTestCase {
    func testOutputsArePinned() {
        // Reference values from an independent implementation of SplitMix64 → xoshiro256**.
        var zero = SeededGenerator(seed: 0)
        XCTAssertEqual([zero.next(), zero.next()], [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A])
        var fortyTwo = SeededGenerator(seed: 42)
        XCTAssertEqual((0..<4).map { _ in fortyTwo.next() },
                       [0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1, 0xECB8_AD47_03B3_60A1])
    }

    func testUniformAndNormalDistributions() {
        var random = SeededGenerator(seed: 7)
        let units = (0..<100_000).map { _ in random.nextUnit() }
        XCTAssertTrue(units.allSatisfy { $0 >= 0 && $0 < 1 })
        XCTAssertEqual(units.reduce(0, +) / Double(units.count), 0.5, accuracy: 0.01)
        let normals = (0..<100_000).map { _ in random.nextNormal() }
        let mean = normals.reduce(0, +) / Double(normals.count)
        let variance = normals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(normals.count)
        XCTAssertEqual(mean, 0, accuracy: 0.02)
        XCTAssertEqual(variance, 1, accuracy: 0.03)
        let sorted = normals.sorted()
        XCTAssertEqual(sorted[sorted.count * 99 / 100], 2.326, accuracy: 0.06, "the 99th percentile of N(0,1)")
    }
}
