/// One rule of a scenario: which requests (`match`, `state`), when (`when`), and what
/// happens (an action, or a `sequence` of them), plus an optional state transition.
///
/// Rules are tried in order; the first that matches and whose `when` holds acts.
struct ScenarioRule: Sendable {
    enum Behaviour: Sendable {
        case action(ScenarioAction)
        case sequence(ActionSequence)
    }

    /// `name` from the file, else `#index`; shown in the journal.
    var label: String
    var match: RequestMatch
    /// The named states the rule applies in; nil for all.
    var states: [String]?
    var when: CallCondition
    var behaviour: Behaviour
    /// The state the scenario moves to when this rule acts.
    var nextState: String?
}
