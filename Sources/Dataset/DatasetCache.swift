import Foundation

/// Locates — and builds on first use — the default dataset in a per-user cache.
///
/// The file is `<cache>/default-<fingerprint>.sqlite`, where the fingerprint
/// (``DatasetFingerprint``) covers the inputs' names, sizes and contents and the
/// schema/builder versions. A present file whose `meta.source_fingerprint` matches is
/// reused; otherwise it is built to a temporary file and renamed into place, so two
/// processes building at once both end with a complete file (the last rename wins).
///
/// Cache directory: `cacheDirectory`, else `$VIETMAP_SIM_CACHE`, else
/// `$XDG_CACHE_HOME/vietmap-sim`, else `~/.cache/vietmap-sim`.
public enum DatasetCache {
    /// The cache directory chosen from the environment.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["VIETMAP_SIM_CACHE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("vietmap-sim", isDirectory: true)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/vietmap-sim", isDirectory: true)
    }

    /// The path of the default dataset for `inputs`, building it if needed.
    /// - Throws: ``DatasetError`` if an input is bad or the cache directory is unusable.
    /// `progress`, when given, receives a line before the build starts and as each of its steps
    /// starts (nothing when the cached file is reused).
    /// `knownContents`: content hashes of inputs known without reading them (``DatasetFingerprint``).
    public static func ensureDefault(inputs: [URL], knownContents: [String: (size: Int, hash: String)] = [:], cacheDirectory: URL? = nil,
                                     notice: (String) -> Void = DatasetCache.standardError,
                                     progress: (@Sendable (String) -> Void)? = nil) throws -> URL {
        try ensureDefaultDataset(inputs: inputs, knownContents: knownContents, cacheDirectory: cacheDirectory, notice: notice, progress: progress).url
    }

    /// Like ``ensureDefault(inputs:cacheDirectory:notice:)``, also returning the build report when
    /// this call had to build (nil when the cached file was reused).
    ///
    /// A cached file is reused only when its `meta` matches and ``DatasetIntegrity`` finds it
    /// intact (its checksum, or a ``DatasetVerificationRecord`` of the file as it is now); a
    /// damaged one is rebuilt, and `notice` receives one line saying so.
    public static func ensureDefaultDataset(inputs: [URL], knownContents: [String: (size: Int, hash: String)] = [:], cacheDirectory: URL? = nil,
                                            notice: (String) -> Void = DatasetCache.standardError,
                                            progress: (@Sendable (String) -> Void)? = nil) throws -> (url: URL, built: DatasetBuildReport?) {
        let (files, _) = try DatasetBuilder.expand(inputs)
        let fingerprint = try DatasetFingerprint.compute(inputs: files, knownContents: knownContents)
        let directory = cacheDirectory ?? defaultDirectory()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatasetError(.output, file: directory.path, "cannot create the cache directory: \(error.localizedDescription)")
        }
        let url = directory.appendingPathComponent("default-\(fingerprint).sqlite")
        switch check(url, fingerprint: fingerprint) {
        case .usable: return (url, nil)
        case .absent: break
        case .damaged(let reason):
            notice("vietmap-sim: the cached dataset \(url.path) is damaged (\(reason)); rebuilding it")
        }
        progress?("building the default dataset from the embedded files into \(url.path) (once; later starts reuse it)")
        let report = try DatasetBuilder(progress: progress).build(inputs: files, output: url, fingerprint: fingerprint)
        progress?(String(format: "default dataset built in %.1f s", report.seconds))
        pruneStale(in: directory, keeping: url.lastPathComponent)
        return (url, report)
    }

    /// Writes `line` to stderr.
    public static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    enum CachedState: Equatable {
        case usable, absent
        case damaged(String)
    }

    /// Whether the cached file exists, is of this build and fingerprint, and is intact. The file
    /// name carries the fingerprint, so an unreadable `meta` or a different fingerprint in a file
    /// of that name is damage too.
    static func check(_ url: URL, fingerprint: String) -> CachedState {
        guard FileManager.default.fileExists(atPath: url.path) else { return .absent }
        do {
            // A recorded verification of the file as it is now spares the checksum (start-up time).
            try DatasetIntegrity.verifyUsingRecord(path: url.path)
            let info = try DatasetInfo.read(path: url.path)
            guard info.schemaVersion == DatasetSchema.schemaVersion else { return .damaged("schema version \(info.schemaVersion ?? -1)") }
            guard info.sourceFingerprint == fingerprint else { return .damaged("its fingerprint is not \(fingerprint)") }
            return .usable
        } catch let error as DatasetError {
            return .damaged(error.message)
        } catch {
            return .damaged("\(error)")
        }
    }

    /// Best effort: removes other `default-*.sqlite` files (older fingerprints) that no running
    /// server holds a ``DatasetLease`` on, and temporary files older than an hour.
    static func pruneStale(in directory: URL, keeping current: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in names where name != current {
            let path = directory.appendingPathComponent(name).path
            if name.hasPrefix("default-") && name.hasSuffix(".sqlite") {
                if DatasetLease.isUnused(path) { unlink(path) }
            } else if name.hasPrefix("default-") && name.hasSuffix(".sqlite" + DatasetVerificationRecord.suffix) {
                // A verification record whose dataset is gone.
                let dataset = String(path.dropLast(DatasetVerificationRecord.suffix.count))
                if !FileManager.default.fileExists(atPath: dataset) { unlink(path) }
            } else if name.hasPrefix(".default-") && name.hasSuffix(".tmp"),
                      let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date,
                      modified < hourAgo {
                unlink(path)
            }
        }
    }
}
