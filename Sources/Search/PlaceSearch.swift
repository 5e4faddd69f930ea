import Foundation
import ArrayBlob
import SQLiteStore
import TextFolding

/// Autocomplete and place look-up over a dataset built by `Dataset`, answered from memory
/// (``SearchIndex``: no SQL per request).
///
/// Candidates: first places whose *name* holds every query word (the last one as a prefix,
/// since the user is still typing), then, if those are few, places whose name *or address*
/// holds them, then places holding any of the words; with a focus, name matches near it are
/// added. Rows are numbered by importance at import, so the first rows that match are the most
/// important and the work is bounded however common the words are. `MatchScorer` then ranks
/// the candidates.
public final class PlaceSearch: Sendable {
    public let admin: AdminDirectory
    let index: SearchIndex

    /// How many candidates each stage reads before ranking.
    static let candidatesPerStage = 40
    /// Longer inputs are cut to this many words.
    static let maxQueryWords = 12

    public init(databasePath: String) throws {
        let database = try Database(path: databasePath, mode: .readOnly)
        admin = try AdminDirectory(database: database)
        // Derived at import (DatasetSchema.MetaKey.streetInitials / .kindWords / .kindPhrases).
        var meta: [String: String] = [:]
        let statement = try database.prepare("SELECT key, value FROM meta WHERE key IN ('street_initials', 'kind_words', 'kind_phrases')")
        while try statement.step() { meta[statement.text(0)] = statement.text(1) }
        reader = QueryReader(admin: admin, initials: StreetInitials(stored: meta["street_initials"] ?? ""))
        kindWords = Set((meta["kind_words"] ?? "").split(separator: " ").map(String.init))
        // (A dataset imported before phrases were stored: each kind word is a phrase, as then.)
        kindPhrases = KindPhrases(meta["kind_phrases"].map { $0.split(separator: "|").map(String.init) } ?? kindWords.sorted())
        index = try SearchIndex.load(path: databasePath, database: database)
        let mapping = try AdminMapping(database: database)
        geocoder = ReverseGeocoder(index: index, mapping: mapping)
        migration = AddressMigration(admin: admin, mapping: mapping, geocoder: geocoder)
    }

    /// Reverse geocoding over the same places.
    public let geocoder: ReverseGeocoder
    /// Old↔new address migration (the dataset's `admin_link` mapping).
    public let migration: AddressMigration

    private let reader: QueryReader
    /// Every word of `place.kind_key`: a query made only of them asks for a kind of place.
    private let kindWords: Set<String>
    /// The kind phrases ("ca phe", "nha thuoc"): only words that are whole phrases make a category query.
    private let kindPhrases: KindPhrases
    /// A typed start held by more names than this is left to the word stages.
    static let nameStartLimit = 4_000
    /// How many of the names beginning with the typed text join the candidates (the nearest).
    static let nameStartCandidates = 24

    /// Score bonus for a place inside a unit the query named ("… Q1"), and the malus outside.
    static let unitBonus = 0.25
    /// Score bonus for a place holding every typed word in its name (or kind) as typed.
    static let literalCompleteBonus = 0.2
    /// Text score of a unit the whole query names ("Q1", "District 1", "TP HCM"): above an exact
    /// complete name match in order (1.0 + exact 0.3 + order 0.1 + complete 0.2).
    static let unitOnlyScore = 1.65
    /// With a focus, places this far away are ranked below everything that matches near it.
    static let farFromFocusMeters = 300_000.0
    static let nearFocusMeters = 60_000.0
    /// With a focus, wards and communes this far away rank below complete matches near it.
    static let farWardMeters = 100_000.0
    /// The focus lies in the province of the nearest result that is no unit, when that is this near.
    static let focusProvinceMeters = 5_000.0

