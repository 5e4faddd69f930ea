import Dataset
import DefaultData
import Foundation

/// `vietmap-sim import --out PATH [INPUT…] [--progress]`. `--out` is checked before any work;
/// temporary files that killed imports left in its folder are removed first (one notice line),
/// and SIGINT/SIGTERM during the import remove this run's temporary file before exiting. Each
/// step is shown on stderr (on a terminal, or with `--progress`), with the memory held; when
/// the machine's memory runs low the import stops with one line (``MemoryWatch``).
enum ImportCommand {
    /// Bytes left below which the import stops: `VIETMAP_SIM_IMPORT_MEMORY_FLOOR_MB`, else ``MemoryWatch/defaultFloorBytes``.
    static var memoryFloorBytes: Int {
        if let text = ProcessInfo.processInfo.environment["VIETMAP_SIM_IMPORT_MEMORY_FLOOR_MB"], let mib = Int(text), mib >= 0 {
            return mib << 20
        }
        return MemoryWatch.defaultFloorBytes
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valued: ["out"], boolean: ["help", "progress"])
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
        let watch = MemoryWatch(floorBytes: memoryFloorBytes) { reading in
            let removed = DatasetTemporaryFiles.removeInProgress()
            let line = String(format: "vietmap-sim: import stopped: the machine has %.0f MiB of memory left (the import holds %.1f GiB)%@; import fewer or smaller inputs, or on a machine with more memory\n",
                              Double(reading.availableBytes) / 1_048_576, Double(reading.processBytes) / 1_073_741_824,
                              removed > 0 ? "; removed its temporary file, nothing written" : "")
            _ = line.withCString { write(2, $0, strlen($0)) }
            _exit(1)
        }
        defer { withExtendedLifetime(watch) {} }
        let terminal = isatty(2) != 0
        var builder = DatasetBuilder()
        if terminal || options.has("progress") {
            builder.progress = { step in
                let rss = Double(MemoryWatch.residentBytes() ?? 0) / 1_073_741_824
                let line = String(format: "import: %@, %.1f GiB held", step, rss)
                FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            }
        }
        let report = try builder.build(inputs: inputs, output: URL(fileURLWithPath: out))
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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
