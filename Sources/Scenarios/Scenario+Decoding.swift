import Foundation

extension Scenario {
    /// Decodes and validates a scenario document (the contents of a scenario file).
    ///
    ///     let scenario = try Scenario(json: Data(#"{"name":"x","description":"…","rules":[{"fault":"reset"}]}"#.utf8))
    ///
    /// - Parameter file: shown in the issues.
    /// - Throws: `ScenarioValidationError` with every problem found.
    public init(json data: Data, file: String? = nil) throws(ScenarioValidationError) {
        let (scenario, issues) = ScenarioDecoder.decode(data, file: file)
        guard let scenario else { throw ScenarioValidationError(issues: issues) }
        self = scenario
    }
}

/// A scenario document that did not validate: every problem, each with its JSON pointer.
public struct ScenarioValidationError: Error, Sendable, CustomStringConvertible {
    public let issues: [ScenarioIssue]

    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
