import Foundation
import TextFolding

/// One way of reading what the user typed: the words a place's name (or address) should hold,
/// and the administrative units it should lie in (from qualifiers such as "Q1", "P. Bến Nghé",
/// "TP HCM", ", Hoàn Kiếm").
struct QueryReading: Sendable {
    /// Folded words, the last one possibly a prefix still being typed.
    var words: [String]
    /// The place should lie in one of these units (empty: no place constraint).
    var units: [AdminUnit]
    /// `false` for the text taken literally, `true` for a reading that dropped generic words,
    /// read qualifiers or expanded an initialism.
    var understood: Bool
    /// Whether the last word may be a prefix (false when it was rewritten).
    var lastIsPrefix: Bool = true
    /// Taken off the score of every place this reading finds (a guess such as a corrected typo).
    var penalty: Double = 0
}

/// Reads Vietnamese address conventions out of a query (see docs/search.md):
/// - generic words before a name (`đường`, `đ.`, `phố`, `số`, `ngõ`, `ngách`, `hẻm`, `kiệt`,
///   `đại lộ`) or after it (`street`, `road`) are optional;
/// - admin qualifiers in any position (`quận/q/q./qận`, `phường/p/p.`, `huyện`, `thị xã/tx`,
///   `thành phố/tp/tp.`, `tỉnh`, `district`, `ward`) followed by a unit's name or number (digits or
///   words: "Quận Nhất"), fused forms (`Q1`, `P4`), city nicknames (`HCM`, `TPHCM`, `Sài Gòn`,
///   `Saigon`, `HN`, `Hanoi`) and unit names after a comma become a place constraint, not words
///   the name must contain;
/// - street initialisms derived from the data (`CMT8`, `NKKN`, `NTMK`) and dates (`3/2`) expand
///   to the street's name;
/// - with units named, an address's leading house number is also dropped: the street itself, in
///   case the data lacks that number ("36 hàng bạc, hoàn kiếm, hà nội").
struct QueryReader: Sendable {
    let admin: AdminDirectory
    let initials: StreetInitials

    /// Level words and the unit levels they qualify.
    static let qualifiers: [([String], [AdminLevel])] = [
        (["thanh", "pho"], [.province, .district]), (["thi", "xa"], [.district]), (["thi", "tran"], [.ward]),
        (["tp"], [.province, .district]), (["tinh"], [.province]), (["quan"], [.district]), (["qan"], [.district]),
        (["q"], [.district]), (["huyen"], [.district]), (["tx"], [.district]), (["district"], [.district]),
        (["dist"], [.district]), (["phuong"], [.ward]), (["p"], [.ward]), (["ward"], [.ward]), (["xa"], [.ward]),
        (["citi"], [.province]), (["province"], [.province]),  // "city" folds to "citi" (i/y variants)
    ]
    /// City names and nicknames → folded province name.
    static let nicknames: [([String], String)] = [
        (["tp", "hcm"], "ho chi minh"), (["tphcm"], "ho chi minh"), (["hcm"], "ho chi minh"), (["hcmc"], "ho chi minh"),
        (["sai", "gon"], "ho chi minh"), (["saigon"], "ho chi minh"), (["tp", "hn"], "ha noi"), (["hn"], "ha noi"),
        (["hanoi"], "ha noi"), (["danang"], "da nang"),
    ]
    /// Number words after a qualifier: "Quận Nhất" = Quận 1.
    static let numberWords: [String: String] = [
        "nhat": "1", "nhut": "1", "nhi": "2", "hai": "2", "ba": "3", "tu": "4", "bon": "4", "nam": "5", "sau": "6",
        "bay": "7", "tam": "8", "chin": "9", "muoi": "10", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    ]
    /// Generic words users put before a street or place name.
    static let leadingGeneric: [[String]] = [["dai", "lo"], ["duong"], ["d"], ["pho"], ["so"], ["ngo"], ["ngach"], ["hem"], ["kiet"]]
    /// Generic words users put after a name.
    static let trailingGeneric: Set<String> = ["street", "st", "road", "rd", "avenue", "ave"]

