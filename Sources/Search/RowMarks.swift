/// The rows of word conditions as bit sets, kept for one query: its readings and stages test the
/// same words again ("phường", "1", "vĩnh" in every reading), and a kept set is reused by one AND
/// instead of being marked from its postings anew. Not shared between threads.
final class RowMarks {
    /// Sets kept at most (each `places.count / 8` bytes: 275 KB for 2.2 M places).
    static let capacity = 24

    private struct Key: Hashable {
        let lower: Int, upper: Int, columns: UInt8
    }

    private var sets: [Key: [UInt64]] = [:]

    /// The bit set of `match`'s rows, made by `make` the first time (and kept while there is room).
    func rows(of match: TermIndex.Match, make: () -> [UInt64]) -> [UInt64] {
        let key = Key(lower: match.lower, upper: match.upper, columns: match.columns.rawValue)
        if let set = sets[key] { return set }
        let set = make()
        if sets.count < Self.capacity { sets[key] = set }
        return set
    }
}
