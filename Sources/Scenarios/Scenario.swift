import HTTPServer
import JSON
import StableHashing
import VietMapWire

/// A named, described fault scenario loaded from a JSON file: an ordered list of rules, an
/// optional seed and an initial state.
///
/// See `Scenarios/README.md` for the file format and `Scenarios/scenario.schema.json` for
/// its JSON Schema.
public struct Scenario: Sendable {
    public let name: String
    public let description: String
    /// The file's seed (the engine's `seed` setting overrides it); nil means 0.
    public let seed: UInt64?
    /// The state every client starts in (`"Started"` unless the file says otherwise).
    public let initialState: String
    /// The file it came from, if any.
    public let file: String?
    /// The document as written, for the admin API.
    public let source: JSONValue
    /// Identifies the definition: the per-client states of a scenario whose definition
    /// changed on reload are dropped.
    let revision: UInt64
    let rules: [ScenarioRule]
    /// Finds the rules that can match a request without scanning them all.
    let index: RuleIndex
    /// Whether a rule has a `regex` condition.
    let hasRegexConditions: Bool
    /// What `validate` warns about (the scenario loads all the same).
    public let warnings: [ScenarioIssue]

    init(name: String, description: String, seed: UInt64?, initialState: String, file: String?, source: JSONValue,
         rules: [ScenarioRule], warnings: [ScenarioIssue] = []) {
        self.name = name
        self.description = description
        self.seed = seed
        self.initialState = initialState
        self.file = file
        self.source = source
        self.rules = rules
        self.index = RuleIndex(rules)
        self.hasRegexConditions = rules.contains { rule in rule.match.parameters.contains { $0.condition.regex != nil } }
        self.warnings = warnings
        self.revision = FNV1a64.bytewise(JSONSerializer.bytes(source))
    }

    /// The number of rules.
    public var ruleCount: Int { rules.count }

    /// The most regex work matching a request to `endpoint` with `query` against this scenario
    /// could cost (every candidate rule's `regex` conditions against every value they test).
    func regexSteps(endpoint: APIEndpoint?, query: QueryParameters) -> Int {
        index.candidates(endpoint: endpoint, query: query).reduce(0) {
            $0.addingReportingOverflow(rules[$1].match.regexSteps(endpoint: endpoint, query: query)).partialValue
        }
    }
}
