import EmbeddedFiles
import Foundation

/// The scenarios that ship with vietmap-sim: the repository's top-level `Scenarios/*.json`,
/// embedded in this target's code so `scenario:NAME` works from any directory, from packages that
/// depend on this one, and from a binary copied anywhere.
///
/// One copy of each file: `Resources/Scenarios` is a symbolic link to the repository's
/// `Scenarios/` folder; the `EmbedResources` plugin follows it and embeds every file at build
/// time, unpacked once into the cache at run time (`EmbeddedFolder`). A file added to
/// `Scenarios/` is embedded by the next build, nothing to register.
///
///     let library = ScenarioLibrary.load(files: BuiltInScenarios.files)
public enum BuiltInScenarios {
    /// The embedded folder, holding a copy of every file of `Scenarios/` (`README.md` and
    /// `scenario.schema.json` included).
    public static var directory: URL { unpacked.appendingPathComponent("Scenarios", isDirectory: true) }

    private static let unpacked = EmbeddedFolder.materialize(name: "BuiltInScenarios", fingerprint: EmbeddedArchive.fingerprint,
                                                            inflatedSize: EmbeddedArchive.inflatedSize,
                                                            deflatedBase64: EmbeddedArchive.deflatedBase64)

    /// The scenario files (`*.json` except `*.schema.json`), sorted by name.
    public static var files: [URL] {
        let root = directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }
            .sorted()
            .map { root.appendingPathComponent($0) }
    }
}