    func readings(of text: String) -> [QueryReading] {
        let parts = text.split(separator: ",").map { TextFolding.tokens(String($0)).map(String.init) }
        var tokens: [String] = []
        var partStarts: [Int] = []
        for part in parts where !part.isEmpty {
            partStarts.append(tokens.count)
            tokens += part
        }
        tokens = Array(tokens.prefix(PlaceSearch.maxQueryWords).map { String($0.prefix(64)) })
        guard !tokens.isEmpty else { return [] }
        var result = [QueryReading(words: tokens, units: [], understood: false)]

        // 1. Qualified units, fused forms and nicknames, anywhere.
        var consumed = [Bool](repeating: false, count: tokens.count)
        var units: [AdminUnit] = []
        var i = 0
        while i < tokens.count {
            if let (length, found) = qualifiedUnit(tokens, at: i) ?? nickname(tokens, at: i) {
                for k in i..<i + length { consumed[k] = true }
                units += found
                i += length
            } else {
                i += 1
            }
        }
        // 2. Unit names after a comma ("17 Hoàng Sa, Đa Kao", "…, Hà Nội").
        for start in partStarts.dropFirst() where start < tokens.count && !consumed[start] {
            let end = partStarts.first { $0 > start } ?? tokens.count
            let name = tokens[start..<min(end, tokens.count)].joined(separator: " ")
            let found = admin.units(named: name)
            if !found.isEmpty {
                for k in start..<min(end, tokens.count) { consumed[k] = true }
                units += found
            }
        }
        var words = tokens.enumerated().filter { !consumed[$0.offset] }.map(\.element)
        let lastConsumed = consumed.last == true
        var understoodUnits = units
        // 3. An unqualified unit name at the end ("Hàng Bạc Hoàn Kiếm", "dong khoi saigon").
        var trailing: (words: [String], units: [AdminUnit])?
        // (Not the number of a house number: "22/1" is the alley house 22/1, not 22 in District 1.)
        if words.count >= 2, !Self.endsInHouseNumber(text) {
            for length in stride(from: min(3, words.count - 1), through: 1, by: -1) {
                let name = words.suffix(length).joined(separator: " ")
                let found = admin.units(named: name)
                if !found.isEmpty { trailing = (Array(words.dropLast(length)), found); break }
            }
        }
        // 4. Generic words.
        words = Self.droppingGeneric(words)
        if let t = trailing {
            trailing = (Self.droppingGeneric(t.words), t.units)
        }
        if words.isEmpty && units.isEmpty { return result }
        // 5. Dates ("3/2") and initialisms ("CMT8").
        var expanded: [[String]] = []
        if words.count == 2, text.contains("/"), let day = Int(words[0]), let month = Int(words[1]),
           (1...31).contains(day), (1...12).contains(month) {
            expanded.append([words[0], "thang", words[1]])
        }
        for (index, word) in words.enumerated() where word.count >= 3 && word.count <= 6 {
            for street in initials.streets(for: word) {
                var copy = words
                copy.replaceSubrange(index...index, with: street.split(separator: " ").map(String.init))
                expanded.append(copy)
            }
        }
        if words != tokens || !units.isEmpty {
            result.append(QueryReading(words: words, units: understoodUnits, understood: true, lastIsPrefix: !lastConsumed))
        }
        for e in expanded {
            result.append(QueryReading(words: e, units: understoodUnits, understood: true, lastIsPrefix: false))
        }
        // 6. Abbreviations, both ways ("THPT" ↔ "Trung học phổ thông", "GD&ĐT" ↔ "Giáo dục và Đào tạo").
        var abbreviated = Self.abbreviationReadings(words)
        if words != tokens {
            // Also of the text as typed: "Ủy ban nhân dân xã Long Hưng" is "UBND xã Long Hưng", the unit a word of its name.
            abbreviated += Self.abbreviationReadings(tokens).prefix(2)
        }
        for (e, replacedLast) in abbreviated where e != words {
            result.append(QueryReading(words: e, units: understoodUnits, understood: true, lastIsPrefix: !lastConsumed && !replacedLast))
        }
        // 7. A house number with a street in named units ("36 hàng bạc, hoàn kiếm, hà nội"): the
        // street itself, in case the data lacks that number (below the address when it has it).
        if !units.isEmpty, let street = Self.withoutHouseNumber(words) {
            result.append(QueryReading(words: street, units: units, understood: true, lastIsPrefix: !lastConsumed,
                                       penalty: Self.streetFallbackPenalty))
        }
        if let t = trailing, !t.words.isEmpty {
            understoodUnits += t.units
            result.append(QueryReading(words: t.words, units: understoodUnits, understood: true, lastIsPrefix: false, penalty: 0.05))
            if let street = Self.withoutHouseNumber(t.words) {
                result.append(QueryReading(words: street, units: understoodUnits, understood: true, lastIsPrefix: false,
                                           penalty: 0.05 + Self.streetFallbackPenalty))
            }
        }
        return result
    }

