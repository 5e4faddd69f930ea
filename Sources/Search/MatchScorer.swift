import Foundation

/// Ranks candidates: how well the query's words match the place's name (and, less, its
/// address), how important the place is, and how close it is to the focus.
///
/// Works on the folded keys' UTF-8 bytes: this runs for every candidate of every keystroke.
struct MatchScorer {
    let queryTokens: [[UInt8]]
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

    init(queryTokens: [Substring], focus: Coordinate?, isKindQuery: Bool = false) {
        self.queryTokens = queryTokens.map { Array($0.utf8) }
        self.focus = focus
        self.isKindQuery = isKindQuery
    }

    struct Score {
        var value: Double
        /// Share of query words found in the name or address (0…1).
        var coverage: Double
        var distance: Double?
        /// Every query word is in the name (or the kind): the query as typed found this place.
        var complete: Bool
    }

    /// The folded words of a candidate, split once for every reading that scores it.
    struct PlaceWords {
        /// The name's words, then each other name's.
        let names: [[ArraySlice<UInt8>]]
        let kind: [ArraySlice<UInt8>]
        /// The address's words, split on first use (most matches never need them).
        private(set) var address: [ArraySlice<UInt8>]?
        private let addressKey: String

        init(_ place: PlaceRecord) {
            var names = [MatchScorer.words(place.nameKey)]
            if !place.aliasKey.isEmpty {
                for alias in place.aliasKey.split(separator: "|") { names.append(MatchScorer.words(String(alias))) }
            }
            self.names = names
            kind = place.kindKey.isEmpty ? [] : MatchScorer.words(place.kindKey)
            addressKey = place.addressKey
        }

        mutating func addressWords() -> [ArraySlice<UInt8>] {
            if let address { return address }
            let words = MatchScorer.words(addressKey)
            address = words
            return words
        }
    }

    func score(_ place: PlaceRecord) -> Score {
        var words = PlaceWords(place)
        return score(place, words: &words)
    }

    /// The best score of `place` under its name or any other name.
    func score(_ place: PlaceRecord, words: inout PlaceWords) -> Score {
        var best = score(place, nameTokens: words.names[0], words: &words)
        for alias in words.names.dropFirst() {
            let s = score(place, nameTokens: alias, words: &words)
            if s.value > best.value { best = s }
        }
        return best
    }

    /// The score of `place` as if its name were `nameTokens` (its name or one of its other names).
    private func score(_ place: PlaceRecord, nameTokens allNameTokens: [ArraySlice<UInt8>], words: inout PlaceWords) -> Score {
        var nameTokens = allNameTokens
        if place.kind == .admin,
           let prefix = Self.adminPrefixes.filter({ nameTokens.starts(with: $0) }).max(by: { $0.count < $1.count }),
           !prefix.contains(where: { queryTokens.contains($0) }) {
            nameTokens.removeFirst(prefix.count)
        }
        let kindTokens = words.kind
        var matched = 0.0, matchedInName = 0.0, matchedInKind = 0
        for (i, q) in queryTokens.enumerated() {
            let isLast = i == queryTokens.count - 1
            var best = 0.0
            for n in nameTokens {
                if n.elementsEqual(q) { best = 1; break }
                if n.starts(with: q) { best = max(best, isLast ? 0.9 : 0.5) }
            }
            matchedInName += best
            if best < 0.9, !kindTokens.isEmpty {
                // Words for the place's kind count like name words: "cafe" is what a café is.
                for k in kindTokens where k.elementsEqual(q) || (isLast && q.count >= 2 && k.starts(with: q)) {
                    best = k.elementsEqual(q) ? 1 : 0.9
                    matchedInKind += 1
                    break
                }
            }
            if best == 0 {
                // Words of the address count half: "le loi quan 1", "cafe hoan kiem".
                for a in words.addressWords() {
                    if a.elementsEqual(q) { best = 0.5; break }
                    if isLast, a.starts(with: q) { best = 0.4 }
                }
            }
            matched += best
        }
        let n = Double(queryTokens.count)
        let coverage = n > 0 ? matched / n : 0
        var tightness = nameTokens.isEmpty ? 0 : min(1, matchedInName / Double(nameTokens.count))
        var startsWith = 0.0
        if let first = nameTokens.first, let q = queryTokens.first,
           first.elementsEqual(q) || (queryTokens.count == 1 && first.starts(with: q)) {
            startsWith = 1
        }
        var houseNumberBonus = 0.0
        if place.kind == .address, let number = nameTokens.first, let digit = number.first,
           (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), queryTokens.contains(where: { number.elementsEqual($0) }) {
            houseNumberBonus = 0.1
        }
        // The name is exactly what was typed (the last word possibly still being typed).
        // (Half when the last word is only a prefix of the name's: "district 1" is exactly District 1,
        // only possibly District 10.)
        var exactBonus = nameTokens.count == queryTokens.count && matchedInName >= Double(queryTokens.count) - 0.1
            && !(isKindQuery && matchedInKind < queryTokens.count) ? Self.exactBonus : 0
        if exactBonus > 0 && matchedInName < Double(queryTokens.count) { exactBonus /= 2 }
        var kindBonus = 0.0
        if matchedInKind == queryTokens.count {
            // The whole query names the kind ("cà phê", "atm"): as good as a full name match,
            // and better than a place merely named so ("Cafe", an artwork).
            tightness = 1
            startsWith = 1
            kindBonus = Self.kindBonus
        }
        let text = 0.6 * coverage + 0.3 * tightness + 0.1 * startsWith + houseNumberBonus + kindBonus + exactBonus
        var value = text + Self.importanceWeight * place.importance
        var distance: Double?
        if let focus {
            let d = focus.distance(to: place.coordinate)
            distance = d
            value += Self.proximityWeight * exp(-d / Self.proximityScaleMeters)
        }
        // A house number the street's name cannot hold ("197 trần phú") does not make the street incomplete.
        var numbersOnStreet = 0.0
        if place.kind == .street {
            numbersOnStreet = Double(queryTokens.filter { $0.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } == true }.count)
        }
        let complete = matchedInName + Double(matchedInKind) + numbersOnStreet >= Double(queryTokens.count) - 0.1
        return Score(value: value, coverage: coverage, distance: distance, complete: complete)
    }

    /// The space-separated words of a folded key.
    static func words(_ key: String) -> [ArraySlice<UInt8>] {
        let bytes = Array(key.utf8)
        return bytes.split(separator: UInt8(ascii: " "))
    }
}

extension Array where Element == ArraySlice<UInt8> {
    func starts(with prefix: [[UInt8]]) -> Bool {
        guard count >= prefix.count else { return false }
        for (a, b) in zip(self, prefix) where !a.elementsEqual(b) { return false }
        return true
    }
}
