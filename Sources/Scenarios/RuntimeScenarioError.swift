/// Why the admin API could not add, remove or save a runtime scenario.
public enum RuntimeScenarioError: Error, Sendable, CustomStringConvertible {
    /// The document does not load: the same problems `scenarios validate` reports for a file.
    case invalid([ScenarioIssue])
    case unknown(String)
    /// The scenario comes from a file: edit the file (and reload).
    case fromFile(String)
    /// No scenarios folder to save into (`serve --scenarios DIR`).
    case noFolder
    case unsafeFileName(String)
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case .invalid(let issues): return "the scenario does not load: " + issues.map(\.description).joined(separator: "; ")
        case .unknown(let name): return "no scenario named '\(name.prefix(100))'"
        case .fromFile(let name): return "scenario '\(name.prefix(100))' comes from a file: edit the file (POST /__sim/reload), or PUT a runtime scenario of that name over it"
        case .noFolder: return "no scenarios folder to save into: start the simulator with --scenarios DIR"
        case .unsafeFileName(let name): return "'\(name.prefix(100))' is not usable as a file name (letters, digits, . _ - only)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }

    /// The HTTP status the admin API answers with.
    var status: Int {
        switch self {
        case .invalid, .unsafeFileName: return 400
        case .unknown: return 404
        case .fromFile, .noFolder: return 409
        case .cannotWrite: return 500
        }
    }
}
