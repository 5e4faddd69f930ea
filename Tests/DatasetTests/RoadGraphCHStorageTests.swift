import ArrayBlob
import Dataset
import Foundation
import Routing
import SQLiteStore
import TestExpectations
import Testing

/// The import stores one contraction hierarchy per vehicle (section `road_graph_ch.<vehicle>`); `RoadGraphStore`
/// attaches them; a dataset without them still loads and routes with the A*.
@Suite final class RoadGraphCHStorageTests {
    @Test func testImportStoresHierarchiesAndOlderFilesStillRoute() throws {
        let built = try SharedDataset.get()
        expectEqual(built.report.notes.filter { $0.hasPrefix("contraction hierarchy ") }.count, Vehicle.allCases.count,
                       "\(built.report.notes)")
        let graph = try unwrap(try RoadGraphStore.load(databasePath: built.url.path))
        for v in Vehicle.allCases { expectNotNil(graph.contractionHierarchy(for: v), "\(v)") }

        let directory = try SharedDataset.scratch("no-ch")
        let old = directory.appendingPathComponent("old.sqlite")
        try FileManager.default.copyItem(at: built.url, to: old)
        // The same file with only its graph and search index sections.
        let sections = try FileSections.directory(path: built.url.path)
        let whole = try Data(contentsOf: built.url)
        let firstSection = try unwrap(sections.values.map(\.lowerBound).min())
        try whole.prefix(firstSection).write(to: old)
        try FileSections.append(to: old.path, [RoadGraph.sectionName, "search_index"].map { ($0, Array(whole[sections[$0]!])) })
        let plain = try unwrap(try RoadGraphStore.load(databasePath: old.path))
        for v in Vehicle.allCases { expectNil(plain.contractionHierarchy(for: v)) }

        // Same routes either way (Q1/Q3 points).
        let a = GeoPoint(10.7725, 106.6980), b = GeoPoint(10.7869, 106.7050)
        for v in Vehicle.allCases {
            let x = try Router.route(plain, points: [a, b], vehicle: v)
            let y = try Router.route(graph, points: [a, b], vehicle: v)
            expectEqual(x.weight, y.weight, accuracy: 1e-9 * x.weight)
            expectEqual(x.distance, y.distance, "\(v)")
            expectEqual(x.instructions.map(\.text), y.instructions.map(\.text))
            expectLessThan(y.settledNodes, x.settledNodes, "\(v): the hierarchy settles fewer states")
        }
    }
}
