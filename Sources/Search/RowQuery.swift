import Foundation
import ArrayBlob

/// A condition on a row of the ``SearchIndex``.
enum RowCondition {
    /// Holds one of the words (in one of the columns) of the match.
    case words(TermIndex.Match)
    /// Lies in one of these grid cells (sorted).
    case cells([Int32])
}

extension SearchIndex {
    /// Lists merged one row at a time at most this many; more are marked in a bit set.
    static let mergedListLimit = 12
    /// A driving condition with more (row, word) pairs than this is answered by a scan of the
    /// rows in order (its rows are then common enough that the first matches come early).
    static let markLimit = 4_096
    /// Such a scan reads at most this many rows, the most important first (rows are numbered by
    /// importance): its cost grows with the rows it reads, and a country holds millions — past the
    /// first 400,000 the word stages near the focus and the name starts find the rest. (A city's
    /// rows are all read, as before.)
    static let commonScanRows = 400_000

    /// The first `limit` rows (ascending: most important first) meeting every condition and
    /// `accept` — what `… MATCH 'a b c*' AND <filter> ORDER BY rowid LIMIT n` returned. `marks`
    /// keeps the bit sets of common words for the query's next calls.
    func firstRows(allOf conditions: [RowCondition], limit: Int, marks: RowMarks? = nil, accept: (Int) -> Bool) -> [Int] {
        guard limit > 0, !conditions.isEmpty else { return [] }
        let sizes = conditions.map(size)
        guard let driver = sizes.indices.min(by: { sizes[$0] < sizes[$1] }), sizes[driver] > 0 else { return [] }
        var out: [Int] = []
        if sizes[driver] > Self.markLimit {
            // Common words: the first rows in order, the cheapest test (cells) first — common
            // words meet early. Then a driver small enough to mark is intersected in bit sets (a
            // rare conjunction of common words — "phường 1 vĩnh long" — would otherwise read a
            // driver's or the scan's every row); a larger one of many lists is scanned on.
            let order = conditions.indices.sorted { a, b in
                if case .cells = conditions[a], case .words = conditions[b] { return true }
                if case .words = conditions[a], case .cells = conditions[b] { return false }
                return sizes[a] < sizes[b]
            }
            let marking = sizes[driver] <= Self.commonScanRows
            let scanning = listCount(conditions[driver]) > Self.mergedListLimit
            if marking || scanning {
                let scanned = min(places.count, marking ? Self.scanBeforeMarking : min(Self.commonScanRows, testedRowsLimit))
                rows: for row in 0..<scanned {
                    for index in order where !holds(row, conditions[index]) { continue rows }
                    guard accept(row) else { continue }
                    out.append(row)
                    if out.count == limit { return out }
                }
                if marking && scanned < places.count {
                    firstMarkedRows(allOf: conditions, sizes: sizes, from: scanned, limit: limit, marks: marks, into: &out, accept: accept)
                }
                return out
            }
        }
        var tested = 0
        let testLimit = sizes[driver] > Self.commonScanRows ? testedRowsLimit : Int.max
        forEachRow(of: CollectionOfOne(conditions[driver]), size: sizes[driver]) { row in
            tested += 1
            if tested > testLimit { return false }
            for index in conditions.indices where index != driver {
                guard holds(row, conditions[index]) else { return true }
            }
            guard accept(row) else { return true }
            out.append(row)
            return out.count < limit
        }
        return out
    }

    /// Marking a row in a bit set costs about this many times less than testing a row for a
    /// condition (measured on the 64× country: ≈ 2 ns against 50–100 ns).
    static let markingPerTest = 16
    /// On a dataset of more than `commonScanRows` rows (a country), a call tests at most this many
    /// rows — the most important first — once its word conditions are too common to intersect
    /// or intersect in more rows: a selective filter (the units a query names) on common words
    /// would otherwise test hundreds of thousands (10–50 ms). A city never reaches it.
    static let countryTestedRows = 20_000

    /// `countryTestedRows` on a country, else no bound.
    var testedRowsLimit: Int { places.count > Self.commonScanRows ? Self.countryTestedRows : Int.max }

    /// Rows scanned in order before a markable driver is intersected in bit sets instead.
    static let scanBeforeMarking = 4_096

