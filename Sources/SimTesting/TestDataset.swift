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

    nonisolated(unsafe) private static var contracted: (RoadGraph, [(hierarchy: ContractionHierarchy, seconds: Double?)])?

    /// The graph with a contraction hierarchy per vehicle attached, and each hierarchy's build
    /// time in seconds (nil: read from the test cache).
    ///
    /// Contracting the whole city takes about a minute (2 threads), so the hierarchies are built
    /// once per machine and code: stored in ``TestDataset/cacheDirectory`` under a fingerprint of
    /// the PBF and of the `Routing` and `Dataset` sources (read beside this file), so any change
    /// to the contraction or the graph import builds them anew. Without the sources (a moved test
    /// binary) they are built every time. A stored hierarchy that does not match the graph
    /// (``RoadGraph/attaching(_:)`` checks counts and weights) is built anew too.
    public static func loadContracted() throws -> (RoadGraph, [(hierarchy: ContractionHierarchy, seconds: Double?)]) {
        if let contracted { return contracted }
        let graph = try load()
        let file = hierarchyCacheFile()
        var built: [(hierarchy: ContractionHierarchy, seconds: Double?)] = []
        if let file, let stored = readHierarchies(file), Set(stored.map(\.vehicle)).count == Vehicle.allCases.count,
           stored.allSatisfy({ graph.attaching([$0]).contractionHierarchy(for: $0.vehicle) != nil }) {
            built = stored.map { ($0, nil) }
        } else {
            built = RoadGraphImport.contract(graph).map { ($0.hierarchy, $0.seconds) }
            if let file { writeHierarchies(built.map(\.hierarchy), to: file) }
        }
        let result = (graph.attaching(built.map(\.hierarchy)), built)
        contracted = result
        return result
    }

    /// `<test cache>/wholecity-ch-<fingerprint>.bin`, or nil when the sources are not beside this file.
    static func hierarchyCacheFile() -> URL? {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var inputs = [DefaultData.hcmcPBF]
        for folder in ["Routing", "Dataset"] {
            let directory = sources.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return nil }
            inputs += names.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0) }
        }
        guard let fingerprint = try? DatasetFingerprint.compute(inputs: inputs) else { return nil }
        return TestDataset.cacheDirectory.appendingPathComponent("wholecity-ch-\(fingerprint).bin")
    }

    /// The file's hierarchies (each an 8-byte little-endian length and its serialized bytes), nil if absent or unreadable.
    static func readHierarchies(_ file: URL) -> [ContractionHierarchy]? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        let bytes = [UInt8](data)
        var result: [ContractionHierarchy] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 8
            guard length >= 0, length <= bytes.count - offset,
                  let ch = try? ContractionHierarchy(serialized: Array(bytes[offset..<offset + length])) else { return nil }
            result.append(ch)
            offset += length
        }
        return result
    }

    /// Writes the hierarchies (about 42 MB) to a temporary file renamed into place (best effort),
    /// removing those stored for other fingerprints more than a day ago (not sooner: worktrees of
    /// other code on the same machine share the folder).
    static func writeHierarchies(_ hierarchies: [ContractionHierarchy], to file: URL) {
        let directory = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dayAgo = Date().addingTimeInterval(-86_400)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix("wholecity-ch-") && name != file.lastPathComponent {
            let other = directory.appendingPathComponent(name)
            if let modified = try? FileManager.default.attributesOfItem(atPath: other.path)[.modificationDate] as? Date, modified < dayAgo {
                try? FileManager.default.removeItem(at: other)
            }
        }
        var out = Data()
        for h in hierarchies {
            let bytes = h.serialized()
            out.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: bytes.count >> (8 * $0)) })
            out.append(contentsOf: bytes)
        }
        let temporary = directory.appendingPathComponent(".wholecity-ch-\(UUID().uuidString).tmp")
        do {
            try out.write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
