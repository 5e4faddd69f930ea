import ArrayBlob
import Foundation
import SQLiteStore

/// The folded words of every name, for correcting one typing error ("thnah" → "thanh",
/// "bitexxo" → "bitexco", "vie" → "vien"): one substitution, omission, insertion or
/// transposition. Built from the name index's vocabulary; looked up through
/// single-deletion keys (a word and a typo one edit apart share a key), so a look-up costs a
/// few hash probes. Only used when the query as typed matches no name fully.
///
/// Built at import with ``SearchIndex`` and stored in its blob (the hashes are FNV-1a, the same
/// in every process), so no query pays for building it.
struct TypoVocabulary: Sendable {
    /// The words' UTF-8, sorted by bytes: word `i` is `wordBytes[wordEnds[i - 1]..<wordEnds[i]]`
    /// (from 0 for the first); and how many names hold each.
    let wordBytes: StoredArray<UInt8>
    let wordEnds: StoredArray<UInt32>
    let frequency: StoredArray<Int32>
    /// (hash of a word with one letter deleted, or of the word itself; index of the word),
    /// sorted: hashes, not strings, and flat arrays keep it small (a map of arrays was 2 MB);
    /// candidates are verified with ``isOneEdit(_:_:)``.
    let deletionHashes: StoredArray<UInt64>
    let deletionWords: StoredArray<Int32>

    init(wordBytes: StoredArray<UInt8>, wordEnds: StoredArray<UInt32>, frequency: StoredArray<Int32>,
         deletionHashes: StoredArray<UInt64>, deletionWords: StoredArray<Int32>) {
        (self.wordBytes, self.wordEnds, self.frequency) = (wordBytes, wordEnds, frequency)
        (self.deletionHashes, self.deletionWords) = (deletionHashes, deletionWords)
    }

    /// Number of words.
    var count: Int { wordEnds.count }

    /// The bytes of word `i` in `wordBytes`.
    private func span(_ i: Int) -> Range<Int> { (i == 0 ? 0 : Int(wordEnds[i - 1]))..<Int(wordEnds[i]) }

    /// Word `i`.
    func word(_ i: Int) -> String {
        let range = span(i)
        return wordBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Byte order of word `i` against `bytes`.
    private func compare(_ i: Int, _ bytes: [UInt8]) -> Int {
        let range = span(i)
        return wordBytes.withUnsafeBufferPointer { all in
            bytes.withUnsafeBufferPointer { b in
                let common = min(range.count, b.count)
                let c = common == 0 ? 0 : Int(memcmp(all.baseAddress! + range.lowerBound, b.baseAddress!, common))
                return c != 0 ? c : range.count - b.count
            }
        }
    }

    /// Whether the arrays agree (a damaged blob never traps).
    var isConsistent: Bool {
        count == frequency.count && deletionHashes.count == deletionWords.count
            && zip(wordEnds, wordEnds.dropFirst()).allSatisfy { $0 <= $1 } && (wordEnds.last.map { Int($0) == wordBytes.count } ?? wordBytes.isEmpty)
            && deletionWords.allSatisfy { $0 >= 0 && Int($0) < count }
            && zip(deletionHashes, deletionHashes.dropFirst()).allSatisfy { $0 <= $1 }
            && (1..<max(1, count)).allSatisfy { compare($0 - 1, Array(wordBytes[span($0)])) < 0 }
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
        let words = frequency.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var deletions: [(hash: UInt64, word: Int32)] = []
        var wordBytes: [UInt8] = [], wordEnds: [UInt32] = []
        for (index, word) in words.enumerated() {
            for key in Self.deletionKeys(word) { deletions.append((Self.stableHash(key), Int32(index))) }
            wordBytes += word.utf8
            wordEnds.append(UInt32(wordBytes.count))
        }
        deletions.sort { ($0.hash, $0.word) < ($1.hash, $1.word) }
        self.init(wordBytes: StoredArray(wordBytes), wordEnds: StoredArray(wordEnds),
                  frequency: StoredArray(words.map { Int32(clamping: frequency[$0] ?? 0) }),
                  deletionHashes: StoredArray(deletions.map(\.hash)), deletionWords: StoredArray(deletions.map(\.word)))
    }

    /// The index of `word` among the words, if it is one.
    private func index(of word: String) -> Int? {
        let bytes = Array(word.utf8)
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if compare(mid, bytes) < 0 { low = mid + 1 } else { high = mid }
        }
        return low < count && compare(low, bytes) == 0 ? low : nil
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
                let text = self.word(candidate)
                if text != word && Self.isOneEdit(word, text) { found.insert(candidate) }
                low += 1
            }
        }
        let words = Dictionary(uniqueKeysWithValues: found.map { ($0, self.word($0)) })
        return found.sorted { (frequency[$0], words[$1]!) > (frequency[$1], words[$0]!) }.prefix(limit).map { words[$0]! }
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
