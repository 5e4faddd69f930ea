import ArrayBlob
import Foundation

/// The words of every place by column (read in place from the dataset): a sorted vocabulary, for each column the rows
/// holding each word (ascending: importance order) and the words of each row. It holds what
/// the dataset's FTS5 tables hold (read from them at import), so "every word in the name, the
/// last as a prefix, most important first" is answered without SQL.
final class TermIndex: Sendable {
    /// The indexed columns: `name` (the name and other names), `address` (street and unit names
    /// of both schemes), `kind` (words for the place's kind).
    enum Column: Int, CaseIterable {
        case name, address, kind
    }
    static let columnCount = Column.allCases.count

    /// A set of columns, as bits.
    struct Columns: OptionSet, Sendable {
        let rawValue: UInt8
        static let name = Columns(rawValue: 1 << 0)
        static let address = Columns(rawValue: 1 << 1)
        static let kind = Columns(rawValue: 1 << 2)
    }

    /// Sorted (by bytes) distinct words: word `t` is `vocabulary[termStart[t]..<termStart[t + 1]]`.
    let vocabulary: StoredArray<UInt8>
    let termStart: StoredArray<UInt32>
    /// Per column `c`: the rows of word `t` are `postings[postingStarts[c·(T+1) + t]..<postingStarts[c·(T+1) + t + 1]]`
    /// (T words; one array for every column, column after column).
    let postingStarts: StoredArray<UInt32>
    let postings: StoredArray<UInt32>
    /// Per column `c`: the words of row `d` (ascending) are `rowTerms[rowStarts[c·(N+1) + d]..<rowStarts[c·(N+1) + d + 1]]` (N rows).
    let rowStarts: StoredArray<UInt32>
    let rowTerms: StoredArray<UInt32>
    private let rowStride: Int

    /// The posting starts of one column (`termCount + 1` of them).
    func postingStart(_ column: Int) -> Slice<StoredArray<UInt32>> {
        postingStarts[column * (termCount + 1)..<(column + 1) * (termCount + 1)]
    }

    /// The row starts of one column (`rows + 1` of them).
    func rowStart(_ column: Int) -> Slice<StoredArray<UInt32>> {
        rowStarts[column * rowStride..<(column + 1) * rowStride]
    }

    var termCount: Int { termStart.count - 1 }

    /// The index of `rows` places from its arrays (``postingStarts`` and ``rowStarts`` of every column, joined).
    init(vocabulary: StoredArray<UInt8>, termStart: StoredArray<UInt32>, postingStarts: StoredArray<UInt32>, postings: StoredArray<UInt32>,
         rowStarts: StoredArray<UInt32>, rowTerms: StoredArray<UInt32>, rows: Int) {
        (self.vocabulary, self.termStart, self.postings, self.rowTerms) = (vocabulary, termStart, postings, rowTerms)
        (self.postingStarts, self.rowStarts) = (postingStarts, rowStarts)
        rowStride = rows + 1
    }

