import Foundation
import HTTPServer

/// A bounded in-memory record of the requests the engine saw (a ring buffer: the oldest
/// entries go when `capacity` is reached), for tests that check what an app asked for and
/// when: "the route was requested exactly once", "keystrokes were ≥ 300 ms apart".
///
///     let gaps = engine.journal.arrivalGaps(matching: JournalQuery(endpoint: .autocomplete))
///     XCTAssertGreaterThanOrEqual(gaps.min() ?? .infinity, 300)
///
/// Response bodies are kept too, bounded twice: at most `bodyLimit` bytes of each (the
/// start), and at most `bodyBudget` bytes in all — when a new body would exceed it, the
/// oldest entries lose theirs.
///
/// `@unchecked Sendable`: `storage`, `head`, `nextSequence` and the body bookkeeping are only
/// touched under `lock`.
public final class RequestJournal: @unchecked Sendable {
    public let capacity: Int
    /// Most bytes of one response body kept (64 KiB).
    public static let bodyLimit = 64 * 1024
    /// Most bytes of response bodies kept in all.
    public let bodyBudget: Int
    private let lock = NSLock()
    private var storage: [JournalEntry] = []
    /// Where the oldest entry is once the buffer is full.
    private var head = 0
    private var nextSequence = 1
    /// Sequence numbers of the entries holding a body, oldest first (from `bodyOrderStart`).
    private var bodyOrder: [Int] = []
    private var bodyOrderStart = 0
    private var bodyBytesHeld = 0
    /// Told of every completed entry (`observeCompletions`), outside the lock.
    private var completionObserver: (@Sendable (JournalEntry) -> Void)?

    public init(capacity: Int = 10_000, bodyBudget: Int = 16 * 1024 * 1024) {
        self.capacity = max(1, capacity)
        self.bodyBudget = max(0, bodyBudget)
    }

    /// Adds `entry` (its `sequence` is assigned here) and returns the sequence number.
    func record(_ entry: JournalEntry) -> Int {
        var entry = entry
        let sequence = lock.withLock {
            let sequence = nextSequence
            nextSequence += 1
            entry.sequence = sequence
            if storage.count < capacity {
                storage.append(entry)
            } else {
                bodyBytesHeld -= storage[head].responseBody?.count ?? 0
                // The entry that leaves the ring ends up in `entry`, released after the lock.
                swap(&storage[head], &entry)
                head = (head + 1) % capacity
            }
            return sequence
        }
        return sequence
    }

    /// Calls `observer` with each entry once its outcome is known (`serve`'s request log); one
    /// observer, set before serving.
    public func observeCompletions(_ observer: @escaping @Sendable (JournalEntry) -> Void) {
        lock.withLock { completionObserver = observer }
    }

    /// Fills in the outcome of a recorded request (ignored if it has left the buffer).
    /// `headers` are the answer's headers (those in `ReplayScenario.replayedHeaders` are kept,
    /// for `GET /__sim/journal/SEQ/scenario`), `transport` how it went out.
    func complete(sequence: Int, status: Int, latencyMilliseconds: Double, note: String?,
                  body: Data = Data(), contentType: String? = nil,
                  headers: [(name: String, value: String)] = [], transport: TransportBehaviour = .normal) {
        // Everything that does not need the lock is prepared before taking it.
        let contentType = contentType.map { $0.utf8.count <= 256 ? $0 : String($0.prefix(256)) }
        // Usually the fields are few and short: shared as they are, picked when read.
        let shareable = headers.count <= 16 && headers.allSatisfy { $0.name.utf8.count <= 64 && $0.value.utf8.count <= 256 }
        var kept: [(name: String, value: String)] = []
        if !shareable {
            for header in headers where kept.count < 16 && JournalEntry.keepsHeader(header.name) {
                kept.append((header.name.utf8.count <= 64 ? header.name : String(header.name.prefix(64)),
                             header.value.utf8.count <= 256 ? header.value : String(header.value.prefix(256))))
            }
        }
        let keptBody = body.count <= Self.bodyLimit ? body : Data(body.prefix(Self.bodyLimit))
        var completed: (entry: JournalEntry, observer: @Sendable (JournalEntry) -> Void)?
        defer { if let completed { completed.observer(completed.entry) } }
        lock.withLock {
            guard let index = index(of: sequence) else { return }
            defer { if let observer = completionObserver { completed = (storage[index], observer) } }
            storage[index].status = status
            storage[index].latencyMilliseconds = latencyMilliseconds
            if let note { storage[index].note = note }
            storage[index].responseBodyBytes = body.count
            storage[index].responseContentType = contentType
            storage[index].storedHeaders = shareable ? headers : kept
            storage[index].storedHeadersAreKept = !shareable
            storage[index].responseTransport = transport
            let kept = keptBody
            guard !kept.isEmpty, kept.count <= bodyBudget else { return }
            while bodyBytesHeld + kept.count > bodyBudget, bodyOrderStart < bodyOrder.count {
                let oldest = bodyOrder[bodyOrderStart]
                bodyOrderStart += 1
                if let old = self.index(of: oldest), let dropped = storage[old].responseBody {
                    bodyBytesHeld -= dropped.count
                    storage[old].responseBody = nil
                }
            }
            if bodyOrderStart > 4096, bodyOrderStart * 2 > bodyOrder.count {
                bodyOrder.removeFirst(bodyOrderStart)
                bodyOrderStart = 0
            }
            // A body within the limit is shared, not copied (Data is copy-on-write).
            storage[index].responseBody = kept
            bodyBytesHeld += kept.count
            bodyOrder.append(sequence)
            // Small bodies never reach the budget, so nothing above drops their sequence numbers;
            // forget those whose entry left the ring (at most `capacity` entries hold a body).
            if bodyOrder.count - bodyOrderStart > 2 * capacity {
                bodyOrder = bodyOrder[bodyOrderStart...].filter { self.index(of: $0).map { storage[$0].responseBody != nil } ?? false }
                bodyOrderStart = 0
            }
        }
    }

    /// How many sequence numbers the body bookkeeping holds (for tests: stays within a few × `capacity`).
    var bodyOrderCount: Int {
        lock.withLock { bodyOrder.count }
    }

    /// The matching entry, if it is still in the buffer.
    public func entry(sequence: Int) -> JournalEntry? {
        lock.withLock { index(of: sequence).map { storage[$0] } }
    }

    /// Where entry `sequence` is in `storage` (call under `lock`).
    private func index(of sequence: Int) -> Int? {
        let oldest = nextSequence - storage.count
        guard sequence >= oldest, sequence < nextSequence, !storage.isEmpty else { return nil }
        let index = (head + (sequence - oldest)) % storage.count
        return storage[index].sequence == sequence ? index : nil
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
            bodyOrder = []
            bodyOrderStart = 0
            bodyBytesHeld = 0
            return count
        }
    }
}
