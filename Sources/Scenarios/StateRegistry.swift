import Foundation

/// The per-client states of every scenario, created on first use and keyed by scenario and
/// client key, so parallel clients (CI jobs with `scenario:NAME@job42` keys) never share
/// counters. A state whose scenario definition changed (reload) is started afresh. At most
/// `capacity` states are kept; the oldest are dropped beyond that.
///
/// `@unchecked Sendable`: `entries` and `order` are only touched under `lock`.
final class StateRegistry: @unchecked Sendable {
    private struct Entry {
        let state: ScenarioState
        let apiKey: String
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The state of `scenario` for `clientKey`, created with a seed derived from `seed` and
    /// the key (so each client's random sequence depends only on its own requests).
    func state(for scenario: Scenario, clientKey: String, apiKey: String, seed: UInt64) -> ScenarioState {
        let key = scenario.name + "\u{0}" + clientKey
        return lock.withLock {
            if let entry = entries[key], entry.state.scenario.revision == scenario.revision { return entry.state }
            let state = ScenarioState(scenario: scenario, seed: seed ^ StableHash.fnv1a64(key))
            if entries.updateValue(Entry(state: state, apiKey: apiKey), forKey: key) == nil {
                order.append(key)
                if order.count > capacity {
                    let dropped = order.count - capacity
                    for old in order.prefix(dropped) { entries[old] = nil }
                    order.removeFirst(dropped)
                }
            }
            return state
        }
    }

    /// Forgets states: all, or those of one scenario, and/or those of one API key.
    /// Returns how many were dropped.
    @discardableResult
    func reset(scenario: String? = nil, apiKey: String? = nil) -> Int {
        lock.withLock {
            let doomed = entries.filter { key, entry in
                (scenario.map { entry.state.scenario.name == $0 } ?? true) && (apiKey.map { entry.apiKey == $0 } ?? true)
            }.map(\.key)
            for key in doomed { entries[key] = nil }
            let doomedSet = Set(doomed)
            order.removeAll { doomedSet.contains($0) }
            return doomed.count
        }
    }

    /// Snapshot for the admin API: scenario, API key (as sent) and current named state.
    func summary() -> [(scenario: String, apiKey: String, state: String)] {
        let snapshot = lock.withLock { order.compactMap { entries[$0] } }
        return snapshot.map { ($0.state.scenario.name, $0.apiKey, $0.state.currentState) }
    }
}
