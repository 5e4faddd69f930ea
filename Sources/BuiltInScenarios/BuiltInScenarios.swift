import Foundation

/// The scenarios that ship with vietmap-sim: the repository's top-level `Scenarios/*.json`,
/// embedded as this target's resource bundle so `scenario:NAME` works from any directory and from
/// packages that depend on this one.
///
/// One copy of each file: `Resources/Scenarios` is a symbolic link to the repository's
/// `Scenarios/` folder, declared `.process`, so SwiftPM follows the link and copies every file
/// into the bundle's root at build time (`.copy` would copy the link itself, which dangles in
/// the bundle). A file added to `Scenarios/` is embedded by the next build, nothing to register.
///
///     let library = ScenarioLibrary.load(files: BuiltInScenarios.files)
public enum BuiltInScenarios {
    /// The embedded folder: the bundle's root, holding a copy of every file of `Scenarios/`
    /// (`README.md` and `scenario.schema.json` included).
    public static var directory: URL { Bundle.module.resourceURL ?? Bundle.module.bundleURL }

    /// The scenario files (`*.json` except `*.schema.json`), sorted by name.
    public static var files: [URL] {
        let root = directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && !$0.hasPrefix(".") }
            .sorted()
            .map { root.appendingPathComponent($0) }
    }
}
