import Dataset
import DefaultData
import Foundation
import Routing

/// The default dataset for tests: built once per machine (by the product's own cache logic)
/// into `$TMPDIR/vietmap-sim-test-cache`, then shared by every test target and run.
public enum TestDataset {
    public static var cacheDirectory: URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vietmap-sim-test-cache")
    }

    /// Path of the default dataset, building it on first use.
    public static func path() throws -> String {
        try DatasetCache.ensureDefault(inputs: DefaultData.inputFiles, cacheDirectory: cacheDirectory).path
    }
}

/// The whole-city road graph (`hcmc_2018.osm.pbf`, ~59k graph nodes), read once per process.
public enum WholeCityGraph {
    nonisolated(unsafe) private static var cached: RoadGraph?

    public static func load() throws -> RoadGraph {
        if let cached { return cached }
        let graph = try RoadGraphImport.graph(osmFiles: [DefaultData.hcmcPBF])
        cached = graph
        return graph
    }

    nonisolated(unsafe) private static var contracted: (RoadGraph, [(hierarchy: ContractionHierarchy, seconds: Double)])?

    /// The graph with a contraction hierarchy per vehicle attached (built once per process, 2 threads), and each
    /// hierarchy's build time in seconds.
    public static func loadContracted() throws -> (RoadGraph, [(hierarchy: ContractionHierarchy, seconds: Double)]) {
        if let contracted { return contracted }
        let graph = try load()
        let built = RoadGraphImport.contract(graph)
        let result = (graph.attaching(built.map(\.hierarchy)), built)
        contracted = result
        return result
    }
}
