import Foundation

/// Map resources already made (vector tiles raw and gzipped, raster tiles, sprites) with their entity tags, kept
/// up to a byte budget: least recently used first out. Thread-safe; two threads missing the same key both make
/// it (the answers are equal), which keeps the lock short.
final class MapResourceCache: @unchecked Sendable {
    /// One made resource: its bytes (empty for an empty tile) and entity tag.
    struct Entry: Sendable {
        let body: Data
        let entityTag: String
    }

    /// The budget in bytes.
    let budgetBytes: Int
    private let lock = NSLock()
    private var entries: [String: (entry: Entry, tick: UInt64)] = [:]
    private var tick: UInt64 = 0
    private var bytes = 0

    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
    }

    /// 64 MiB, or `VIETMAP_SIM_MAP_CACHE_MB` MiB from the environment (0 turns caching off).
    static var defaultBudgetBytes: Int {
        if let text = ProcessInfo.processInfo.environment["VIETMAP_SIM_MAP_CACHE_MB"], let mib = Int(text), mib >= 0 {
            return min(mib, 4096) << 20
        }
        return 64 << 20
    }

    /// Bytes held now.
    var usedBytes: Int {
        lock.lock(); defer { lock.unlock() }
        return bytes
    }

    func entry(_ key: String) -> Entry? {
        lock.lock(); defer { lock.unlock() }
        // One hash lookup: the entry's tick is updated in place.
        guard let index = entries.index(forKey: key) else { return nil }
        tick += 1
        entries.values[index].tick = tick
        return entries.values[index].entry
    }

    /// The cached entry for `key`, or `make()`'s, stored when it fits the budget.
    func entry(_ key: String, make: () throws -> Entry) rethrows -> Entry {
        if let found = entry(key) { return found }
        let made = try make()
        store(made, for: key)
        return made
    }

    private func store(_ entry: Entry, for key: String) {
        let size = entry.body.count + key.utf8.count + 64
        guard size <= budgetBytes / 4 else { return }
        lock.lock(); defer { lock.unlock() }
        if let old = entries[key] { bytes -= old.entry.body.count + key.utf8.count + 64 }
        tick += 1
        entries[key] = (entry, tick)
        bytes += size
        if bytes > budgetBytes {
            // Evict the oldest quarter at once: one sort per many stores.
            let victims = entries.sorted { $0.value.tick < $1.value.tick }.prefix(max(1, entries.count / 4))
            for (victim, value) in victims {
                entries[victim] = nil
                bytes -= value.entry.body.count + victim.utf8.count + 64
            }
        }
    }
}
