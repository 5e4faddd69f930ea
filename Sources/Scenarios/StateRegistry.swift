import Foundation
import StableHashing

/// The per-client states of every scenario, created on first use and keyed by scenario and
/// client key, so parallel clients (CI jobs with `scenario:NAME@job42` keys) never share
/// counters. A state whose scenario definition changed (reload) is started afresh.
///
/// At most `capacity` states are kept: beyond that the **least recently used** one is dropped
/// (O(1), a doubly linked list in use order) and counted in `evicted`, so any number of
/// distinct keys costs bounded memory.
///
/// `@unchecked Sendable`: `entries`, the list and the counters are only touched under `lock`.
final class StateRegistry: @unchecked Sendable {
    /// One listed state.
    struct Summary: Sendable {
        /// Creation number, increasing: the `after` cursor of the admin API's pages.
        let id: Int
        let scenario: String
        /// The key the state is listed and reset under, as the client sent it.
        let apiKey: String
        let state: String
    }

    /// One page of states in creation order.
    struct Page: Sendable {
        let total: Int
        let states: [Summary]
        /// The `after` cursor of the next page, nil on the last page.
        let next: Int?
    }

    private final class Node {
        let key: String
        var state: ScenarioState
        let apiKey: String
        let id: Int
        var newer: Node?
        weak var older: Node?

        init(key: String, state: ScenarioState, apiKey: String, id: Int) {
            self.key = key
            self.state = state
            self.apiKey = apiKey
            self.id = id
        }
    }

    private let lock = NSLock()
    private var entries: [String: Node] = [:]
    /// Least recently used end (dropped first) and most recently used end.
    private var oldest: Node?
    private var newest: Node?
    private var nextID = 1
    private var evictedCount = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    deinit {
        // Unlink iteratively: releasing a long chain of strong `newer` links would recurse.
        var node = oldest
        oldest = nil
        newest = nil
        while let current = node {
            node = current.newer
            current.newer = nil
        }
    }

    /// The state of `scenario` for `clientKey`, created with a seed derived from `seed` and
    /// the key (so each client's random sequence depends only on its own requests).
    func state(for scenario: Scenario, clientKey: String, apiKey: String, seed: UInt64) -> ScenarioState {
        let key = scenario.name + "\u{0}" + clientKey
        return lock.withLock {
            if let node = entries[key] {
                unlink(node)
                append(node)
                if node.state.scenario.revision != scenario.revision {
                    node.state = ScenarioState(scenario: scenario, seed: seed ^ FNV1a64.bytewise(key.utf8))
                }
                return node.state
            }
            let node = Node(key: key, state: ScenarioState(scenario: scenario, seed: seed ^ FNV1a64.bytewise(key.utf8)),
                            apiKey: apiKey, id: nextID)
            nextID += 1
            entries[key] = node
            append(node)
            while entries.count > capacity, let victim = oldest {
                unlink(victim)
                entries[victim.key] = nil
                evictedCount += 1
            }
            return node.state
        }
    }

    /// Forgets states: all, or those of one scenario, and/or those of one API key.
    /// Returns how many were dropped.
    @discardableResult
    func reset(scenario: String? = nil, apiKey: String? = nil) -> Int {
        lock.withLock {
            let doomed = entries.values.filter { node in
                (scenario.map { node.state.scenario.name == $0 } ?? true) && (apiKey.map { node.apiKey == $0 } ?? true)
            }
            for node in doomed {
                unlink(node)
                entries[node.key] = nil
            }
            return doomed.count
        }
    }

    /// How many states are kept now.
    var count: Int {
        lock.withLock { entries.count }
    }

    /// How many states were dropped to stay within `capacity` since the start.
    var evicted: Int {
        lock.withLock { evictedCount }
    }

    /// States in creation order: those created after `after` (an id), skipping `offset`, at most `limit`.
    func page(after: Int?, offset: Int, limit: Int) -> Page {
        // `node.state` is replaced under `lock` (a reloaded scenario), so it is read under it too.
        let (total, listed) = lock.withLock {
            (entries.count, entries.values.filter { $0.id > (after ?? 0) }.map { (id: $0.id, apiKey: $0.apiKey, state: $0.state) })
        }
        let sorted = listed.sorted { $0.id < $1.id }
        let start = min(max(0, offset), sorted.count)
        let end = min(start + max(0, limit), sorted.count)
        let states = sorted[start..<end].map { node in
            Summary(id: node.id, scenario: node.state.scenario.name, apiKey: node.apiKey, state: node.state.currentState)
        }
        return Page(total: total, states: states, next: end < sorted.count ? states.last?.id : nil)
    }

    // MARK: Use-order list (under `lock`)

    private func unlink(_ node: Node) {
        let older = node.older
        let newer = node.newer
        older?.newer = newer
        newer?.older = older
        if oldest === node { oldest = newer }
        if newest === node { newest = older }
        node.older = nil
        node.newer = nil
    }

    private func append(_ node: Node) {
        node.older = newest
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }
}