    /// Whether its arrays agree with each other and with `rows` places (a damaged blob never traps).
    func isConsistent(rows: Int) -> Bool {
        let termCount = termStart.count - 1
        guard termCount >= 0, termStart.last.map({ Int($0) == vocabulary.count }) ?? false,
              zip(termStart, termStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              postings.allSatisfy({ Int($0) < rows }), rowTerms.allSatisfy({ Int($0) < termCount }),
              postingStarts.count == Self.columnCount * (termCount + 1), rowStarts.count == Self.columnCount * (rows + 1)
        else { return false }
        for c in 0..<Self.columnCount {
            let posting = postingStart(c), row = rowStart(c)
            guard Int(posting.last!) <= postings.count, Int(row.last!) <= rowTerms.count,
                  zip(posting, posting.dropFirst()).allSatisfy({ $0 <= $1 }), zip(row, row.dropFirst()).allSatisfy({ $0 <= $1 })
            else { return false }
        }
        return true
    }

    /// The words a query word stands for: `lower..<upper` in the vocabulary, in `columns`.
    struct Match: Sendable {
        var lower: Int
        var upper: Int
        var columns: Columns
        var isEmpty: Bool { lower >= upper }
    }

    /// Word `word` itself, or with `prefix` every word starting with it.
    func match(_ word: [UInt8], prefix: Bool, in columns: Columns) -> Match {
        let lower = lowerBound(word)
        var upper = lower
        if prefix {
            var high = termCount
            while upper < high {
                let mid = (upper + high) / 2
                if hasPrefix(mid, word) { upper = mid + 1 } else { high = mid }
            }
        } else if lower < termCount && compare(lower, word) == 0 {
            upper = lower + 1
        }
        return Match(lower: lower, upper: upper, columns: columns)
    }

    /// How many (row, word) pairs the match covers: an upper bound of its rows.
    func postingCount(_ match: Match) -> Int {
        guard !match.isEmpty else { return 0 }
        var total = 0
        for column in 0..<Self.columnCount where match.columns.rawValue & (1 << column) != 0 {
            let base = column * (termCount + 1)
            total += Int(postingStarts[base + match.upper]) - Int(postingStarts[base + match.lower])
        }
        return total
    }

    /// Whether row `doc` holds a word of `match` in one of its columns.
    @inline(__always)
    func contains(_ doc: Int, _ match: Match) -> Bool {
        guard !match.isEmpty else { return false }
        return rowTerms.withUnsafeBufferPointer { terms in
            for column in 0..<Self.columnCount where match.columns.rawValue & (1 << column) != 0 {
                let end = Int(rowStarts[column * rowStride + doc + 1])
                var i = Int(rowStarts[column * rowStride + doc])
                // A row holds a handful of words: a linear pass beats a binary search.
                while i < end && Int(terms[i]) < match.lower { i += 1 }
                if i < end && Int(terms[i]) < match.upper { return true }
            }
            return false
        }
    }

    /// The sorted row lists of a match (one per word and column), as ranges of `postings`.
    func lists(_ match: Match, into out: inout [Range<Int>]) {
        guard !match.isEmpty else { return }
        for column in 0..<Self.columnCount where match.columns.rawValue & (1 << column) != 0 {
            let base = column * (termCount + 1)
            for term in base + match.lower..<base + match.upper where postingStarts[term] < postingStarts[term + 1] {
                out.append(Int(postingStarts[term])..<Int(postingStarts[term + 1]))
            }
        }
    }

    private func lowerBound(_ word: [UInt8]) -> Int {
        var low = 0, high = termCount
        while low < high {
            let mid = (low + high) / 2
            if compare(mid, word) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func compare(_ term: Int, _ word: [UInt8]) -> Int {
        let start = Int(termStart[term]), count = Int(termStart[term + 1]) - start
        return vocabulary.withUnsafeBufferPointer { v in
            word.withUnsafeBufferPointer { w in
                let common = min(count, w.count)
                let c = common == 0 ? 0 : Int(memcmp(v.baseAddress! + start, w.baseAddress!, common))
                return c != 0 ? c : count - w.count
            }
        }
    }

    private func hasPrefix(_ term: Int, _ word: [UInt8]) -> Bool {
        let start = Int(termStart[term]), count = Int(termStart[term + 1]) - start
        guard count >= word.count else { return false }
        guard !word.isEmpty else { return true }
        return vocabulary.withUnsafeBufferPointer { v in
            word.withUnsafeBufferPointer { memcmp(v.baseAddress! + start, $0.baseAddress!, word.count) == 0 }
        }
    }
}

extension TermIndex {
    /// Builds the index from (word, row, column) triples; `rows` is the number of rows.
    convenience init(triples: [(term: String, doc: Int, column: Column)], rows: Int) {
        var words = Array(Set(triples.map(\.term))).map { Array($0.utf8) }
        words.sort { $0.lexicographicallyPrecedes($1) }
        var number: [String: UInt32] = Dictionary(minimumCapacity: words.count)
        var vocabulary: [UInt8] = []
        var termStart: [UInt32] = [0]
        for (i, word) in words.enumerated() {
            number[String(decoding: word, as: UTF8.self)] = UInt32(i)
            vocabulary += word
            termStart.append(UInt32(vocabulary.count))
        }
        var pairs = [[(term: UInt32, doc: UInt32)]](repeating: [], count: Self.columnCount)
        for triple in triples {
            pairs[triple.column.rawValue].append((number[triple.term]!, UInt32(triple.doc)))
        }
        var postingStart: [UInt32] = [], postings: [UInt32] = [], rowStart: [UInt32] = [], rowTerms: [UInt32] = []
        for column in 0..<Self.columnCount {
            var byTerm = pairs[column]
            byTerm.sort { ($0.term, $0.doc) < ($1.term, $1.doc) }
            var unique: [(term: UInt32, doc: UInt32)] = []
            for pair in byTerm where unique.last.map({ $0 != pair }) ?? true { unique.append(pair) }
            postingStart += Self.starts(unique.map(\.term), count: words.count).map { $0 + UInt32(postings.count) }
            postings += unique.map(\.doc)
            let byDoc = unique.sorted { ($0.doc, $0.term) < ($1.doc, $1.term) }
            rowStart += Self.starts(byDoc.map(\.doc), count: rows).map { $0 + UInt32(rowTerms.count) }
            rowTerms += byDoc.map(\.term)
        }
        self.init(vocabulary: StoredArray(vocabulary), termStart: StoredArray(termStart), postingStarts: StoredArray(postingStart),
                  postings: StoredArray(postings), rowStarts: StoredArray(rowStart), rowTerms: StoredArray(rowTerms), rows: rows)
    }

    /// Start offsets (`count + 1` of them) of the groups of a sorted key list.
    private static func starts(_ sortedKeys: [UInt32], count: Int) -> [UInt32] {
        var starts = [UInt32](repeating: 0, count: count + 1)
        for key in sortedKeys { starts[Int(key) + 1] += 1 }
        for i in 0..<count { starts[i + 1] += starts[i] }
        return starts
    }
}
