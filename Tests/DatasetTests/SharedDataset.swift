import Dataset
import DefaultData
import Foundation
import SQLiteStore
import SimTesting
import TestExpectations
import Testing

/// The default dataset, built once per test run into a temporary directory and shared by
/// every test that only reads it.
enum SharedDataset {
    struct Built: Sendable {
        let url: URL
        let report: DatasetBuildReport
    }

    /// Per-run directory for every file the tests write; removed when the test process exits.
    static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vietmap-sim-dataset-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        RemovalAtExit.add(directory)
        return directory
    }()

    /// A fresh empty directory inside ``directory``.
    static func scratch(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let built: Result<Built, any Error> = {
        do {
            let url = try scratch("shared").appendingPathComponent("default.sqlite")
            let report = try DatasetBuilder().build(inputs: DefaultData.inputFiles, output: url)
            print(report)
            return .success(Built(url: url, report: report))
        } catch {
            return .failure(error)
        }
    }()

    static func get() throws -> Built { try built.get() }

    /// The smallest complete input set: the 2025 units and their centroids (34 provinces and
    /// 3321 wards, builds in about a second), for tests of the cache that need no road graph.
    static var unitInputs: [URL] {
        DefaultData.inputFiles.filter { ["units_2025.json", "units_2025_centroids_bbox.csv"].contains($0.lastPathComponent) }
    }

    /// A small input set for tests of the cache's behaviour (builds, reuse, fingerprints,
    /// rebuilds) rather than of the default dataset's content: Hanoi's Hoàn Kiếm (OSM extract and
    /// place CSVs) and every admin unit file, so a build takes a fraction of the default one's time.
    static var smallInputs: [URL] {
        let small = DefaultData.inputFiles.filter { $0.lastPathComponent.hasPrefix("hanoi_hoankiem_") }
        precondition(!small.isEmpty, "the embedded data has no Hoàn Kiếm files")
        return DefaultData.adminFiles + small
    }

    static func open() throws -> Database { try Database(path: get().url.path, mode: .readOnly) }
}

extension Database {
    /// Every row of a query (`columns` result columns) as text.
    func rows(_ sql: String, columns: Int, _ values: SQLiteValue...) throws -> [[String]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var result: [[String]] = []
        while try statement.step() { result.append((0..<columns).map { statement.text(Int32($0)) }) }
        return result
    }

    func scalarInt(_ sql: String, _ values: SQLiteValue...) throws -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }
}
