import ArrayBlob
import Dataset
import DefaultData
import Foundation
import Routing
import TestExpectations
import Testing

/// A dataset's road graph and hierarchies are read in place from its mapped sections (nothing derived or copied at
/// load) and route exactly like the graph built in memory from the same OSM files.
@Suite final class RoadGraphSectionTests {
    @Test func testMappedSectionRoutesLikeTheGraphBuiltInMemory() throws {
        let built = try SharedDataset.get()
        let path = built.url.path
        let loaded = try unwrap(try RoadGraphStore.load(databasePath: path))
        expectTrue(loaded.isMapped, "the road graph's arrays are the file's pages")
        for v in Vehicle.allCases {
            let ch = try unwrap(loaded.contractionHierarchy(for: v), "\(v)")
            expectTrue(ch.isMapped, "\(v)'s hierarchy is read in place")
            expectNoThrow(try ch.validate())
        }
        // The stored search index is the one the storage derives (the full check the load skips).
        expectNoThrow(try loaded.validate())

        let region = try unwrap(try FileSections.map(path: path, name: RoadGraph.sectionName))
        expectTrue(region.isMapped)
        let plain = try RoadGraph(region: region)
        // The dataset's roads: its OSM inputs (Q1/Q3 and Hoàn Kiếm).
        let memory = try RoadGraphImport.graph(osmFiles: DefaultData.inputFiles.filter { $0.pathExtension.lowercased() == "osm" })
        expectEqual(plain.storage, memory.storage)
        expectEqual(plain.serialized(), memory.serialized(), "the stored index is byte for byte the derived one")

        let points = [GeoPoint(10.7725, 106.6980), GeoPoint(10.7869, 106.7050), GeoPoint(10.7626, 106.6602),
                      GeoPoint(10.8015, 106.7143)]
        for v in Vehicle.allCases {
            for (a, b) in zip(points, points.dropFirst()) {
                let x = try Router.route(memory, points: [a, b], vehicle: v)
                let y = try Router.route(plain, points: [a, b], vehicle: v)
                expectEqual(x, y, "\(v): the same route, geometry, instructions and settled count")
                // Through the hierarchy: the same cost (paths may differ on exact ties).
                let z = try Router.route(loaded, points: [a, b], vehicle: v)
                expectEqual(x.weight, z.weight, accuracy: 1e-9 * x.weight, "\(v)")
            }
        }
    }

    /// A heap copy is fully checked; a damaged index is rejected there.
    @Test func testHeapCopyIsValidated() throws {
        let region = try unwrap(try FileSections.map(path: try SharedDataset.get().url.path, name: RoadGraph.sectionName))
        var bytes = Array(region.bytes)
        expectNoThrow(try RoadGraph(serialized: bytes))
        // The blob ends with the snappable flags (one byte per edge, zero-padded to 8), then two arrays of one
        // Int64 per vehicle (unsnappable edges, largest components): flip the first edge's flags.
        let graph = try RoadGraph(serialized: bytes)
        let e = graph.edgeCount
        let flagsStart = bytes.count - 2 * (8 + 8 * Vehicle.allCases.count) - (8 - e % 8) % 8 - e
        bytes[flagsStart] ^= 0x01
        expectThrowsError(try RoadGraph(serialized: bytes))
        expectEqual(graph.edgeCount, try RoadGraph(region: ByteRegion(copying: bytes)).edgeCount,
                       "the in-place read checks counts only")
    }
}
