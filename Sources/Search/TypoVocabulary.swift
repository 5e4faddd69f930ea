import Foundation
import SQLiteStore

/// The folded words of every name, for correcting one typing error ("thnah" → "thanh",
/// "bitexxo" → "bitexco", "vie" → "vien"): one substitution, omission, insertion or
/// transposition. Built once at start from the name index's vocabulary; looked up through
/// single-deletion keys (a word and a typo one edit apart share a key), so a look-up costs a
/// few hash probes. Only used when the query as typed matches no name fully.
///
/// Built at import with ``SearchIndex`` and stored in its blob (the hashes are FNV-1a, the same
/// in every process), so no query pays for building it.
struct TypoVocabulary: Sendable {
    /// The words, sorted, and how many names hold each.
    let words: [String]
    let frequency: [Int32]
    /// (hash of a word with one letter deleted, or of the word itself; index into `words`),
    /// sorted: hashes, not strings, and flat arrays keep it small (a map of arrays was 2 MB);
    /// candidates are verified with ``isOneEdit(_:_:)``.
    let deletionHashes: [UInt64]
    let deletionWords: [Int32]

    init(words: [String], frequency: [Int32], deletionHashes: [UInt64], deletionWords: [Int32]) {
        (self.words, self.frequency, self.deletionHashes, self.deletionWords) = (words, frequency, deletionHashes, deletionWords)
    }

    /// Whether the arrays agree (a damaged blob never traps).
    var isConsistent: Bool {
        words.count == frequency.count && deletionHashes.count == deletionWords.count
            && deletionWords.allSatisfy { $0 >= 0 && Int($0) < words.count }
            && zip(deletionHashes, deletionHashes.dropFirst()).allSatisfy { $0 <= $1 }
            && zip(words, words.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// FNV-1a of the key's UTF-8.
    static func stableHash(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

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
        var deletions: [(hash: UInt64, word: Int32)] = []
        for (index, word) in words.enumerated() {
            for key in Self.deletionKeys(word) { deletions.append((Self.stableHash(key), Int32(index))) }
        }
        deletions.sort { ($0.hash, $0.word) < ($1.hash, $1.word) }
        self.init(words: words, frequency: words.map { Int32(clamping: frequency[$0] ?? 0) },
                  deletionHashes: deletions.map(\.hash), deletionWords: deletions.map(\.word))
    }

    /// The index of `word` in `words`, if it is one.
    private func index(of word: String) -> Int? {
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid] < word { low = mid + 1 } else { high = mid }
        }
        return low < words.count && words[low] == word ? low : nil
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
        var found = Set<Int>()
        for key in Self.deletionKeys(word) {
            let hash = Self.stableHash(key)
            var low = 0, high = deletionHashes.count
            while low < high {
                let mid = (low + high) / 2
                if deletionHashes[mid] < hash { low = mid + 1 } else { high = mid }
            }
            while low < deletionHashes.count, deletionHashes[low] == hash {
                let candidate = Int(deletionWords[low])
                if words[candidate] != word && Self.isOneEdit(word, words[candidate]) { found.insert(candidate) }
                low += 1
            }
        }
        return found.sorted { (frequency[$0], words[$1]) > (frequency[$1], words[$0]) }.prefix(limit).map { words[$0] }
    }

    func contains(_ word: String) -> Bool { index(of: word) != nil }

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