    public func autocomplete(_ query: AutocompleteQuery) throws -> [SearchResult] {
        var readings = reader.readings(of: query.text)
        guard !readings.isEmpty, query.limit > 0 else { return [] }
        if query.wholeWords {
            for i in readings.indices { readings[i].lastIsPrefix = false }
        }
        let filter = PlaceFilter(query)
        var candidates = CandidateSet(rows: index.count)
        var usedAnyWordStage = false
        var ranking = Ranking()
        let marks = RowMarks()
        gather(readings, query: query, filter: filter, marks: marks, into: &candidates)
        if !query.wholeWords { candidates.insert(namesBeginning(query, filter: filter)) }
        let literal = readings[0].words
        if candidates.isEmpty && literal.count > 1 {
            usedAnyWordStage = true
            let matches = literal.enumerated().map { i, word in
                index.terms.match(Array(word.utf8), prefix: i == literal.count - 1 && !query.wholeWords, in: [.name, .address])
            }
            candidates.insert(index.firstRows(anyOf: matches, limit: Self.candidatesPerStage) { filter.accepts($0, in: index.places) })
        }
        var results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage, &ranking)
        // One typing error: only when nothing matches every word as typed, so exact matches cost nothing more.
        // Not while a short last word is still being typed ("197 tran p"): the next letter decides.
        let lastWord = readings[0].words.last ?? ""
        // (Unless an earlier word is in no name at all: "nogc ha" — no next letter mends "nogc".)
        if !results.contains(where: { $0.complete }) && (lastWord.count >= 3 || lastWord.first?.isNumber == true || hasUnknownWord(readings[0])) {
            var typoReadings = try typoReadings(of: readings[0])
            // A word the data lacks ("… cathedrl", a shop's slogan) must not empty the list:
            // the query without one of its words, below every reading that keeps them all.
            if readings[0].words.count >= 3 { typoReadings += Self.droppedWordReadings(of: readings[0]) }
            if !typoReadings.isEmpty {
                readings += typoReadings
                gather(typoReadings, query: query, filter: filter, marks: marks, into: &candidates)
                results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage, &ranking)
            }
        }
        // With a focus and nothing near it holding every word: what near it matches part of the
        // query (the focus rule then ranks it above far-away full matches).
        if let focus = query.focus, readings[0].words.count >= 2,
           !results.contains(where: { $0.complete && ($0.distance ?? .infinity) < Self.nearFocusMeters }) {
            let partial = Self.droppedWordReadings(of: readings[0])
            let cells = RowCondition.cells(SearchIndex.cells(around: focus))
            for reading in partial {
                candidates.insert(index.firstRows(allOf: nameConditions(reading, in: .name) + [cells], limit: Self.candidatesPerStage / 2, marks: marks) {
                    filter.accepts($0, in: index.places)
                })
            }
            readings += partial
            results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage, &ranking)
        }
        // (Not for a category query: "ngân hàng" asks for any bank, not one named so.)
        if TextFolding.hasAccents(query.text), !isCategory(readings[0]) { applyToneRule(&results, text: query.text) }
        keepInsideNamedUnits(&results, readings: readings)
        results.sort { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
        if query.focus != nil { nearestAmongEquals(&results, window: query.limit * 3) }
        return distinct(results, format: query.format, limit: query.limit).map {
            SearchResult(place: index.places.record($0.row), distanceMeters: $0.distance, score: $0.score)
        }
    }

    /// A query that names its units explicitly ("phố Hàng Bạc, Hoàn Kiếm", "… Q1", "…, Hà Nội") keeps
    /// only the results inside the city (province) of one of them — when at least one result is
    /// inside a named unit; those outside the unit but in its city rank below it (the unit malus). When none is (a
    /// unit misremembered, or one the data does not cover), the list stays as ranked: the places
    /// outside, below the unit malus, are better than nothing. A unit guessed from the last words
    /// without a comma or level word ("Hàng Bạc Hoàn Kiếm") does not filter, nor is a name holding every
    /// word as typed dropped: the unit may be part of a name ("Phở Hà Nội" in HCMC).
    private func keepInsideNamedUnits(_ results: inout [Ranked], readings: [QueryReading]) {
        guard let units = readings.first(where: { $0.understood && $0.penalty == 0 && !$0.units.isEmpty && !$0.words.isEmpty })?.units
        else { return }
        let places = index.places
        func isInside(_ result: Ranked) -> Bool { units.contains { Self.lies(result.row, in: $0, places) } }
        guard results.contains(where: isInside) else { return }
        // The city of each unit: a place of the city outside a named district or ward stays, below
        // the unit malus (a place near a boundary may carry another district's code than the one typed).
        func inCity(_ result: Ranked) -> Bool {
            units.contains { unit in
                let province = unit.level == .province ? unit.code : unit.provinceCode
                return (unit.scheme == .new ? places.newProvince(result.row) : places.oldProvince(result.row)) == province
            }
        }
        // (A name holding every word as typed stays: "pho hanoi" is also the restaurant "Phở Hà Nội" in HCMC.)
        results = results.filter { $0.literal || inCity($0) }
    }

    /// The places whose name begins with the typed text as typed (with its accents, when it has
    /// them), the nearest to the focus (else the most important) first: the target of a name typed
    /// from its start, which the bounded word stages may not reach among thousands of names
    /// holding the same short words (see ``NameStarts``).
    private func namesBeginning(_ query: AutocompleteQuery, filter: PlaceFilter) -> [Int] {
        guard query.text.unicodeScalars.filter({ $0.properties.isAlphabetic || $0.properties.numericType != nil }).count >= 3,
              let rows = index.nameStarts.rows(beginning: query.text, limit: Self.nameStartLimit) else { return [] }
        let places = index.places
        let kept = rows.filter { filter.accepts($0, in: places) }
        guard kept.count > Self.nameStartCandidates else { return kept }
        let keyed = kept.map { row in
            (row, query.focus.map { $0.distance(to: places.coordinate(row)) } ?? -places.importance[row])
        }
        return keyed.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(Self.nameStartCandidates).map(\.0)
    }

    /// Readings of `literal` with one word corrected to a known word one edit away (words of
    /// three letters or more, not the prefix being typed), at most 6.
    private func typoReadings(of literal: QueryReading) throws -> [QueryReading] {
        var out: [QueryReading] = []
        for (index, word) in literal.words.enumerated() where word.count >= 3 && word.allSatisfy({ $0.isLetter }) {
            let isLast = index == literal.words.count - 1
            // A short last word is still being typed — unless no word begins with it ("cho van kipe").
            if isLast && word.count < 5 && self.index.terms.postingCount(self.index.terms.match(Array(word.utf8), prefix: true, in: [.name, .address, .kind])) > 0 { continue }
            for correction in self.index.typos.corrections(of: word, limit: word.count >= 5 ? 4 : 3) {
                var copy = literal
                copy.words[index] = correction
                copy.understood = true
                copy.penalty = Self.typoPenalty
                if isLast { copy.lastIsPrefix = false }
                out.append(copy)
                if out.count >= 8 { return out }
            }
        }
        return out
    }

    /// Whether a word of the reading is a kind word (or the last one a prefix of one): only then
    /// is the kind stage worth a query.
    private func mayNameAKind(_ reading: QueryReading) -> Bool {
        if reading.words.contains(where: kindWords.contains) { return true }
        guard reading.lastIsPrefix, let last = reading.words.last, last.count >= 3 else { return false }
        return kindWords.contains { $0.hasPrefix(last) }
    }

    /// Whether two adjacent words are numbers (taking the spaces out would make another number).
    static func joinsNumbers(_ words: [String]) -> Bool {
        zip(words, words.dropFirst()).contains { $0.last?.isNumber == true && $1.first?.isNumber == true }
    }

    /// Rows one of whose names is `words` with the spaces taken out, nearest to the focus first
    /// (else most important first), at most `limit`.
    private func exactlyNamed(_ words: [String], focus: Coordinate?, filter: PlaceFilter, limit: Int) -> [Int] {
        var wanted: [UInt8] = []
        for word in words { wanted += word.utf8 }
        let places = index.places
        // (Not admin units: the unit readings and their importance find them, and their names
        // without "Quận"/"Huyện" would make "Quận Ba" the district Quản Bạ.)
        let admin = UInt8(PlaceKind.admin.rawValue)
        var rows = index.exactNames.rows(named: words).filter {
            places.kind[$0] != admin && squashedName(of: $0, equals: wanted) && filter.accepts($0, in: places)
        }
        if let focus, rows.count > limit {
            // Typed closures: the one-line chain took the type checker 7 s.
            let measured: [(row: Int, metres: Double)] = rows.map { (row: Int) in (row, focus.distance(to: places.coordinate(row))) }
            rows = measured.sorted { (a: (row: Int, metres: Double), b: (row: Int, metres: Double)) -> Bool in
                a.metres != b.metres ? a.metres < b.metres : a.row < b.row
            }.map { $0.row }
        }
        return Array(rows.prefix(limit))
    }

    /// Whether the row's name or one of its other names, without spaces, is `wanted`.
    private func squashedName(of row: Int, equals wanted: [UInt8]) -> Bool {
        let places = index.places
        return places.arena.withUnsafeBufferPointer { arena in
            func same(_ span: Range<Int>) -> Bool {
                var i = 0
                for b in arena[span] where b != UInt8(ascii: " ") {
                    guard i < wanted.count, wanted[i] == b else { return false }
                    i += 1
                }
                return i == wanted.count
            }
            if same(places.span(row, .nameKey)) { return true }
            let aliases = places.span(row, .aliasKey)
            var from = aliases.lowerBound
            for i in aliases.lowerBound...aliases.upperBound where i == aliases.upperBound || arena[i] == UInt8(ascii: "|") {
                if i > from, same(from..<i) { return true }
                from = i + 1
            }
            return false
        }
    }

    /// Whether a word before the last (of four letters or more) is in no name, address or kind.
    private func hasUnknownWord(_ reading: QueryReading) -> Bool {
        reading.words.dropLast().contains { word in
            word.count >= 4 && index.terms.postingCount(index.terms.match(Array(word.utf8), prefix: false, in: [.name, .address, .kind])) == 0
        }
    }

    /// Whether the reading's words are whole kind phrases as typed in full ("cà phê", "atm", "cây
    /// xăng"; not "nhà" nor "phòng", the starts of "nhà hàng" and "phòng khám"): a category query,
    /// answered by distance.
    private func isCategory(_ reading: QueryReading) -> Bool {
        kindPhrases.covers(reading.words)
    }

    /// Places of the kind a category query names, within this distance of the focus, come first,
    /// nearest first (see docs/search.md, "Category words").
    static let categoryRadiusMeters = 5_000.0
    /// Their score: above every name match (an exact, complete, important name is ≈ 1.9).
    static let categoryScore = 2.0

    /// Whether every word of the reading is a kind word (the last one possibly a prefix of one).
    private func isKindOnly(_ reading: QueryReading) -> Bool {
        for (index, word) in reading.words.enumerated() where !kindWords.contains(word) {
            guard index == reading.words.count - 1, reading.lastIsPrefix, word.count >= 3,
                  kindWords.contains(where: { $0.hasPrefix(word) }) else { return false }
        }
        return true
    }

    /// Score taken off a reading with a corrected typo: below every exact match of the same words.
    static let typoPenalty = 0.2
    /// Score taken off a reading without one of the typed words.
    static let droppedWordPenalty = 0.3

    /// The literal reading without one of its last four words each (ranked with a penalty below
    /// every reading that keeps them all); a dropped last word is no longer a typing prefix.
    static func droppedWordReadings(of literal: QueryReading) -> [QueryReading] {
        literal.words.indices.reversed().prefix(4).map { index in
            var copy = literal
            copy.words.remove(at: index)
            copy.understood = true
            copy.penalty = droppedWordPenalty
            if index == literal.words.count - 1 { copy.lastIsPrefix = false }
            return copy
        }
    }

    /// The rows found so far, each once.
    struct CandidateSet {
        private var seen: [UInt64]
        private(set) var rows: [Int] = []

        init(rows count: Int) { seen = [UInt64](repeating: 0, count: (count + 63) / 64) }

        var isEmpty: Bool { rows.isEmpty }
        var count: Int { rows.count }

        mutating func insert(_ found: [Int]) {
            for row in found where seen[row >> 6] & (1 << UInt64(row & 63)) == 0 {
                seen[row >> 6] |= 1 << UInt64(row & 63)
                rows.append(row)
            }
        }
    }

    /// One word condition per word of the reading, in `columns` (the last word a prefix while typed).
    private func nameConditions(_ reading: QueryReading, in columns: TermIndex.Columns) -> [RowCondition] {
        reading.words.enumerated().map { i, word in
            .words(index.terms.match(Array(word.utf8), prefix: i == reading.words.count - 1 && reading.lastIsPrefix, in: columns))
        }
    }

    /// Runs the candidate stages of every reading.
    private func gather(_ readings: [QueryReading], query: AutocompleteQuery, filter: PlaceFilter, marks: RowMarks,
                        into candidates: inout CandidateSet) {
        let places = index.places
        func collect(_ conditions: [RowCondition], limit: Int, filter: PlaceFilter) -> Int {
            let rows = index.firstRows(allOf: conditions, limit: limit, marks: marks) { filter.accepts($0, in: places) }
            candidates.insert(rows)
            return rows.count
        }
        for reading in readings {
            guard !reading.words.isEmpty else {
                // The text names only units ("Q1", "TP HCM", "P. Bến Nghé"): the units themselves.
                let rows = reading.units.prefix(20).compactMap { places.row(key: Self.key(of: $0)) }
                candidates.insert(rows.filter { filter.accepts($0, in: places) })
                continue
            }
            // 1. Every word in the name; 2. the same near the focus, so a nearby café is not
            // crowded out by more important ones across the country; 3. places of the kind the
            // words name ("cafe", "bưu điện"), near the focus first; 4. the same inside the units
            // the query named; 5. if that is too little, every word in name or address ("le loi
            // quan 1").
            let inName = nameConditions(reading, in: .name)
            let nameMatches = collect(inName, limit: Self.candidatesPerStage, filter: filter)
            // 0. Places called exactly so (spaces aside: "coopmart" = "Co.op Mart"), the nearest first:
            // the name stage cannot bound "Phạm Vấn" among a thousand "Phạm Văn …", nor reach the
            // Ministop next to the focus among 200.
            if !Self.joinsNumbers(reading.words) {
                candidates.insert(exactlyNamed(reading.words, focus: query.focus, filter: filter, limit: Self.candidatesPerStage / 2))
            }
            let cells = query.focus.map { RowCondition.cells(SearchIndex.cells(around: $0)) }
            // Fewer rows than the limit means every name match is already in.
            if let cells, nameMatches == Self.candidatesPerStage {
                _ = collect(inName + [cells], limit: Self.candidatesPerStage / 2, filter: filter)
            }
            // A category query near a focus: the nearest places of the kind, however unimportant.
            if let focus = query.focus, !reading.understood, isCategory(reading) {
                let kinds = reading.words.map { RowCondition.words(index.terms.match(Array($0.utf8), prefix: false, in: .kind)) }
                let near = index.nearestRows(allOf: kinds, focus: focus, radius: Self.categoryRadiusMeters,
                                             limit: Self.candidatesPerStage) { filter.accepts($0, in: places) }
                candidates.insert(near.map(\.row))
            }
            // Only for a pure kind query ("cafe", "cây xăng") or when few names hold the words
            // ("công viên Tao Đàn": the park is called "Tao Dan Park").
            if reading.words.count <= 4, mayNameAKind(reading), nameMatches < 3 || isKindOnly(reading) {
                let inNameOrKind = nameConditions(reading, in: [.name, .kind])
                if let cells {
                    _ = collect(inNameOrKind + [cells], limit: Self.candidatesPerStage, filter: filter)
                } else {
                    _ = collect(inNameOrKind, limit: Self.candidatesPerStage / 2, filter: filter)
                }
            }
            let anywhere = nameConditions(reading, in: [.name, .address])
            // (Only when the unit was named explicitly and the unfiltered stage was cut short.)
            // (And for the street of an address in named units: all its name matches may be elsewhere.)
            if !reading.units.isEmpty && reading.penalty == 0 && nameMatches == Self.candidatesPerStage
                || !reading.units.isEmpty && reading.penalty == QueryReader.streetFallbackPenalty {
                let inUnits = filter.within(reading.units)
                _ = collect(inName, limit: Self.candidatesPerStage / 2, filter: inUnits)
                _ = collect(anywhere, limit: Self.candidatesPerStage / 2, filter: inUnits)
            }
            if candidates.count < query.limit { _ = collect(anywhere, limit: Self.candidatesPerStage, filter: filter) }
        }
    }

    /// A scored candidate.
    struct Ranked {
        var row: Int
        var distance: Double?
        var score: Double
        /// Some reading without a penalty found every word in its name.
        var complete: Bool
        /// Every word as typed (the literal reading) is in its name ("Phở Hà Nội" for "pho hanoi").
        var literal = false
        /// The tone rule's verdict: 1 the typed accents, -1 other accents, 0 neither.
        var tone: Int8 = 0
    }

    /// What is known of each candidate so far: its best score over the readings scored, and
    /// how many readings that was (a later pass scores only new candidates and new readings).
    struct Ranking {
        struct Entry {
            var best: (value: Double, coverage: Double, distance: Double?)?
            var anyComplete = false
            var literalComplete = false
            /// The candidate was outside the query's circle.
            var outside = false
            var readingsScored = 0
        }
        var entries: [Entry] = []
        var scorers: [MatchScorer] = []
        var unitKeys: [[[UInt8]]] = []
        /// Each reading's words without spaces (an exact name however it is spaced scores as exact).
        var squashed: [[UInt8]] = []
    }

    /// Scores every candidate by its best reading; `complete` when some reading's words are all in its name.
    private func rank(_ candidates: CandidateSet, readings: [QueryReading], query: AutocompleteQuery, anyWordStage: Bool,
                      _ ranking: inout Ranking) -> [Ranked] {
        let places = index.places
        for reading in readings.dropFirst(ranking.scorers.count) {
            ranking.scorers.append(MatchScorer(queryTokens: reading.words, focus: query.focus,
                                               isKindQuery: isCategory(reading),
                                               lastIsPrefix: reading.lastIsPrefix))
            ranking.unitKeys.append(reading.units.map { Array(Self.key(of: $0).utf8) })
            // (Not joining two numbers: "3 2" is the date street, not the place "32".)
            ranking.squashed.append(Self.joinsNumbers(reading.words) ? [] : reading.words.flatMap { Array($0.utf8) })
        }
        let words = MatchScorer.PlaceWords()
        places.arena.withUnsafeBufferPointer { arena in
            for (i, row) in candidates.rows.enumerated() {
                if i == ranking.entries.count {
                    var entry = Ranking.Entry()
                    if let circle = query.circle, circle.center.distance(to: places.coordinate(row)) > circle.radiusMeters { entry.outside = true }
                    ranking.entries.append(entry)
                }
                guard !ranking.entries[i].outside, ranking.entries[i].readingsScored < readings.count else { continue }
                var entry = ranking.entries[i]
                words.load(row, places, arena)
                for r in entry.readingsScored..<readings.count {
                    let reading = readings[r]
                    var value: Double, coverage: Double, distance: Double?, complete: Bool
                    if reading.words.isEmpty {
                        guard ranking.unitKeys[r].contains(where: { places.field(row, .key, equals: $0) }) else { continue }
                        // The whole text read as this unit: as good as an exact, complete name match.
                        // (A little more when its name is also what was typed: "phường Ba Đình" is
                        // Phường Ba Đình before Xã Ba Đình.)
                        value = Self.unitOnlyScore + MatchScorer.importanceWeight * places.importance[row] + (entry.anyComplete ? 0.05 : 0)
                        coverage = 1
                        complete = true
                        if let focus = query.focus {
                            distance = focus.distance(to: places.coordinate(row))
                            value += MatchScorer.proximityWeight * exp(-distance! / MatchScorer.proximityScaleMeters)
                        }
                    } else {
                        var score = ranking.scorers[r].score(row, places, arena, words: words)
                        // (Not when a one-letter word is still being typed: "Nhã N" is no "Nhan".)
                        if !score.complete, reading.words.count <= 3, !ranking.scorers[r].isKindQuery, !ranking.squashed[r].isEmpty,
                           !(reading.lastIsPrefix && reading.words.count > 1 && reading.words.last?.count == 1),
                           squashedName(of: row, equals: ranking.squashed[r]) {
                            // The name spaced otherwise ("Co.op Mart" for "coopmart", "Mini Stop" for "ministop"):
                            // as good as the exact name (text 0.6 + 0.3 + 0.1 + exact 0.3).
                            score.value = 1.3 + MatchScorer.importanceWeight * places.importance[row]
                                + (score.distance.map { MatchScorer.proximityWeight * exp(-$0 / MatchScorer.proximityScaleMeters) } ?? 0)
                            score.complete = true
                            score.coverage = 1
                        }
                        (value, coverage, distance, complete) = (score.value, score.coverage, score.distance, score.complete)
                        if score.kindMatch, ranking.scorers[r].isKindQuery, !reading.understood, let d = distance, d <= Self.categoryRadiusMeters {
                            // A place of the kind asked for: by distance (importance only breaks near-ties).
                            value = Self.categoryScore + 0.6 * exp(-d / 1_500) + 0.02 * places.importance[row]
                        }
                        if reading.understood { value -= 0.01 + reading.penalty }
                        // Every word as typed is in the name: above readings that had to reinterpret
                        // some words ("bưu điện sài gòn" is the post office called so, not any in the city).
                        else if score.complete { value += Self.literalCompleteBonus }
                        if !reading.units.isEmpty {
                            // A province is a weak hint, a ward a strong one.
                            let bonus = reading.units.map { $0.level == .province ? Self.unitBonus / 2.5 : Self.unitBonus }.max() ?? 0
                            value += reading.units.contains(where: { Self.lies(row, in: $0, places) }) ? bonus : -bonus
                        }
                    }
                    entry.anyComplete = entry.anyComplete || (complete && reading.penalty == 0)
                    if r == 0 && complete { entry.literalComplete = true }
                    if entry.best == nil || value > entry.best!.value { entry.best = (value, coverage, distance) }
                }
                entry.readingsScored = readings.count
                ranking.entries[i] = entry
            }
        }
        var results: [Ranked] = []
        results.reserveCapacity(candidates.count)
        for (i, entry) in ranking.entries.enumerated() where !entry.outside {
            guard let best = entry.best else { continue }
            if anyWordStage && best.coverage < 0.5 { continue }
            results.append(Ranked(row: candidates.rows[i], distance: best.distance, score: best.value, complete: entry.anyComplete,
                                  literal: entry.literalComplete))
        }
        // With a focus, nothing far away comes first when something near it matches as well.
        if query.focus != nil,
           let nearBest = results.filter({ ($0.distance ?? .infinity) < Self.nearFocusMeters }).map(\.score).max() {
            for i in results.indices where (results[i].distance ?? 0) > Self.farFromFocusMeters {
                results[i].score = min(results[i].score, nearBest - 0.001) - 0.5
            }
            // A ward or commune of another province is not what a name typed in the city means
            // when a place near the focus holds every word ("hai n": Hải Nam … here, not Xã Hải Ninh
            // in Lâm Đồng); districts and provinces keep their rank.
            // (Below *every* such match, not only the best: "Tân B" is Tân Bình here before Xã Tân Biên 114 km away.)
            // (Far: more than 100 km away, or in another province than the focus — "Nghĩa T" in HCMC is
            // not Xã Nghĩa Thành 53 km away in Đồng Nai.)
            if let nearComplete = results.filter({ $0.complete && ($0.distance ?? .infinity) < Self.nearFocusMeters }).map(\.score).min() {
                let places = index.places, ward = UInt8(AdminLevel.ward.rawValue), admin = UInt8(PlaceKind.admin.rawValue)
                // The focus's province: that of the nearest result within 5 km that is no unit (free:
                // the results are at hand; a look-up around the focus cost every query ≈ 0.1 ms).
                let nearest = results.filter { places.kind[$0.row] != admin && ($0.distance ?? .infinity) < Self.focusProvinceMeters }
                    .min { ($0.distance ?? 0, $0.row) < ($1.distance ?? 0, $1.row) }
                let province = nearest.map { places.newProvince($0.row) }
                for i in results.indices where places.adminLevel[results[i].row] == ward
                    && ((results[i].distance ?? 0) > Self.farWardMeters || province.map { places.newProvince(results[i].row) != $0 } == true) {
                    results[i].score = min(results[i].score, nearComplete - 0.001)
                }
            }
        }
        return results
    }

    /// Score for a name whose accents are those typed ("Phạm Vấn" typed: the street Phạm Vấn, not
    /// Phạm Văn …) and taken off one whose accents contradict them; nothing for unaccented text.
    static let toneBonus = 0.08

    /// The tone rule: folding merges "Vấn" and "Văn"; a query typed with accents keeps them apart.
    /// Each result whose name holds every accented query word with those accents gains
    /// ``toneBonus``; one holding such a word with other accents loses it.
    /// Whether the accented word `typed` (as ``TextFolding/accentedWords`` gives it: decomposed, the
    /// tone last) is how `word` starts: its letters and vowel marks begin `word`'s, not cut inside a
    /// letter ("kho" does not begin "không"), and its tone, if typed yet, is `word`'s.
    static func accentedStart(_ typed: String, of word: String) -> Bool {
        func split(_ w: String) -> (base: [Unicode.Scalar], tone: [Unicode.Scalar]) {
            var base = Array(w.unicodeScalars), tone: [Unicode.Scalar] = []
            while let last = base.last, [0x0300, 0x0301, 0x0303, 0x0309, 0x0323].contains(last.value) { tone.insert(base.removeLast(), at: 0) }
            return (base, tone)
        }
        let (typedBase, typedTone) = split(typed), (wordBase, wordTone) = split(word)
        guard typedBase.count <= wordBase.count, wordBase.starts(with: typedBase) else { return false }
        if typedBase.count < wordBase.count, (0x0300...0x036F).contains(wordBase[typedBase.count].value) { return false }
        return typedTone.isEmpty || typedTone == wordTone
    }

    private func applyToneRule(_ results: inout [Ranked], text: String) {
        let typed = TextFolding.accentedWords(text).filter(TextFolding.hasAccents)
        guard !typed.isEmpty else { return }
        // The words are decomposed already: their base letters are the key (cheaper than `fold`).
        func base(_ word: String) -> String {
            var out = String.UnicodeScalarView()
            for scalar in word.unicodeScalars where !(0x0300...0x036F).contains(scalar.value) {
                out.append(scalar.value == 0x0111 ? "d" : scalar)
            }
            return String(out)
        }
        let typedFolded = typed.map(base)
        // Every typed word, folded: a name that is all of them is the exact name only if its accents agree.
        let query = TextFolding.accentedWords(text).map(base)
        // Only the leading results can change places: the best 8 — again after each pass, since a
        // name taken down lets one below into the best 8 that was not looked at yet ("Báo": every
        // "Bảo tàng …" is taken down, not only the first eight).
        var examined = Set<Int>()
        for _ in 0..<8 {
            var order: [Int] = []
            for i in results.indices {
                if order.count < 8 { order.append(i); continue }
                if let worst = order.indices.min(by: { results[order[$0]].score < results[order[$1]].score }),
                   results[i].score > results[order[worst]].score { order[worst] = i }
            }
            let fresh = order.filter { examined.insert($0).inserted }
            if fresh.isEmpty { break }
            for i in fresh { applyToneRule(to: &results[i], typed: typed, typedFolded: typedFolded, query: query, base: base) }
        }
    }

    /// The tone rule on one result (see `applyToneRule(_:text:)`).
    private func applyToneRule(to result: inout Ranked, typed: [String], typedFolded: [String], query: [String], base: (String) -> String) {
        let places = index.places
        let text = places.text(result.row, .name)
        // A name written without accents says nothing either way.
        guard TextFolding.hasAccents(text) else { return }
        let name = TextFolding.accentedWords(text)
        let folded = name.map(base)
        var all = true, conflict = false, conflictTyping = false
        for (position, (word, key)) in zip(typed, typedFolded).enumerated() {
            var same = false, other = false
            let isLast = position == typed.count - 1
            for (n, f) in zip(name, folded) where f == key || (isLast && f.hasPrefix(key)) {
                // (The word being typed: its accented start must match too — "Khó" is the start of
                // "Khói", not of "Không".)
                if n == word || (isLast && Self.accentedStart(word, of: n)) { same = true } else { other = true }
            }
            if !same { all = false }
            if other && !same {
                conflict = true
                if isLast && key == query.last { conflictTyping = true }
            }
        }
        if all {
            result.score += Self.toneBonus
            result.tone = 1
        } else if conflict {
            // When the word being typed has other accents, a name that begins (or is) the typed words
            // only once folded does not begin with (or is not) what was typed: no begins-with or
            // exact-name bonus either ("Quán" typed is neither "Quận 1" nor "Quận"; "Điểm" is not
            // "Diễm"). (An earlier word's other tone is only the nudge: "Chùa Huệ Nghiêm" typed is
            // also the pagoda spelled "Chùa Huê Nghiêm".)
            var penalty = Self.toneBonus
            if conflictTyping, folded.count >= query.count, zip(folded, query).enumerated().allSatisfy({ k, pair in
                pair.0 == pair.1 || (k == query.count - 1 && pair.0.hasPrefix(pair.1)) }) {
                penalty += MatchScorer.orderBonus + (folded == query ? MatchScorer.exactBonus : 0)
            }
            result.score -= penalty
            result.tone = -1
        }
    }

    /// Distance decides among equals: within the first `window` results (sorted), places with the
    /// same name (spaces aside) and the same kind of place — a chain's shops, one name's bus stops —
    /// swap so the nearest to the focus takes the best place the name reached, the next the next.
    /// (A market and the bus stop named after it are of different groups and keep their order.)
    private func nearestAmongEquals(_ results: inout [Ranked], window: Int) {
        let places = index.places
        var groups: [[UInt8]: [Int]] = [:]
        for p in 0..<min(window, results.count) {
            let row = results[p].row
            // (Names the tone rule told apart stay apart: "Cầu …" typed is not "Câu …".)
            var key: [UInt8] = [places.kind[row], UInt8(bitPattern: results[p].tone)]
            places.arena.withUnsafeBufferPointer { arena in
                key += arena[places.span(row, .nameKey)].filter { $0 != UInt8(ascii: " ") }
                key.append(UInt8(ascii: "|"))
                // The category's group (first two digits: a bank and its ATM, a restaurant and a café).
                key += arena[places.span(row, .categories)].prefix(2)
            }
            groups[key, default: []].append(p)
        }
        for positions in groups.values where positions.count > 1 {
            let members = positions.map { results[$0] }.sorted { ($0.distance ?? .infinity, $0.row) < ($1.distance ?? .infinity, $1.row) }
            for (p, member) in zip(positions, members) {
                let score = results[p].score
                results[p] = member
                results[p].score = score
            }
        }
    }

    /// The key of the place that is the admin unit `unit` itself.
    static func key(of unit: AdminUnit) -> String {
        key(of: unit.scheme, unit.level, unit.code)
    }

    /// The key of the place that is the admin unit of `scheme`, `level` and `code`.
    static func key(of scheme: AddressFormat, _ level: AdminLevel, _ code: Int) -> String {
        "admin:\(scheme.rawValue):\(level.rawValue):\(code)"
    }

    /// Whether row `row` lies in `unit` (by its codes in the unit's scheme).
    static func lies(_ row: Int, in unit: AdminUnit, _ places: PlaceColumns) -> Bool {
        switch (unit.scheme, unit.level) {
        case (.new, .province): return places.newProvince(row) == unit.code
        case (.old, .province): return places.oldProvince(row) == unit.code
        case (_, .district): return places.oldDistrict(row) == unit.code
        case (.new, .ward): return places.newWard(row) == unit.code
        case (.old, .ward): return places.oldWard(row) == unit.code
        }
    }

    /// Drops results that would read the same as a better one (two bus stops called "Bến Thành C"
    /// in one ward): same name, same kind, same ward in the answer's format.
    /// Also drops a named-locality POI (OSM `place=*`, category 9301) that repeats an administrative
    /// unit among the results ("Quận 1", "Hà Nội" next to Thành Phố Hà Nội).
    private func distinct(_ results: [Ranked], format: AddressFormat, limit: Int) -> [Ranked] {
        struct Identity: Hashable { let name: String; let kind: UInt8; let ward: Int; let district: Int }
        let places = index.places
        let admin = UInt8(PlaceKind.admin.rawValue), poi = UInt8(PlaceKind.poi.rawValue)
        var unitNames = Set<String>()
        for result in results.prefix(limit * 2) where places.kind[result.row] == admin {
            let nameKey = places.text(result.row, .nameKey)
            let words = MatchScorer.words(nameKey)
            unitNames.insert(nameKey)
            if let prefix = MatchScorer.adminPrefixes.filter({ words.starts(with: $0) }).max(by: { $0.count < $1.count }) {
                unitNames.insert(words.dropFirst(prefix.count).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " "))
            }
        }
        var seen = Set<Identity>()
        var kept: [Ranked] = []
        let locality = Array("9301".utf8)
        for result in results where kept.count < limit {
            let row = result.row
            let nameKey = places.text(row, .nameKey)
            if places.kind[row] == poi, places.field(row, .categories, equals: locality), unitNames.contains(nameKey) { continue }
            let identity = format == .new
                ? Identity(name: nameKey, kind: places.kind[row], ward: places.newWard(row), district: places.newProvince(row))
                : Identity(name: nameKey, kind: places.kind[row], ward: places.oldWard(row), district: places.oldDistrict(row))
            if seen.insert(identity).inserted { kept.append(result) }
        }
        return kept
    }

    /// The place with a stable key, or `nil`.
    public func place(key: String) throws -> PlaceRecord? {
        index.places.row(key: key).map(index.places.record)
    }

    /// Every place of `kind`, in row (importance) order: what the map's point layers are drawn from.
    public func forEachPlace(kind: PlaceKind, _ body: (PlaceRecord) throws -> Void) rethrows {
        let places = index.places
        let wanted = UInt8(kind.rawValue)
        for row in 0..<places.count where places.kind[row] == wanted { try body(places.record(row)) }
    }
}

private extension Array where Element == ArraySlice<UInt8> {
    /// Whether the words begin with the words of `prefix`.
    func starts(with prefix: [[UInt8]]) -> Bool {
        guard count >= prefix.count else { return false }
        for (a, b) in zip(self, prefix) where !a.elementsEqual(b) { return false }
        return true
    }
}
