import Foundation

/// Rendered 200 bodies of autocomplete and place answers, by request (path and parameters
/// without the API key): the dataset is read-only and an answer depends only on them, so a
/// repeated keystroke or place look-up ("cho b", "cho be", … typed again by the next test run
/// or user) skips the search, the SQL and the JSON rendering.
///
/// Bounded in bytes, approximately least-recently-used with two generations: look-ups find an
/// entry in `young` or `old` (moving it to `young`); when `young` holds half the budget it
/// becomes `old` and the previous `old` is dropped. Every operation is O(1) under one lock.
final class ResponseCache: @unchecked Sendable {
    // @unchecked: `young`, `old` and `youngBytes` are only touched under `lock`.

    /// Total bytes of bodies and keys held at most (both generations).
    let budgetBytes: Int
    /// Bodies larger than this are not kept.
    static let maxBodyBytes = 64 * 1024
    /// Requests whose parameters are longer than this are not kept (bytes).
    static let maxKeyBytes = 1_024

    private let lock = NSLock()
    private var young: [String: Data] = [:]
    private var old: [String: Data] = [:]
    private var youngBytes = 0

    /// `budgetBytes` 0 disables the cache.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
    }

    var isEnabled: Bool { budgetBytes > 0 }

    /// The key of a request: its path and every parameter but `apikey`, in order (so the
    /// first-wins rules of repeated names are kept); nil when too long to keep.
    /// Every cacheable request builds one: its length is summed first and the bytes written
    /// into one string (no growth, no intermediate string).
    static func key(path: String, items: [(name: String, value: String)]) -> String? {
        var length = path.utf8.count
        for item in items where item.name != "apikey" {
            length += 2 + item.name.utf8.count + item.value.utf8.count
            guard length <= maxKeyBytes else { return nil }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            func write(_ text: String) {
                written += UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: text.utf8).1
            }
            write(path)
            for item in items where item.name != "apikey" {
                buffer[written] = 1
                written += 1
                write(item.name)
                buffer[written] = 2
                written += 1
                write(item.value)
            }
            return written
        }
    }

    func body(for key: String) -> Data? {
        lock.withLock {
            if let body = young[key] { return body }
            guard let body = old.removeValue(forKey: key) else { return nil }
            insertYoung(key, body)
            return body
        }
    }

    func store(_ body: Data, for key: String) {
        guard isEnabled, body.count <= Self.maxBodyBytes else { return }
        lock.withLock {
            guard young[key] == nil else { return }
            insertYoung(key, body)
        }
    }

    /// Call under `lock`.
    private func insertYoung(_ key: String, _ body: Data) {
        young[key] = body
        youngBytes += body.count + key.utf8.count + 64
        if youngBytes * 2 > budgetBytes {
            old = young
            young = [:]
            youngBytes = 0
        }
    }
}
