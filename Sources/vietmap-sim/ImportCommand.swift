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

    static func run(_ options: CommandLineArguments) throws -> Int32 {
        let out = options.value("out")!  // required, non-empty
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

extension ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "build a dataset from OSM/CSV/admin files (for serve --db)",
        positionals: .any("[INPUT…]"),
        discussion: """
            Builds a SQLite dataset for `serve --db`. Inputs are recognised by content: POI, street and
            address-point CSVs, units_2025 / units_pre2025 JSON, the old↔new mapping JSONs, the
            centroid/bbox CSV, OSM XML (.osm) and OSM PBF (.osm.pbf, e.g. a Geofabrik extract): named
            POIs and areas, streets, house numbers and roads. Without inputs the embedded default data is used;
            inputs without any unit file get the embedded units of Vietnam (so `import --out city.sqlite
            city.osm.pbf` gives a searchable city).
            The dataset is written to a temporary file and renamed into place when complete: a failed
            import leaves no partial file and an existing PATH untouched. Each step is shown on stderr
            (on a terminal, or with --progress) with the memory the import holds. Steps hold one thing
            at a time (places, then roads, then one or two vehicles' contraction, fewer when memory is
            short): its memory is that of the largest step, not of everything at once; when the machine has
            less than 3% of its memory left (at least 256 MiB; VIETMAP_SIM_IMPORT_MEMORY_FLOOR_MB sets
            it) the import stops with one line and exit code 1 rather than exhaust it. An OSM file beyond
            what OpenStreetMap allows (a node off the Earth, a way of more than 2,000 nodes, …) or a PBF
            inflating to more than 16 times its size is refused with one line naming the element
            (docs/limits.md, "Import and drive"). SIGINT/SIGTERM remove the temporary file and exit
            130/143.
            """,
        options: [
            .option("out", "PATH", .nonEmpty, required: true, "where to write the dataset"),
            .flag("progress", "show each step on stderr even when it is not a terminal"),
        ],
        run: { try run($0) })
}
