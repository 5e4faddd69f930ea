import SeededRandom
import VietMapWire
import Foundation
import HTTPServer

/// The runtime state of one scenario for one client (scenario + API key): the named state,
/// per-rule call counters, burst windows, quota windows and the seeded random generator.
///
/// `decide` runs under a lock, so concurrent requests of one client are counted and answered
/// as if they came one after another ("fail twice" fails exactly two of any number of
/// parallel calls).
///
/// `@unchecked Sendable`: all mutable state is guarded by `lock`.
final class ScenarioState: @unchecked Sendable {
    let scenario: Scenario
    private let lock = NSLock()
    private var current: String
    private var random: SeededGenerator
    private var rules: [RuleState]

    private struct RuleState {
        var calls = 0
        var acts = 0
        /// Arrival times (`ScenarioClock` ns) of the latest matching calls, for `burst`.
        var recent: [UInt64] = []
        /// Quota windows by API key.
        var quota: [String: QuotaWindow] = [:]
    }

    init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.current = scenario.initialState
        self.random = SeededGenerator(seed: seed)
        self.rules = Array(repeating: RuleState(), count: scenario.rules.count)
    }

    var currentState: String {
        lock.withLock { current }
    }

    /// Scenario time of this client when it asks for paced time (`X-VietMap-Sim-Pace`): every
    /// request moves it on by `stepMilliseconds`, so bursts and quota windows depend on the order
    /// of the requests only, never on how fast a machine sends them.
    private var pacedNanoseconds: UInt64 = 0

    func pacedNow(stepMilliseconds: Int) -> UInt64 {
        lock.withLock {
            pacedNanoseconds &+= UInt64(stepMilliseconds) * 1_000_000
            return pacedNanoseconds
        }
    }

    /// Picks the first rule that matches and whose `when` holds, and updates the counters.
    /// - Parameters:
    ///   - apiKey: the key as sent, for quotas.
    ///   - now: the request's arrival (`ScenarioClock.now`, nanoseconds), for bursts and quotas.
    /// Regex tests are bounded by one `RegexBudget` for the request; the decision's `note` names
    /// the tests it did not run.
    func decide(endpoint: APIEndpoint?, query: QueryParameters, apiKey: String, now: UInt64) -> Decision {
        var budget = RegexBudget()
        var decision = decide(endpoint: endpoint, query: query, apiKey: apiKey, now: now, budget: &budget)
        decision.note = budget.note
        return decision
    }

    private func decide(endpoint: APIEndpoint?, query: QueryParameters, apiKey: String, now: UInt64,
                        budget: inout RegexBudget) -> Decision {
        lock.withLock {
            for index in scenario.index.candidates(endpoint: endpoint, query: query) {
                let rule = scenario.rules[index]
                budget.rule = rule.label
                guard rule.match.matches(endpoint: endpoint, query: query, budget: &budget) else { continue }
                if let states = rule.states, !states.contains(current) { continue }
                rules[index].calls += 1
                var recentCalls = 0
                if let burst = rule.when.burst {
                    recentCalls = noteRecentCall(rule: index, burst: burst, now: now)
                }
                guard rule.when.holds(call: rules[index].calls, recentCalls: recentCalls, random: &random) else { continue }

                let action: ScenarioAction
                var step: Int?
                switch rule.behaviour {
                case .action(let single):
                    action = single
                case .sequence(let sequence):
                    guard let stepIndex = sequence.stepIndex(forAct: rules[index].acts) else { continue }
                    action = sequence.steps[stepIndex].action
                    step = stepIndex
                }
                rules[index].acts += 1
                if let next = rule.nextState { current = next }
                var retryAfter: Int?
                if let quota = action.quota {
                    retryAfter = QuotaWindow.consume(&rules[index].quota[apiKey], spec: quota, now: now)
                }
                let delay = action.delay?.sample(&random) ?? 0
                return Decision(ruleLabel: rule.label, step: step, action: action, delayMilliseconds: delay,
                                quotaRetryAfter: retryAfter, state: current)
            }
            return .passThrough(state: current)
        }
    }

    /// Records a matching call for a burst rule; returns how many fall within its window.
    private func noteRecentCall(rule index: Int, burst: CallCondition.Burst, now: UInt64) -> Int {
        let window = UInt64(burst.withinMs) * 1_000_000
        var recent = rules[index].recent
        recent.append(now)
        recent.removeAll { now >= $0 && now - $0 > window }
        if recent.count > burst.count { recent.removeFirst(recent.count - burst.count) }
        rules[index].recent = recent
        return recent.count
    }
}
