import Dataset
import DefaultData
import Foundation

/// `vietmap-sim import --out PATH [INPUT…]`. `--out` is checked before any work; temporary
/// files that killed imports left in its folder are removed first (one notice line), and
/// SIGINT/SIGTERM during the import remove this run's temporary file before exiting.
enum ImportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valued: ["out"], boolean: ["help"])
        if options.has("help") { print(Usage.importCommand); return 0 }
        guard let out = options.value("out"), !out.isEmpty else {
            throw CommandLineArguments.UsageError(description: "import needs --out PATH")
        }
        try OutputPath.check(out)
        let stale = DatasetTemporaryFiles.removeStale(in: URL(fileURLWithPath: out).deletingLastPathComponent())
        if !stale.isEmpty {
            let bytes = stale.reduce(0) { $0 + $1.bytes }
            let names = stale.prefix(3).map(\.name).joined(separator: ", ") + (stale.count > 3 ? ", …" : "")
            FileHandle.standardError.write(Data("vietmap-sim: removed \(stale.count) stale temporary file\(stale.count == 1 ? "" : "s") of interrupted imports (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB; their processes are gone): \(names)\n".utf8))
        }
        ImportInterruption.install()
        var inputs = options.positionals.isEmpty
            ? DefaultData.inputFiles
            : options.positionals.map { URL(fileURLWithPath: $0) }
        if !options.positionals.isEmpty && !inputs.contains(where: holdsAdminUnits) {
            // Without units no place gets an address, and search answers nothing: an OSM extract
            // alone is imported with the embedded units of Vietnam.
            inputs += DefaultData.adminFiles
            print("note: no administrative-unit files among the inputs: using the embedded ones (2025 and pre-2025 units, mappings, centroids)")
        }
        let started = Date()
        let report = try DatasetBuilder().build(inputs: inputs, output: URL(fileURLWithPath: out))
        print(report)
        print(String(format: "wrote %@ in %.2f s", out, Date().timeIntervalSince(started)))
        return 0
    }

    /// Whether `url` is (or, for a directory, holds) an administrative-unit input. Unreadable or
    /// unrecognised files count as not: the import reports them itself.
    static func holdsAdminUnits(_ url: URL) -> Bool {
        let unitKinds: Set<InputKind> = [.units2025JSON, .unitsPre2025JSON, .mappingNewToOldJSON, .mappingOldToNewJSON, .centroidCSV]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else { return (try? InputKind.detect(url)).map(unitKinds.contains) ?? false }
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        while let item = files?.nextObject() as? URL {
            if let kind = try? InputKind.detect(item), unitKinds.contains(kind) { return true }
        }
        return false
    }
}
