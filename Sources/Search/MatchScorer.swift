import Foundation
import ArrayBlob

/// Ranks candidates: how well the query's words match the place's name (and, less, its
/// address), how important the place is, and how close it is to the focus.
///
/// Works on the UTF-8 bytes of the folded keys in ``PlaceColumns``' arena, without copying
/// them: this runs for every candidate of every keystroke.
struct MatchScorer {
    /// The query words, each a range of `query`.
    let query: [UInt8]
    let queryWords: [Range<Int>]
    let focus: Coordinate?

    /// Weights of the signals. Text dominates; importance and proximity break ties between
    /// equally good text matches and lift major places above obscure ones.
    static let importanceWeight = 0.5
    static let proximityWeight = 0.35
    /// Extra text score for a place whose kind is the whole query.
    static let kindBonus = 0.1
    /// Extra text score for a name that is exactly the query (half when its words come in another order).
    static let exactBonus = 0.3
    /// Extra text score for a name that begins with the query's words, in order: typing a name from
    /// its start converges on it (more than importance adds between places 0.5 apart: "chat" → Chất
    /// Coffee, not Bảo Tàng Địa Chất, whose name merely holds the word).
    static let orderBonus = 0.3
    /// Taken off a match by one of the other names (`alt_name`, `name:en`, …).
    static let otherNamePenalty = 0.05
    /// Proximity decays as exp(-d / 2 km).
    static let proximityScaleMeters = 2_000.0
    /// Administrative prefixes (folded): "Thành Phố Hà Nội" should match "ha noi" as tightly as "Hà Nội".
    static let adminPrefixes: [[[UInt8]]] = ["thanh pho", "tinh", "phuong", "xa", "quan", "huyen", "thi xa", "thi tran", "dac khu"]
        .map { $0.split(separator: " ").map { Array($0.utf8) } }

    /// Every query word is a kind word ("cà phê", "atm"): a place merely *named* so gets no exact-name bonus.
    let isKindQuery: Bool
    /// For each of `adminPrefixes`: whether none of its words is a query word (only then is it
    /// dropped from a unit's name).
    private let droppablePrefix: [Bool]
    /// How many query words start with a digit (a house number a street's name cannot hold).
    private let numberWords: Int

    /// The last query word may still be being typed (a name word it begins counts almost as
    /// equal); false for a reading whose last word is complete ("22 tháng 1" is not "… tháng 12").
    let lastIsPrefix: Bool

