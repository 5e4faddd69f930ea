import Foundation

/// Which files of a scenarios folder are scenarios (`*.json`, not `*.schema.json`, not
/// hidden, not in subfolders); `ScenarioFolderSnapshot` tells when they change.
public enum ScenarioFiles {
    /// The scenario files of `directory`, sorted by name.
    public static func list(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }
}
