/// The regex work one request may still do (`ScenarioLimits.regexStepsPerRequest` Pike VM steps),
/// charged before each test of a `regex` condition: instructions × characters of the value tested.
/// A test that does not fit is not run — the condition does not hold, so its rule does not match —
/// and is noted for the journal. Matching therefore costs at most the budget however many rules
/// and patterns a scenario has and however long the request's values are.
struct RegexBudget: Sendable {
    /// Steps left.
    private(set) var remaining: Int
    /// One line per test not run.
    private(set) var notes: [String] = []
    /// The rule whose conditions are being tested (for the notes).
    var rule = ""

    init(steps: Int = ScenarioLimits.regexStepsPerRequest) {
        remaining = steps
    }

    /// The steps a test of a pattern of `instructions` against a value of `characters` costs.
    static func cost(instructions: Int, characters: Int) -> Int {
        let (product, overflow) = instructions.multipliedReportingOverflow(by: max(1, characters))
        return overflow ? .max : product
    }

    /// Whether a test of `regex` against `text` may run; charges it when it may, notes it when not.
    mutating func charge(_ regex: CompiledRegex, characters: Int, parameter: String) -> Bool {
        let cost = Self.cost(instructions: regex.instructions, characters: characters)
        guard cost > remaining else {
            remaining -= cost
            return true
        }
        if notes.count < 3 {
            notes.append("rule '\(rule.prefix(60))': regex on '\(parameter.prefix(40))' not run (\(regex.instructions) instructions × "
                + "\(characters) characters = \(cost) steps, \(remaining) of the request's \(ScenarioLimits.regexStepsPerRequest) left); the rule does not match")
        } else if notes.count == 3 {
            notes.append("more regex tests not run")
        }
        return false
    }

    /// The notes as one journal note, nil when every test ran.
    var note: String? {
        notes.isEmpty ? nil : "regex budget: " + notes.joined(separator: "; ")
    }
}