    /// Taken off the street reading of an address whose house number was dropped.
    static let streetFallbackPenalty = 0.1

    /// The words after a leading house number ("36", "22/1" folded to "22 1", "12a") and the generic
    /// words after it, when at least one name word of two letters or more remains; else `nil`.
    static func withoutHouseNumber(_ words: [String]) -> [String]? {
        var start = 0
        while start < words.count, start < 2, words[start].first?.isNumber == true { start += 1 }
        guard start > 0 else { return nil }
        let rest = droppingGeneric(Array(words[start...]))
        guard rest.contains(where: { $0.count >= 2 && $0.first?.isNumber != true }) else { return nil }
        return rest
    }

    /// Whether the text ends in a number joined to the one before by a slash ("22/1", "97/2b").
    static func endsInHouseNumber(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let slash = trimmed.lastIndex(of: "/") else { return false }
        let before = trimmed[..<slash], after = trimmed[trimmed.index(after: slash)...]
        return before.last?.isNumber == true && after.first?.isNumber == true && !after.contains(" ")
    }

    /// Abbreviations of Vietnamese names (folded) and what they stand for; both are read either way.
    static let abbreviations: [([String], [[String]])] = [
        (["thpt"], [["trung", "hoc", "pho", "thong"]]), (["thcs"], [["trung", "hoc", "co", "so"]]),
        (["ubnd"], [["uy", "ban", "nhan", "dan"]]), (["bv"], [["benh", "vien"]]), (["dh"], [["dai", "hoc"]]),
        (["cd"], [["cao", "dang"]]), (["tdtt"], [["the", "duc", "the", "thao"]]),
        (["gd", "dt"], [["giao", "duc", "va", "dao", "tao"], ["giao", "duc", "dao", "tao"], ["gddt"]]),
        (["gddt"], [["giao", "duc", "va", "dao", "tao"], ["giao", "duc", "dao", "tao"], ["gd", "dt"]]),
        (["tnhh"], [["trach", "nhiem", "huu", "han"]]), (["cti"], [["cong", "ti"]]), (["kcn"], [["khu", "cong", "nghiep"]]),
        (["kdc"], [["khu", "dan", "cu"]]), (["ttyt"], [["trung", "tam", "y", "te"]]), (["tt"], [["trung", "tam"]]),
        (["nh"], [["ngan", "hang"]]), (["bhxh"], [["bao", "hiem", "xa", "hoi"]]), (["dhqg"], [["dai", "hoc", "quoc", "gia"]]),
    ]

