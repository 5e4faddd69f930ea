import Foundation
import JSON

/// Scenarios added at run time through the admin API (`POST /__sim/scenarios`), as WireMock's
/// `POST /__admin/mappings` and MockServer's `PUT /expectation` add mappings: validated exactly
/// like files, held in memory over the loaded files (a runtime scenario overrides a file's of the
/// same name), kept across folder reloads, removable, and savable as a file of the scenarios folder.
struct RuntimeScenarios: Sendable {
    /// The runtime scenarios by name.
    private(set) var byName: [String: Scenario] = [:]

    /// How a runtime scenario's `file` reads in lists and issues.
    static let origin = "(admin API)"

    /// The files' library with the runtime scenarios laid over it.
    func overlaid(on files: ScenarioLibrary) -> ScenarioLibrary {
        guard !byName.isEmpty else { return files }
        let names = Set(byName.keys)
        return ScenarioLibrary(scenarios: Array(byName.values) + files.scenarios.filter { !names.contains($0.name) },
                               issues: files.issues, directory: files.directory)
    }

    mutating func put(_ scenario: Scenario) -> Bool {
        byName.updateValue(scenario, forKey: scenario.name) == nil
    }

    mutating func remove(_ name: String) -> Scenario? {
        byName.removeValue(forKey: name)
    }
}
