import Foundation
import RegexEngine

/// A condition on one query parameter of a rule's `match`:
/// `{"equals": "truck"}`, `{"prefix": "ben", "ignoreCase": true, "ignoreAccents": true}`,
/// `{"contains": …}`, `{"regex": "^ben"}`, `{"present": true}`, `{"absent": true}`; a bare
/// string is shorthand for `equals`; an array of strings (`"point": ["10.77,106.70", "10.78,106.69"]`)
/// means exactly these non-empty values, in this order. Several keys must all hold.
///
/// As in the simulated API, a parameter with an empty value counts as absent. A string
/// condition holds when any value of a repeated parameter satisfies it.
struct ParameterCondition: Sendable {
    /// The exact list of non-empty values, in order (the array form).
    var values: [String]?
    var equals: String?
    var contains: String?
    var prefix: String?
    var regex: CompiledRegex?
    /// `true`: present with a non-empty value; `false`: absent or empty.
    var present: Bool?
    var ignoreCase = false
    var ignoreAccents = false

    /// Whether the condition holds for the values of parameter `name`; a `regex` test is charged
    /// to `budget` first and not run (the condition then does not hold) when it does not fit.
    func holds(for values: [String], name: String, budget: inout RegexBudget) -> Bool {
        let nonEmpty = values.filter { !$0.isEmpty }
        if let exact = self.values { return nonEmpty == exact }
        if let present, present == nonEmpty.isEmpty { return false }
        guard equals != nil || contains != nil || prefix != nil || regex != nil else { return true }
        return nonEmpty.contains { satisfies($0, name: name, budget: &budget) }
    }

    private func satisfies(_ raw: String, name: String, budget: inout RegexBudget) -> Bool {
        let value = normalized(raw)
        if let equals, value != normalized(equals) { return false }
        if let contains, !value.contains(normalized(contains)) { return false }
        if let prefix, !value.hasPrefix(normalized(prefix)) { return false }
        if let regex {
            let text = ignoreAccents ? Self.foldAccents(raw) : raw
            guard budget.charge(regex, characters: text.unicodeScalars.count, parameter: name), regex.matches(text) else { return false }
        }
        return true
    }

    /// The most regex work a test of this condition against `values` could cost (0 without `regex`).
    func regexSteps(for values: [String]) -> Int {
        guard let regex else { return 0 }
        return values.reduce(0) { total, value in
            value.isEmpty ? total : total.addingReportingOverflow(RegexBudget.cost(instructions: regex.instructions,
                                                                                   characters: value.unicodeScalars.count)).partialValue
        }
    }

    private func normalized(_ text: String) -> String {
        var text = text
        if ignoreAccents { text = Self.foldAccents(text) }
        if ignoreCase { text = text.lowercased() }
        return text
    }

    /// Removes diacritics, including Vietnamese đ/Đ (which Unicode does not decompose).
    static func foldAccents(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "đ", with: "d").replacingOccurrences(of: "Đ", with: "D")
    }
}

/// A `regex` condition compiled once when the scenario is loaded, to a `LinearRegex`: matching
/// never backtracks, so a hostile pattern or input costs O(text × pattern) — and a request's tests
/// together at most `ScenarioLimits.regexStepsPerRequest` steps (`RegexBudget`).
struct CompiledRegex: Sendable {
    let pattern: String
    private let expression: LinearRegex

    /// - Throws: `LinearRegex.SyntaxError` saying what is wrong or unsupported.
    init(pattern: String, ignoreCase: Bool) throws(LinearRegex.SyntaxError) {
        self.pattern = pattern
        // No value of `ScenarioLimits.regexTextCharacters` characters could be tested against a larger
        // program within a request's regex budget.
        expression = try LinearRegex(pattern, ignoreCase: ignoreCase, maxInstructions: ScenarioLimits.regexInstructions,
                                     whyCapped: " (the cost bound: instructions × characters tested ≤ "
                                         + "\(ScenarioLimits.regexStepsPerRequest) steps a request, for values of up to \(ScenarioLimits.regexTextCharacters) characters)")
    }

    /// Whether the pattern matches anywhere in `text` (anchor with `^…$` for a full match).
    func matches(_ text: String) -> Bool {
        expression.matches(text)
    }

    /// The program's size: the m of a test's O(n × m) steps.
    var instructions: Int { expression.size }
}