    init(queryTokens: [String], focus: Coordinate?, isKindQuery: Bool = false, lastIsPrefix: Bool = true) {
        self.lastIsPrefix = lastIsPrefix
        var query: [UInt8] = []
        var words: [Range<Int>] = []
        for token in queryTokens {
            let start = query.count
            query += token.utf8
            words.append(start..<query.count)
        }
        self.query = query
        self.queryWords = words
        self.focus = focus
        self.isKindQuery = isKindQuery
        let tokens = queryTokens.map { Array($0.utf8) }
        droppablePrefix = Self.adminPrefixes.map { prefix in !prefix.contains(where: { tokens.contains($0) }) }
        numberWords = tokens.filter { $0.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } == true }.count
    }

    struct Score {
        var value: Double
        /// Share of query words found in the name or address (0…1).
        var coverage: Double
        var distance: Double?
        /// Every query word is in the name (or the kind): the query as typed found this place.
        var complete: Bool
        /// Every query word is a word of the place's kind (a category query finds a place of that kind).
        var kindMatch = false
    }

    /// The words of one candidate's folded keys, as ranges of the arena; one buffer reused for
    /// every candidate of a request (no allocation per candidate).
    final class PlaceWords {
        /// Word `i` is `arena[start[i]..<end[i]]`.
        private(set) var start: UnsafeMutablePointer<Int32>
        private(set) var end: UnsafeMutablePointer<Int32>
        private var capacity = 256
        private(set) var count = 0
        /// The name's words, then each other name's: name `i` ends at word `nameEnds[i]`.
        private(set) var nameEnds: [Int] = []
        /// The kind's words.
        private(set) var kind: Range<Int> = 0..<0
        /// The address's words, split on first use (most matches never need them).
        private var address: Range<Int>?
        private var addressSpans: (Range<Int>, Range<Int>) = (0..<0, 0..<0)

        init() {
            start = .allocate(capacity: capacity)
            end = .allocate(capacity: capacity)
        }

        deinit {
            start.deallocate()
            end.deallocate()
        }

        func load(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>) {
            count = 0
            nameEnds.removeAll(keepingCapacity: true)
            split(places.span(row, .nameKey), arena)
            nameEnds.append(count)
            // Other names: "|"-separated; empty ones are skipped.
            let aliases = places.span(row, .aliasKey)
            var from = aliases.lowerBound
            for i in aliases.lowerBound...aliases.upperBound where i == aliases.upperBound || arena[i] == UInt8(ascii: "|") {
                if i > from {
                    split(from..<i, arena)
                    nameEnds.append(count)
                }
                from = i + 1
            }
            let kindStart = count
            split(places.span(row, .kindKey), arena)
            kind = kindStart..<count
            addressSpans = (places.span(row, .streetKey), places.groupSpan(row))
            address = nil
        }

        func addressWords(_ arena: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            if let address { return address }
            let from = count
            split(addressSpans.0, arena)
            split(addressSpans.1, arena)
            address = from..<count
            return from..<count
        }

        /// Appends the space-separated words of `span`, empty ones skipped.
        private func split(_ span: Range<Int>, _ arena: UnsafeBufferPointer<UInt8>) {
            var from = span.lowerBound
            var i = span.lowerBound
            while i <= span.upperBound {
                if i == span.upperBound || arena[i] == UInt8(ascii: " ") {
                    if i > from { append(from, i) }
                    from = i + 1
                }
                i += 1
            }
        }

        @inline(__always)
        private func append(_ from: Int, _ to: Int) {
            if count == capacity { grow() }
            start[count] = Int32(truncatingIfNeeded: from)
            end[count] = Int32(truncatingIfNeeded: to)
            count += 1
        }

        private func grow() {
            let bigger = capacity * 2
            let newStart = UnsafeMutablePointer<Int32>.allocate(capacity: bigger), newEnd = UnsafeMutablePointer<Int32>.allocate(capacity: bigger)
            newStart.update(from: start, count: count)
            newEnd.update(from: end, count: count)
            start.deallocate()
            end.deallocate()
            (start, end, capacity) = (newStart, newEnd, bigger)
        }
    }

    /// The best score of row `row` under its name or any other name (`words` loaded for it).
    func score(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>, words: PlaceWords) -> Score {
        query.withUnsafeBufferPointer { query in
            var best = score(row, places, arena, query, name: 0..<words.nameEnds[0], words: words)
            for i in words.nameEnds.indices.dropFirst() {
                var s = score(row, places, arena, query, name: words.nameEnds[i - 1]..<words.nameEnds[i], words: words)
                // (Another name is shown nowhere in the answer: a place called so comes before one
                // also called so, as good a match otherwise.)
                s.value -= Self.otherNamePenalty
                if s.value > best.value { best = s }
            }
            return best
        }
    }

    /// The score of the row as if its name were the words `allName` of `words` (its name or one of its other names).
    private func score(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>, _ query: UnsafeBufferPointer<UInt8>,
                       name allName: Range<Int>, words: PlaceWords) -> Score {
        let bytes = arena.baseAddress!, typed = query.baseAddress!
        @inline(__always) func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
            var i = 0
            while i < n {
                if a[i] != b[i] { return false }
                i += 1
            }
            return true
        }
        /// Word `w` of the place equals query word `q`.
        @inline(__always) func equal(_ w: Int, _ q: Range<Int>) -> Bool {
            let from = Int(words.start[w]), count = Int(words.end[w]) - from
            return count == q.count && same(bytes + from, typed + q.lowerBound, count)
        }
        /// Word `w` of the place starts with query word `q`.
        @inline(__always) func starts(_ w: Int, _ q: Range<Int>) -> Bool {
            let from = Int(words.start[w]), count = Int(words.end[w]) - from
            return count >= q.count && same(bytes + from, typed + q.lowerBound, q.count)
        }
        @inline(__always) func equal(_ w: Int, _ word: [UInt8]) -> Bool {
            let from = Int(words.start[w]), count = Int(words.end[w]) - from
            return count == word.count && word.withUnsafeBufferPointer { same(bytes + from, $0.baseAddress!, count) }
        }
        let kindOfPlace = places.kind[row]
        var name = allName
        if kindOfPlace == UInt8(PlaceKind.admin.rawValue) {
            // The longest admin prefix the name starts with, dropped unless it holds a query word.
            var longest: Int?
            for (index, prefix) in Self.adminPrefixes.enumerated()
            where prefix.count <= name.count && prefix.count > (longest.map { Self.adminPrefixes[$0].count } ?? 0) {
                if zip(name.lowerBound..<name.lowerBound + prefix.count, prefix).allSatisfy({ equal($0, $1) }) {
                    longest = index
                }
            }
            if let longest, droppablePrefix[longest] {
                name = name.lowerBound + Self.adminPrefixes[longest].count..<name.upperBound
            }
        }
        let queryCount = queryWords.count
        var matched = 0.0, matchedInName = 0.0, matchedInKind = 0
        for (i, q) in queryWords.enumerated() {
            let isLast = i == queryCount - 1 && lastIsPrefix
            var best = 0.0
            for n in name {
                if equal(n, q) { best = 1; break }
                if starts(n, q) { best = max(best, isLast ? 0.9 : 0.5) }
            }
            matchedInName += best
            if best < 0.9, !words.kind.isEmpty {
                // Words for the place's kind count like name words: "cafe" is what a café is.
                for k in words.kind where equal(k, q) || (isLast && q.count >= 2 && starts(k, q)) {
                    best = equal(k, q) ? 1 : 0.9
                    matchedInKind += 1
                    break
                }
            }
            if best == 0 {
                // Words of the address count half: "le loi quan 1", "cafe hoan kiem".
                for a in words.addressWords(arena) {
                    if equal(a, q) { best = 0.5; break }
                    if isLast, starts(a, q) { best = 0.4 }
                }
            }
            matched += best
        }
        let n = Double(queryCount)
        let nameCount = name.count
        let coverage = n > 0 ? matched / n : 0
        var tightness = nameCount == 0 ? 0 : min(1, matchedInName / Double(nameCount))
        var startsWith = 0.0
        if nameCount > 0, let q = queryWords.first {
            let first = name.lowerBound
            if equal(first, q) || (queryCount == 1 && starts(first, q)) { startsWith = 1 }
        }
        var houseNumberBonus = 0.0
        if nameCount > 0, let firstQueryWord = queryWords.first {
            // A house address's number anywhere in the query; a place whose name starts with a
            // number ("319 No Trang Long", a shop named by its address) when the query starts with it.
            let number = name.lowerBound
            let isAddress = kindOfPlace == UInt8(PlaceKind.address.rawValue)
            if words.end[number] > words.start[number], (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(arena[Int(words.start[number])]),
               isAddress ? queryWords.contains(where: { equal(number, $0) }) : equal(number, firstQueryWord) {
                houseNumberBonus = 0.1
            }
        }
        // The name begins with the query's words in their order (the last one possibly a prefix):
        // what typing the name from its start gives ("Artinus 3D A" → Artinus 3D Art Museum, not
        // Artinus 3D Museum; "Trường Tiểu học Tân Bình" is not "… Bình Tân").
        var inOrder = nameCount >= queryCount && queryCount > 0
        if inOrder {
            for (i, q) in queryWords.enumerated() {
                let w = name.lowerBound + i
                if !(equal(w, q) || (i == queryCount - 1 && lastIsPrefix && starts(w, q))) { inOrder = false; break }
            }
        }
        // The name is exactly what was typed.
        var exactBonus = nameCount == queryCount && matchedInName >= Double(queryCount) - 0.1
            && !(isKindQuery && matchedInKind < queryCount) ? Self.exactBonus : 0
        // (Not while its last word is still being typed: "An Nhi" is not yet "An Nhiên", no more than
        // the start of "An Nhien Hotel"; "district 1" is exactly District 1, not District 10.)
        if matchedInName < Double(queryCount) { exactBonus = 0 }
        if exactBonus > 0 && !inOrder { exactBonus /= 2 }
        let orderBonus = inOrder ? Self.orderBonus : 0
        // A name that begins with what is typed, while it is typed: how much of it is left says
        // nothing of whether it is the one wanted (only a complete exact name says the typing may be done).
        if inOrder && lastIsPrefix { tightness = min(1, matchedInName / Double(queryCount)) }
        var kindBonus = 0.0
        // (Only for a category query, whole kind phrases: "Cửa", "siêu" are the starts of "Cửa hàng
        // kính Đa Minh", "Siêu thị Hà Nội" before they are the starts of "cửa hàng tiện lợi", "siêu thị".)
        if matchedInKind == queryCount && isKindQuery {
            // The whole query names the kind ("cà phê", "atm"): as good as a full name match,
            // and better than a place merely named so ("Cafe", an artwork).
            tightness = 1
            startsWith = 1
            kindBonus = Self.kindBonus
        }
        let text = 0.6 * coverage + 0.3 * tightness + 0.1 * startsWith + houseNumberBonus + kindBonus + exactBonus + orderBonus
        var value = text + Self.importanceWeight * places.importance[row]
        var distance: Double?
        if let focus {
            let d = focus.distance(to: places.coordinate(row))
            distance = d
            value += Self.proximityWeight * exp(-d / Self.proximityScaleMeters)
        }
        // A house number the street's name cannot hold ("197 trần phú") does not make the street incomplete.
        let numbersOnStreet = kindOfPlace == UInt8(PlaceKind.street.rawValue) ? Double(numberWords) : 0
        let complete = matchedInName + Double(matchedInKind) + numbersOnStreet >= Double(queryCount) - 0.1
        // A category query: every word among the kind's words, whether or not the name holds it too
        // ("Chợ An Sương" is a market for "chợ" although its name says so).
        var kindMatch = false
        if isKindQuery, !words.kind.isEmpty {
            kindMatch = queryWords.allSatisfy { q in words.kind.contains { equal($0, q) } }
        }
        return Score(value: value, coverage: coverage, distance: distance, complete: complete, kindMatch: kindMatch)
    }

    /// The space-separated words of a folded key.
    static func words(_ key: String) -> [ArraySlice<UInt8>] {
        Array(key.utf8).split(separator: UInt8(ascii: " "))
    }
}
