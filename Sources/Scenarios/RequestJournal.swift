import Foundation

/// A bounded in-memory record of the requests the engine saw (a ring buffer: the oldest
/// entries go when `capacity` is reached), for tests that check what an app asked for and
/// when: "the route was requested exactly once", "keystrokes were ≥ 300 ms apart".
///
///     let gaps = engine.journal.arrivalGaps(matching: JournalQuery(endpoint: .autocomplete))
///     XCTAssertGreaterThanOrEqual(gaps.min() ?? .infinity, 300)
///
/// `@unchecked Sendable`: `storage`, `head` and `nextSequence` are only touched under `lock`.
public final class RequestJournal: @unchecked Sendable {
    public let capacity: Int
    private let lock = NSLock()
    private var storage: [JournalEntry] = []
    /// Where the oldest entry is once the buffer is full.
    private var head = 0
    private var nextSequence = 1

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Adds an entry (its `sequence` is assigned here) and returns the sequence number.
    func record(_ make: (Int) -> JournalEntry) -> Int {
        lock.withLock {
            let sequence = nextSequence
            nextSequence += 1
            let entry = make(sequence)
            if storage.count < capacity {
                storage.append(entry)
            } else {
                storage[head] = entry
                head = (head + 1) % capacity
            }
            return sequence
        }
    }

    /// Fills in the outcome of a recorded request (ignored if it has left the buffer).
    func complete(sequence: Int, status: Int, latencyMilliseconds: Double, note: String?) {
        lock.withLock {
            let oldest = nextSequence - storage.count
            guard sequence >= oldest, sequence < nextSequence else { return }
            let index = (head + (sequence - oldest)) % storage.count
            guard storage[index].sequence == sequence else { return }
            storage[index].status = status
            storage[index].latencyMilliseconds = latencyMilliseconds
            if let note { storage[index].note = note }
        }
    }

    /// The matching entries, oldest first.
    public func entries(matching query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        let all = lock.withLock { Array(storage[head...] + storage[..<head]) }
        let matching = all.filter(query.matches)
        if let limit = query.limit { return Array(matching.suffix(max(0, limit))) }
        return matching
    }

    public func count(matching query: JournalQuery = JournalQuery()) -> Int {
        entries(matching: query).count
    }

    /// Milliseconds between the arrivals of consecutive matching entries (one fewer than
    /// the entries): the debounce a client applied.
    public func arrivalGaps(matching query: JournalQuery = JournalQuery()) -> [Double] {
        let times = entries(matching: query).map(\.arrivalMilliseconds)
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }

    /// Empties the journal; returns how many entries were dropped. Sequence numbers go on.
    @discardableResult
    public func clear() -> Int {
        lock.withLock {
            let count = storage.count
            storage = []
            head = 0
            return count
        }
    }
}