    /// Appends to `out`, ascending, the rows from `start` on meeting every condition and `accept`
    /// until it holds `limit`: the word conditions of at most `commonScanRows` rows are marked in
    /// bit sets (or taken from `marks`), smallest first, and intersected until few rows are left
    /// (marking a row costs a fraction of testing one); the other conditions are tested on the rows left.
    private func firstMarkedRows(allOf conditions: [RowCondition], sizes: [Int], from start: Int, limit: Int,
                                 marks: RowMarks?, into out: inout [Int], accept: (Int) -> Bool) {
        let count = places.count
        let byWords = conditions.indices.filter { if case .words = conditions[$0] { true } else { false } }
            .sorted { sizes[$0] < sizes[$1] }
        let words = (count + 63) / 64
        var bits: [UInt64] = []
        var marked: [Int] = []
        var left = Int.max
        // The smallest is marked (the caller saw it is at most `commonScanRows`); another while
        // that costs less than testing it on the rows left (at most `testedRowsLimit` are).
        for index in byWords where bits.isEmpty ? sizes[index] <= Self.commonScanRows
                                                 : sizes[index] / Self.markingPerTest <= min(left, testedRowsLimit) {
            guard case .words(let match) = conditions[index] else { continue }
            let make = { () -> [UInt64] in
                var set = [UInt64](repeating: 0, count: words)
                var lists: [Range<Int>] = []
                self.terms.lists(match, into: &lists)
                self.terms.postings.withUnsafeBufferPointer { postings in
                    let rows = lists.map { UnsafeBufferPointer(rebasing: postings[$0.clamped(to: 0..<postings.count)]) }
                    set.withUnsafeMutableBufferPointer { self.mark(rows, into: $0) }
                }
                return set
            }
            let set = marks?.rows(of: match, make: make) ?? make()
            marked.append(index)
            if bits.isEmpty {
                bits = set
                left = sizes[index]
                if left <= Self.markLimit { break }
                continue
            }
            left = 0
            bits.withUnsafeMutableBufferPointer { b in
                set.withUnsafeBufferPointer { s in
                    for w in 0..<words {
                        b[w] &= s[w]
                        left &+= b[w].nonzeroBitCount
                    }
                }
            }
            if left <= Self.markLimit { break }
        }
        guard !bits.isEmpty else { return }
        let rest = conditions.indices.filter { !marked.contains($0) }
        var word = start >> 6
        var value = word < words ? bits[word] & (UInt64.max << UInt64(start & 63)) : 0
        var tested = 0
        let testLimit = testedRowsLimit
        while word < words {
            while value != 0 {
                let row = word << 6 | value.trailingZeroBitCount
                value &= value - 1
                tested += 1
                if tested > testLimit { return }
                guard rest.allSatisfy({ holds(row, conditions[$0]) }), accept(row) else { continue }
                out.append(row)
                if out.count == limit { return }
            }
            word += 1
            if word < words { value = bits[word] }
        }
    }

    /// Sets the bit of every row of `lists` (a damaged row past the places is left out).
    private func mark(_ lists: [UnsafeBufferPointer<UInt32>], into bits: UnsafeMutableBufferPointer<UInt64>) {
        let count = min(places.count, bits.count << 6)
        for list in lists {
            for row in list where Int(row) < count {
                bits[Int(row) >> 6] |= 1 << UInt64(row & 63)
            }
        }
    }

    /// How many sorted lists make up the rows of `condition`.
    private func listCount(_ condition: RowCondition) -> Int {
        switch condition {
        case .words(let match):
            var lists: [Range<Int>] = []
            terms.lists(match, into: &lists)
            return lists.count
        case .cells(let cells): return cells.count
        }
    }

    /// The `limit` rows nearest to `focus` within `radius` metres meeting every condition and
    /// `accept`, nearest first: the rows of the rarest condition are all read (callers use it for
    /// conditions of at most a few thousand rows — a kind, a chain's name), so the nearest place of
    /// its kind is found however unimportant it is. `maxScan` bounds the rows read.
    func nearestRows(allOf conditions: [RowCondition], focus: Coordinate, radius: Double, limit: Int, maxScan: Int = 20_000,
                     accept: (Int) -> Bool) -> [(row: Int, distance: Double)] {
        guard limit > 0, !conditions.isEmpty else { return [] }
        let sizes = conditions.map(size)
        guard let driver = sizes.indices.min(by: { sizes[$0] < sizes[$1] }), sizes[driver] > 0, sizes[driver] <= maxScan else { return [] }
        // A cheap box test first: degrees of latitude and longitude `radius` spans.
        let dLat = radius / 111_320, dLng = radius / (111_320 * max(0.1, cos(focus.lat * .pi / 180)))
        var found: [(row: Int, distance: Double)] = []
        forEachRow(of: CollectionOfOne(conditions[driver]), size: sizes[driver]) { row in
            guard abs(places.lat[row] - focus.lat) <= dLat, abs(places.lng[row] - focus.lng) <= dLng else { return true }
            for index in conditions.indices where index != driver {
                guard holds(row, conditions[index]) else { return true }
            }
            let d = focus.distance(to: places.coordinate(row))
            guard d <= radius, accept(row) else { return true }
            found.append((row, d))
            return true
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.row < $1.row }
        return Array(found.prefix(limit))
    }

