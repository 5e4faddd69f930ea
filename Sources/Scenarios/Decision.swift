/// What the engine decided for one request, atomically, when it arrived: the rule that acts
/// (if any), its action, the sampled delay and the quota outcome. Executing it needs no
/// further access to the scenario's state.
struct Decision: Sendable {
    var ruleLabel: String?
    /// The sequence step taken, for sequence rules.
    var step: Int?
    var action: ScenarioAction
    /// The sampled delay in milliseconds (0 for none).
    var delayMilliseconds: Int
    /// Set when a quota rejects the call: the `Retry-After` seconds of the 429.
    var quotaRetryAfter: Int?
    /// The scenario state after this request.
    var state: String
    /// What the journal should know of the decision: regex tests the budget did not run.
    var note: String?

    static func passThrough(state: String) -> Decision {
        Decision(ruleLabel: nil, step: nil, action: .pass, delayMilliseconds: 0, quotaRetryAfter: nil, state: state)
    }
}
