import Foundation

/// An immutable snapshot of the loaded scenarios and of the problems found while loading
/// them. The engine swaps whole snapshots on reload, so requests in flight keep the
/// definitions they started with.
///
///     let library = ScenarioLibrary.load(directory: URL(fileURLWithPath: "Scenarios"))
///     library.issues.forEach { print($0) }
public struct ScenarioLibrary: Sendable {
    /// The scenarios, sorted by name.
    public let scenarios: [Scenario]
    /// Problems of the files that did not load (and duplicate names).
    public let issues: [ScenarioIssue]
    /// The folder the snapshot was loaded from, if any.
    public let directory: URL?
    /// Whether any scenario has a `regex` condition (else no request's matching can be heavy).
    let hasRegexConditions: Bool
    private let byName: [String: Scenario]

    public init(scenarios: [Scenario] = [], issues: [ScenarioIssue] = [], directory: URL? = nil) {
        var byName: [String: Scenario] = [:]
        for scenario in scenarios where byName[scenario.name] == nil { byName[scenario.name] = scenario }
        self.byName = byName
        self.scenarios = byName.values.sorted { $0.name < $1.name }
        self.issues = issues
        self.directory = directory
        hasRegexConditions = byName.values.contains(where: \.hasRegexConditions)
    }

    /// What the loaded scenarios' files are warned about (they loaded all the same).
    public var warnings: [ScenarioIssue] {
        scenarios.flatMap(\.warnings)
    }

    public func scenario(named name: String) -> Scenario? {
        byName[name]
    }

    /// Loads every scenario file of `directory` (see `ScenarioFiles`). A file that fails to
    /// load keeps the version of `previous` that came from the same file, if there was one:
    /// a bad edit never unloads a working scenario. Every problem is in `issues`.
    public static func load(directory: URL, previous: ScenarioLibrary? = nil) -> ScenarioLibrary {
        let files: [URL]
        do {
            files = try ScenarioFiles.list(in: directory)
        } catch {
            let issue = ScenarioIssue(file: directory.path, pointer: "", reason: "cannot list the scenarios folder: \(error.localizedDescription)")
            return ScenarioLibrary(scenarios: previous?.scenarios ?? [], issues: [issue], directory: directory)
        }
        return load(files: files, previous: previous, directory: directory)
    }

    /// Built-in scenario files, overridden by name by those of `directory` (either may be absent).
    /// `previous` keeps the last valid version of a folder file that no longer loads; built-in
    /// files are fixed and loaded as they are.
    public static func load(builtIn: [URL], directory: URL?, previous: ScenarioLibrary? = nil) -> ScenarioLibrary {
        let base = load(files: builtIn)
        guard let directory else { return ScenarioLibrary(scenarios: base.scenarios, issues: base.issues) }
        let folder = load(directory: directory, previous: previous)
        let overridden = Set(folder.scenarios.map(\.name))
        return ScenarioLibrary(scenarios: folder.scenarios + base.scenarios.filter { !overridden.contains($0.name) },
                               issues: base.issues + folder.issues, directory: directory)
    }

    /// Loads the given files (duplicate names across files are an issue of the later file).
    public static func load(files: [URL], previous: ScenarioLibrary? = nil, directory: URL? = nil) -> ScenarioLibrary {
        var loaded: [String: Scenario] = [:]
        var issues: [ScenarioIssue] = []
        var failedFiles: [String] = []
        for file in files {
            let shownPath = file.path
            let data: Data
            do {
                let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
                if let size = (attributes?[.size] as? NSNumber)?.intValue, size > ScenarioLimits.fileBytes {
                    issues.append(ScenarioIssue(file: shownPath, pointer: "",
                                                reason: "the file has \(size) bytes; at most \(ScenarioLimits.fileBytes) (128 MiB) are loaded"))
                    failedFiles.append(shownPath)
                    continue
                }
                data = try Data(contentsOf: file)
            } catch {
                issues.append(ScenarioIssue(file: shownPath, pointer: "", reason: "cannot read the file: \(error.localizedDescription)"))
                failedFiles.append(shownPath)
                continue
            }
            let (scenario, fileIssues) = ScenarioDecoder.decode(data, file: shownPath)
            guard let scenario else {
                issues += fileIssues
                failedFiles.append(shownPath)
                continue
            }
            if let other = loaded[scenario.name] {
                issues.append(ScenarioIssue(file: shownPath, pointer: "/name",
                                            reason: "duplicate scenario name '\(scenario.name)' (also in \(other.file ?? "another file"))"))
                continue
            }
            loaded[scenario.name] = scenario
        }
        for file in failedFiles {
            guard let kept = previous?.scenarios.first(where: { $0.file == file }), loaded[kept.name] == nil else { continue }
            loaded[kept.name] = kept
            issues.append(ScenarioIssue(file: file, pointer: "", reason: "the last valid version of '\(kept.name)' stays loaded"))
        }
        return ScenarioLibrary(scenarios: Array(loaded.values), issues: issues, directory: directory)
    }
}
