import Foundation

/// Which files of a scenarios folder are scenarios (`*.json`, not `*.schema.json`, not
/// hidden, not in subfolders), and a cheap fingerprint of them for change polling.
public enum ScenarioFiles {
    /// The scenario files of `directory`, sorted by name.
    public static func list(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// Name, modification time and size of every scenario file: equal fingerprints mean
    /// nothing to reload.
    static func fingerprint(of directory: URL) -> [String] {
        let files = (try? list(in: directory)) ?? []
        return files.map { file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            return "\(file.lastPathComponent)|\(modified)|\(size)"
        }
    }
}
