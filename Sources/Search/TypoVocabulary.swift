import Foundation
import SQLiteStore

/// The ``TypoVocabulary``, built by the first query that needs it (a query that matches no name
/// as typed), under a lock: start-up does not pay for it — on a busy 2-core machine a background
/// build slowed start-up by half — and answers never depend on timing. That first query costs
/// about 0.1 s more.
final class LazyTypoVocabulary: @unchecked Sendable {
    // @unchecked: `built` is only touched under `lock`.
    private let lock = NSLock()
    private let databasePath: String
    private var built: TypoVocabulary?

    init(databasePath: String) { self.databasePath = databasePath }

    /// The vocabulary; throws (and is tried again by the next query) when the dataset cannot be read.
    func vocabulary() throws -> TypoVocabulary {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let vocabulary = try TypoVocabulary(database: Database(path: databasePath, mode: .readOnly))
        built = vocabulary
        return vocabulary
    }
}

/// The folded words of every name, for correcting one typing error ("thnah" → "thanh",
/// "bitexxo" → "bitexco", "vie" → "vien"): one substitution, omission, insertion or
/// transposition. Built once at start from the name index's vocabulary; looked up through
/// single-deletion keys (a word and a typo one edit apart share a key), so a look-up costs a
/// few hash probes. Only used when the query as typed matches no name fully.
struct TypoVocabulary: Sendable {
    /// Word → number of names holding it.
    private let frequency: [String: Int]
    /// The words, indexed by `deletions`.
    private let words: [String]
    /// (hash of a word with one letter deleted, or of the word itself; index into `words`),
    /// sorted: hashes, not strings, and one flat array keep it small (a map of arrays was 2 MB);
    /// candidates are verified with ``isOneEdit(_:_:)``.
    private let deletions: [(hash: Int, word: Int32)]

    /// Words shorter than this are not corrected into.
    static let minimumWordLength = 4

    init(database: Database) throws {
        try database.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.name_vocabulary USING fts5vocab(main, 'place_name_fts', 'row')")
        let statement = try database.prepare("SELECT term, doc FROM temp.name_vocabulary")
        var frequency: [String: Int] = [:]
        while try statement.step() {
            let term = statement.text(0)
            guard term.count >= Self.minimumWordLength, term.count <= 20, !term.hasPrefix("xq"),
                  term.allSatisfy({ $0.isLetter }) else { continue }
            frequency[term] = statement.int(1)
        }
        let words = frequency.keys.sorted()
        var deletions: [(hash: Int, word: Int32)] = []
        for (index, word) in words.enumerated() {
            for key in Self.deletionKeys(word) { deletions.append((key.hashValue, Int32(index))) }
        }
        deletions.sort { ($0.hash, $0.word) < ($1.hash, $1.word) }
        self.frequency = frequency
        self.words = words
        self.deletions = deletions
    }

    /// The word and its single-letter deletions.
    static func deletionKeys(_ word: String) -> Set<String> {
        let letters = Array(word)
        var keys: Set<String> = [word]
        for i in letters.indices {
            var copy = letters
            copy.remove(at: i)
            keys.insert(String(copy))
        }
        return keys
    }

    /// Known words exactly one edit from `word` (most frequent first), at most `limit`.
    func corrections(of word: String, limit: Int) -> [String] {
        var found = Set<String>()
        for key in Self.deletionKeys(word) {
            let hash = key.hashValue
            var low = 0, high = deletions.count
            while low < high {
                let mid = (low + high) / 2
                if deletions[mid].hash < hash { low = mid + 1 } else { high = mid }
            }
            for entry in deletions[low...].prefix(while: { $0.hash == hash }) {
                let candidate = words[Int(entry.word)]
                if candidate != word && Self.isOneEdit(word, candidate) { found.insert(candidate) }
            }
        }
        return found.sorted { (frequency[$0] ?? 0, $1) > (frequency[$1] ?? 0, $0) }.prefix(limit).map { $0 }
    }

    func contains(_ word: String) -> Bool { frequency[word] != nil }

    /// Optimal-string-alignment distance is exactly 1.
    static func isOneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if x == y || abs(x.count - y.count) > 1 { return false }
        if x.count == y.count {
            let diffs = x.indices.filter { x[$0] != y[$0] }
            if diffs.count == 1 { return true }
            return diffs.count == 2 && diffs[1] == diffs[0] + 1 && x[diffs[0]] == y[diffs[1]] && x[diffs[1]] == y[diffs[0]]
        }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        var i = 0
        while i < short.count && short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }
}
