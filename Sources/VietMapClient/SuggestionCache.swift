import Foundation

/// A short-lived autocomplete cache (reference tip: "cache suggestions by text + rounded focus for
/// 30–60 s to reduce quota").
///
/// Keyed by the exact text (not trimmed or folded: a trailing space changes VietMap's prefix
/// search), `focus` rounded to a grid of `focusGridDegrees` (0.001° ≈ 110 m), `displayType` and
/// any additional parameters. A hit within the cell returns the items as fetched for the first
/// focus, so their `distance` may be off by up to one cell. Only successful answers are cached;
/// concurrent misses for one key share a single request.
public actor SuggestionCache {
    public struct Key: Hashable, Sendable {
        public let text: String
        public let focusCell: [Int64]?
        public let displayType: Int
        public let additionalParameters: [VMParameter]
    }

    public let ttl: Duration
    public let focusGridDegrees: Double
    public let capacity: Int
    private let clock: any VMClock
    private var entries: [Key: (items: [VMSearchItem], storedAt: Duration)] = [:]
    private var inFlight: [Key: Task<Result<[VMSearchItem], VMClientError>, Never>] = [:]

    /// Lookups answered from the cache / sent to the provider (for metrics and tests).
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init(ttl: Duration = .seconds(60), focusGridDegrees: Double = 0.001, capacity: Int = 256,
                clock: any VMClock = VMSystemClock()) {
        self.ttl = ttl
        self.focusGridDegrees = focusGridDegrees
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    public nonisolated func key(text: String, focus: VMCoordinate?, displayType: Int = 1,
                                additionalParameters: [VMParameter] = []) -> Key {
        let cell = focus.map { [Int64(($0.latitude / focusGridDegrees).rounded()), Int64(($0.longitude / focusGridDegrees).rounded())] }
        return Key(text: text, focusCell: cell, displayType: displayType,
                   additionalParameters: VMRequest(.autocomplete, additionalParameters).canonicalParameters)
    }

    /// The cached items for `key`, if stored less than `ttl` ago.
    public func cached(_ key: Key) -> [VMSearchItem]? {
        guard let entry = entries[key] else { return nil }
        guard clock.now - entry.storedAt < ttl else {
            entries.removeValue(forKey: key)
            return nil
        }
        return entry.items
    }

    public func store(_ items: [VMSearchItem], for key: Key) {
        entries[key] = (items, clock.now)
        guard entries.count > capacity else { return }
        let now = clock.now
        entries = entries.filter { now - $0.value.storedAt < ttl }
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key {
            entries.removeValue(forKey: oldest)
        }
    }

    public func removeAll() { entries.removeAll() }

    /// Cached items, or `provider.autocomplete(…)` (stored on success).
    public func suggestions(text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                            additionalParameters: [VMParameter] = [],
                            from provider: any VietMapProvider) async throws(VMClientError) -> [VMSearchItem] {
        let key = key(text: text, focus: focus, displayType: displayType, additionalParameters: additionalParameters)
        if let items = cached(key) {
            hits += 1
            return items
        }
        let task: Task<Result<[VMSearchItem], VMClientError>, Never>
        if let running = inFlight[key] {
            hits += 1
            task = running
        } else {
            misses += 1
            task = Task {
                do throws(VMClientError) {
                    return .success(try await provider.autocomplete(text: text, focus: focus, displayType: displayType,
                                                                    additionalParameters: additionalParameters))
                } catch {
                    return .failure(error)
                }
            }
            inFlight[key] = task
        }
        let result = await task.value
        if inFlight[key] == task {
            inFlight.removeValue(forKey: key)
            if case .success(let items) = result { store(items, for: key) }
        }
        return try result.get()
    }
}