    /// The first `limit` rows holding any of the matches and meeting `accept` (a query of words joined by OR).
    func firstRows(anyOf matches: [TermIndex.Match], limit: Int, accept: (Int) -> Bool) -> [Int] {
        let conditions = matches.filter { !$0.isEmpty }.map { RowCondition.words($0) }
        guard limit > 0, !conditions.isEmpty else { return [] }
        var out: [Int] = []
        forEachRow(of: conditions, size: conditions.map(size).reduce(0, +)) { row in
            guard accept(row) else { return true }
            out.append(row)
            return out.count < limit
        }
        return out
    }

    /// An upper bound of the rows meeting `condition`.
    private func size(_ condition: RowCondition) -> Int {
        switch condition {
        case .words(let match): return terms.postingCount(match)
        case .cells(let cells): return cells.reduce(0) { $0 + cellRange($1).count }
        }
    }

    @inline(__always)
    private func holds(_ row: Int, _ condition: RowCondition) -> Bool {
        switch condition {
        case .words(let match): return terms.contains(row, match)
        case .cells(let cells): return cells.contains(places.cell[row])
        }
    }

    /// Calls `body` with every row meeting any of `conditions`, ascending, once each, until it returns false.
    private func forEachRow<C: Collection<RowCondition>>(of conditions: C, size: Int, _ body: (Int) -> Bool) {
        // The sorted lists: word postings (`postings`) or cell rows (`cellRows`).
        var wordLists: [Range<Int>] = []
        var cellLists: [Range<Int>] = []
        for condition in conditions {
            switch condition {
            case .words(let match): terms.lists(match, into: &wordLists)
            case .cells(let cells): for cell in cells { cellLists.append(cellRange(cell)) }
            }
        }
        let listCount = wordLists.count + cellLists.count
        if size > Self.markLimit && listCount > Self.mergedListLimit {
            // Common rows: the first ones in row order come soon.
            for row in 0..<min(places.count, Self.commonScanRows) where conditions.contains(where: { holds(row, $0) }) {
                guard body(row) else { return }
            }
            return
        }
        terms.postings.withUnsafeBufferPointer { postings in
            cellRows.withUnsafeBufferPointer { cellRows in
                var lists: [UnsafeBufferPointer<UInt32>] = wordLists.map { UnsafeBufferPointer(rebasing: postings[$0]) }
                lists += cellLists.map { UnsafeBufferPointer(rebasing: cellRows[$0]) }
                if lists.count == 1 {
                    for row in lists[0] { guard body(Int(row)) else { return } }
                } else if lists.count <= Self.mergedListLimit {
                    // Merge: the smallest head each step; equal heads advance together.
                    var heads = [Int](repeating: 0, count: lists.count)
                    while true {
                        var smallest = UInt32.max
                        var found = false
                        for i in 0..<lists.count where heads[i] < lists[i].count {
                            let value = lists[i][heads[i]]
                            if !found || value < smallest { smallest = value; found = true }
                        }
                        guard found else { return }
                        for i in 0..<lists.count where heads[i] < lists[i].count && lists[i][heads[i]] == smallest { heads[i] += 1 }
                        guard body(Int(smallest)) else { return }
                    }
                } else {
                    // Many lists: mark their rows in a bit set, then read it in order.
                    var bits = [UInt64](repeating: 0, count: (places.count + 63) / 64)
                    bits.withUnsafeMutableBufferPointer { mark(lists, into: $0) }
                    for word in bits.indices {
                        var value = bits[word]
                        while value != 0 {
                            let bit = value.trailingZeroBitCount
                            guard body(word << 6 | bit) else { return }
                            value &= value - 1
                        }
                    }
                }
            }
        }
    }

    /// The range of `cellRows` holding the rows of `cell`.
    func cellRange(_ cell: Int32) -> Range<Int> {
        var low = 0, high = cellKeys.count
        while low < high {
            let mid = (low + high) / 2
            if cellKeys[mid] < cell { low = mid + 1 } else { high = mid }
        }
        guard low < cellKeys.count, cellKeys[low] == cell else { return 0..<0 }
        return Int(cellStart[low])..<Int(cellStart[low + 1])
    }
}
