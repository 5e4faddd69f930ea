import EmbeddedFiles
import Foundation

/// The input files embedded in the package (`Resources/data`, a copy of the project's seed
/// data: OSM extracts of Ho Chi Minh City and Hanoi's Hoàn Kiếm, and Vietnam's administrative
/// units of both schemes with the old↔new mapping). Licences and sources: `data/SOURCES.md`.
/// They are embedded in the code (the `EmbedResources` plugin) and unpacked once into the cache
/// (`EmbeddedFolder`), so a binary copied anywhere has them.
///
/// For example:
/// ```swift
/// let url = try DatasetCache.ensureDefault(inputs: DefaultData.inputFiles)
/// ```
public enum DefaultData {
    /// The embedded `data` directory.
    public static var directory: URL { unpacked.appendingPathComponent("data", isDirectory: true) }

    /// This target's `Resources/`, unpacked on first use.
    private static let unpacked = EmbeddedFolder.materialize(name: "DefaultData", fingerprint: EmbeddedArchive.fingerprint,
                                                            inflatedSize: EmbeddedArchive.inflatedSize,
                                                            deflatedBase64: EmbeddedArchive.deflatedBase64)

    /// File extensions of the default dataset's inputs.
    static let inputExtensions: Set<String> = ["csv", "json", "osm"]

    /// The default dataset's inputs (CSV, JSON, OSM XML), sorted by path inside `data`: places of
    /// HCMC and Hoàn Kiếm, every admin unit, and the road graphs of HCMC Q1/Q3 and Hoàn Kiếm.
    public static var inputFiles: [URL] {
        files { inputExtensions.contains($0.pathExtension.lowercased()) }
    }

    /// The content hashes of the embedded files computed at build time (path → size and `FNV1a64`
    /// hex), for those still as unpacked (``EmbeddedFolder/unchangedDigests(in:_:)``): the default
    /// dataset's fingerprint without hashing 21 MB at every start
    /// (`DatasetCache.ensureDefault(inputs:knownContents:…)`).
    public static var inputDigests: [String: (size: Int, hash: String)] {
        EmbeddedFolder.unchangedDigests(in: unpacked, EmbeddedArchive.fileDigests)
    }

    /// The administrative-unit inputs alone (both schemes, both mappings, the 2025 centroids):
    /// what an import of a city's own OSM extract needs to give its places an address.
    public static var adminFiles: [URL] {
        inputFiles.filter { $0.deletingLastPathComponent().lastPathComponent == "admin" }
    }

    /// The whole of Ho Chi Minh City (2018) as OSM PBF: not part of the default dataset (its road
    /// graph would double start time and memory); for `vietmap-sim import` and the benchmarks.
    public static var hcmcPBF: URL { directory.appendingPathComponent("osm/hcmc_2018.osm.pbf") }

    /// Licence and source notices that must accompany data built from the inputs.
    public static var noticeFiles: [URL] {
        files { $0.lastPathComponent.hasPrefix("LICENSE") || $0.lastPathComponent == "SOURCES.md" }
    }

    /// The embedded files of `data` (the list the plugin wrote at build time: the unpacked folder
    /// holds exactly those, without walking it and reading each file's attributes at every start).
    private static func files(matching predicate: (URL) -> Bool) -> [URL] {
        let root = unpacked.standardizedFileURL
        let result = EmbeddedArchive.fileDigests.keys
            .filter { $0.hasPrefix("data/") }
            .map { root.appendingPathComponent($0) }
            .filter(predicate)
        return result.sorted { $0.path < $1.path }
    }
}
