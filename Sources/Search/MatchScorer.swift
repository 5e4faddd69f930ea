import Foundation

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
    /// Extra text score for a name that is exactly the query.
    static let exactBonus = 0.3
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

    init(queryTokens: [String], focus: Coordinate?, isKindQuery: Bool = false) {
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
    }

    /// The words of one candidate's folded keys, as ranges of the arena; one value reused for
    /// every candidate of a request (no allocation per candidate).
    struct PlaceWords {
        /// The name's words, then each other name's; `nameEnds[i]` ends name `i`.
        var names: [Range<Int>] = []
        var nameEnds: [Int] = []
        var kind: [Range<Int>] = []
        /// The address's words, split on first use (most matches never need them).
        private(set) var address: [Range<Int>] = []
        private var addressSpans: (Range<Int>, Range<Int>) = (0..<0, 0..<0)
        private var addressSplit = false

        init() {}

        mutating func load(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>) {
            names.removeAll(keepingCapacity: true)
            nameEnds.removeAll(keepingCapacity: true)
            kind.removeAll(keepingCapacity: true)
            Self.split(places.span(row, .nameKey), arena, into: &names)
            nameEnds.append(names.count)
            // Other names: "|"-separated; empty ones are skipped.
            let aliases = places.span(row, .aliasKey)
            var start = aliases.lowerBound
            for i in aliases.lowerBound...aliases.upperBound where i == aliases.upperBound || arena[i] == UInt8(ascii: "|") {
                if i > start {
                    Self.split(start..<i, arena, into: &names)
                    nameEnds.append(names.count)
                }
                start = i + 1
            }
            Self.split(places.span(row, .kindKey), arena, into: &kind)
            addressSpans = (places.span(row, .streetKey), places.groupSpan(row))
            addressSplit = false
        }

        mutating func addressWords(_ arena: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
            if !addressSplit {
                address.removeAll(keepingCapacity: true)
                Self.split(addressSpans.0, arena, into: &address)
                Self.split(addressSpans.1, arena, into: &address)
                addressSplit = true
            }
            return address
        }

        /// The space-separated words of `span`, empty ones skipped.
        static func split(_ span: Range<Int>, _ arena: UnsafeBufferPointer<UInt8>, into out: inout [Range<Int>]) {
            var start = span.lowerBound
            for i in span.lowerBound...span.upperBound where i == span.upperBound || arena[i] == UInt8(ascii: " ") {
                if i > start { out.append(start..<i) }
                start = i + 1
            }
        }
    }

    /// The best score of row `row` under its name or any other name (`words` loaded for it).
    func score(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>, words: inout PlaceWords) -> Score {
        query.withUnsafeBufferPointer { query in
            var best = score(row, places, arena, query, name: 0..<words.nameEnds[0], words: &words)
            for i in words.nameEnds.indices.dropFirst() {
                let s = score(row, places, arena, query, name: words.nameEnds[i - 1]..<words.nameEnds[i], words: &words)
                if s.value > best.value { best = s }
            }
            return best
        }
    }

    /// The score of the row as if its name were `words.names[name]` (its name or one of its other names).
    private func score(_ row: Int, _ places: PlaceColumns, _ arena: UnsafeBufferPointer<UInt8>, _ query: UnsafeBufferPointer<UInt8>,
                       name allName: Range<Int>, words: inout PlaceWords) -> Score {
        @inline(__always) func equal(_ a: Range<Int>, _ q: Range<Int>) -> Bool {
            a.count == q.count && memcmp(arena.baseAddress! + a.lowerBound, query.baseAddress! + q.lowerBound, q.count) == 0
        }
        @inline(__always) func starts(_ a: Range<Int>, _ q: Range<Int>) -> Bool {
            a.count >= q.count && memcmp(arena.baseAddress! + a.lowerBound, query.baseAddress! + q.lowerBound, q.count) == 0
        }
        @inline(__always) func equal(_ a: Range<Int>, _ word: [UInt8]) -> Bool {
            a.count == word.count && word.withUnsafeBufferPointer { memcmp(arena.baseAddress! + a.lowerBound, $0.baseAddress!, a.count) == 0 }
        }
        let kindOfPlace = places.kind[row]
        var name = allName
        if kindOfPlace == UInt8(PlaceKind.admin.rawValue) {
            // The longest admin prefix the name starts with, dropped unless it holds a query word.
            var longest: Int?
            for (index, prefix) in Self.adminPrefixes.enumerated()
            where prefix.count <= name.count && prefix.count > (longest.map { Self.adminPrefixes[$0].count } ?? 0) {
                if zip(name.lowerBound..<name.lowerBound + prefix.count, prefix).allSatisfy({ equal(words.names[$0], $1) }) {
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
            let isLast = i == queryCount - 1
            var best = 0.0
            for n in name {
                let word = words.names[n]
                if equal(word, q) { best = 1; break }
                if starts(word, q) { best = max(best, isLast ? 0.9 : 0.5) }
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
            let first = words.names[name.lowerBound]
            if equal(first, q) || (queryCount == 1 && starts(first, q)) { startsWith = 1 }
        }
        var houseNumberBonus = 0.0
        if kindOfPlace == UInt8(PlaceKind.address.rawValue), nameCount > 0 {
            let number = words.names[name.lowerBound]
            if number.count > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(arena[number.lowerBound]),
               queryWords.contains(where: { equal(number, $0) }) {
                houseNumberBonus = 0.1
            }
        }
        // The name is exactly what was typed (the last word possibly still being typed).
        // (Half when the last word is only a prefix of the name's: "district 1" is exactly District 1,
        // only possibly District 10.)
        var exactBonus = nameCount == queryCount && matchedInName >= Double(queryCount) - 0.1
            && !(isKindQuery && matchedInKind < queryCount) ? Self.exactBonus : 0
        if exactBonus > 0 && matchedInName < Double(queryCount) { exactBonus /= 2 }
        var kindBonus = 0.0
        if matchedInKind == queryCount {
            // The whole query names the kind ("cà phê", "atm"): as good as a full name match,
            // and better than a place merely named so ("Cafe", an artwork).
            tightness = 1
            startsWith = 1
            kindBonus = Self.kindBonus
        }
        let text = 0.6 * coverage + 0.3 * tightness + 0.1 * startsWith + houseNumberBonus + kindBonus + exactBonus
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
        return Score(value: value, coverage: coverage, distance: distance, complete: complete)
    }

    /// The space-separated words of a folded key.
    static func words(_ key: String) -> [ArraySlice<UInt8>] {
        Array(key.utf8).split(separator: UInt8(ascii: " "))
    }
}
