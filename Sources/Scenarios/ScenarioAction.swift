import JSON

/// What a rule (or a sequence step) does to the answer. The parts combine:
/// `quota` gates first (over quota → 429), then `respond` (a literal answer, or status and
/// header edits to the real one), `transform` (rewrites the route's polylines), `patch` (JSON
/// Patch on the body), `fault` (broken transport), `dribble`, and finally `delay`. An action with none of them (`"pass": true`)
/// gives the normal simulated answer.
struct ScenarioAction: Sendable {
    var respond: ResponseSpec?
    var transform: PolylineTransform?
    var patch: JSONPatch?
    var delay: DelaySpec?
    var dribble: DribbleSpec?
    var faults: [TransportFault] = []
    var quota: QuotaSpec?

    static let pass = ScenarioAction()

    /// Whether the answer is the inner handler's, unchanged (a delay or a quota count aside).
    var leavesAnswerAlone: Bool {
        respond == nil && transform == nil && patch == nil && dribble == nil && faults.isEmpty
    }

    /// Whether the real (inner) answer is needed.
    var needsInnerAnswer: Bool {
        respond?.body == nil
    }

    /// The journal's fault label (`"reset"`, `"truncate+content-type"`), nil without faults.
    var faultLabel: String? {
        faults.isEmpty ? nil : faults.map(\.label).joined(separator: "+")
    }
}
