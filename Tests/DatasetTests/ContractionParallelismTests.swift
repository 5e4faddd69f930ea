import Dataset
import Foundation
import TestExpectations
import Testing

/// An import contracts two vehicles at once only when the memory left holds two builds.
@Suite final class ContractionParallelismTests {
    @Test func testFewerBuildsAtOnceWhenMemoryIsShort() {
        let states = 3_800_000  // 64 copies of the city
        let one = states * 700
        let floor = 256 << 20
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 2), 2)
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 1), 1)
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 24 << 30, floorBytes: floor, cores: 16), 2)
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: floor + 2 * one - 1, floorBytes: floor, cores: 2), 1)
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: floor + 2 * one, floorBytes: floor, cores: 2), 2)
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: 0, floorBytes: floor, cores: 2), 1, "one at least")
        expectEqual(RoadGraphImport.parallelism(stateCount: states, availableBytes: nil, floorBytes: floor, cores: 2), 2, "unknown memory")
    }
}
