import Dataset
import XCTest

/// An import contracts two vehicles at once only when the memory left holds two builds.
final class ContractionParallelismTests: XCTestCase {
    func testFewerBuildsAtOnceWhenMemoryIsShort() {
        let states = 3_800_000  // 64 copies of the city
        let one = states * 700
        let floor = 256 << 20
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 2), 2)
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 1), 1)
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 16), 2)
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: floor + 2 * one - 1, floorBytes: floor, cores: 2), 1)
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: floor + 2 * one, floorBytes: floor, cores: 2), 2)
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 0, floorBytes: floor, cores: 2), 1, "one at least")
        XCTAssertEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: nil, floorBytes: floor, cores: 2), 2, "unknown memory")
    }
}