    /// The words with one abbreviation expanded or one expansion abbreviated (at most 4 readings),
    /// each with whether it rewrote the last word (then no longer a prefix being typed).
    static func abbreviationReadings(_ words: [String]) -> [([String], Bool)] {
        var out: [([String], Bool)] = []
        func matches(_ phrase: [String], at i: Int) -> Bool {
            i + phrase.count <= words.count && words[i..<i + phrase.count].elementsEqual(phrase)
        }
        for i in words.indices where out.count < 4 {
            for (short, fulls) in abbreviations {
                if matches(short, at: i) {
                    for full in fulls {
                        var copy = words
                        copy.replaceSubrange(i..<i + short.count, with: full)
                        out.append((copy, i + short.count == words.count))
                    }
                }
                for full in fulls where full.count > 1 && matches(full, at: i) {
                    var copy = words
                    copy.replaceSubrange(i..<i + full.count, with: short)
                    out.append((copy, i + full.count == words.count))
                }
            }
        }
        return Array(out.prefix(4))
    }

    static func droppingGeneric(_ words: [String]) -> [String] {
        var words = words
        // A house number may come first: "số 17 đường Hoàng Sa".
        var start = 0
        for _ in 0..<2 {
            if start < words.count, words[start].first?.isNumber == true { start += 1 }
            if let generic = leadingGeneric.first(where: { words.count - start > $0.count && Array(words[start..<start + $0.count]) == $0 }) {
                // "số" only before a number; the rest only before a name.
                let next = words[start + generic.count]
                if generic == ["so"] && next.first?.isNumber != true { break }
                words.removeSubrange(start..<start + generic.count)
            } else {
                break
            }
        }
        while words.count > 1, let last = words.last, trailingGeneric.contains(last) { words.removeLast() }
        return words
    }

    /// A level word then a unit's name or number: ("quận", "1"), ("q", "nhất"), ("p", "bến", "nghé");
    /// or a fused form ("q1", "p4", "q10").
    private func qualifiedUnit(_ tokens: [String], at i: Int) -> (Int, [AdminUnit])? {
        let token = tokens[i]
        if token.count >= 2, token.count <= 3, let letter = token.first, letter == "q" || letter == "p",
           token.dropFirst().allSatisfy(\.isNumber) {
            let found = admin.units(named: String(Int(token.dropFirst()) ?? 0), level: letter == "q" ? .district : .ward)
            return found.isEmpty ? nil : (1, found)
        }
        for (words, levels) in Self.qualifiers where tokens.count - i > words.count && Array(tokens[i..<i + words.count]) == words {
            let nameStart = i + words.count
            var candidates: [(Int, String)] = []
            let first = tokens[nameStart]
            if first.allSatisfy(\.isNumber) { candidates.append((1, String(Int(first) ?? 0))) }
            if tokens.count - nameStart >= 2, first == "muoi", let unit = Self.numberWords[tokens[nameStart + 1]], unit.count == 1 {
                candidates.append((2, unit == "1" ? "11" : "1\(unit)"))
            }
            if let number = Self.numberWords[first] { candidates.append((1, number)) }
            for length in stride(from: min(4, tokens.count - nameStart), through: 1, by: -1) {
                candidates.append((length, tokens[nameStart..<nameStart + length].joined(separator: " ")))
            }
            // The longest reading first: "phường Ba Đình" is Ba Đình, not Phường 3 followed by "Đình".
            let ordered = candidates.enumerated().sorted { ($0.element.0, -$0.offset) > ($1.element.0, -$1.offset) }.map(\.element)
            for (length, name) in ordered {
                var found = levels.flatMap { admin.units(named: name, level: $0) }
                if found.isEmpty, levels.contains(.province), let nick = Self.nicknames.first(where: { $0.0 == [name] }) {
                    found = admin.units(named: nick.1, level: .province)
                }
                if !found.isEmpty { return (words.count + length, found) }
            }
        }
        return nil
    }

    private func nickname(_ tokens: [String], at i: Int) -> (Int, [AdminUnit])? {
        for (words, province) in Self.nicknames where tokens.count - i >= words.count && Array(tokens[i..<i + words.count]) == words {
            return (words.count, admin.units(named: province, level: .province))
        }
        return nil
    }
}
