/// Successive answers of one rule (`"sequence"`): each time the rule acts it takes the next
/// step; a step with `times: N` is used N times in a row. After the last step the sequence
/// `repeat`s from the first, `stick`s to the last (the default) or lets requests `pass` to
/// the following rules.
///
///     "sequence": {"steps": [{"times": 2, "respond": {"error": "ERROR_UNKNOWN"}}, {"pass": true}],
///                  "afterLast": "stick"}
struct ActionSequence: Sendable {
    enum AfterLast: String, Sendable, CaseIterable {
        case `repeat`, stick, pass
    }

    struct Step: Sendable {
        var times: Int
        var action: ScenarioAction
    }

    var steps: [Step]
    var afterLast: AfterLast

    /// The step for the rule's `act`th action (0-based), nil once exhausted with `pass`.
    func stepIndex(forAct act: Int) -> Int? {
        let total = steps.reduce(0) { $0 + $1.times }
        guard total > 0 else { return nil }
        var position = act
        if position >= total {
            switch afterLast {
            case .repeat: position %= total
            case .stick: return steps.count - 1
            case .pass: return nil
            }
        }
        for (index, step) in steps.enumerated() {
            if position < step.times { return index }
            position -= step.times
        }
        return steps.count - 1
    }
}
