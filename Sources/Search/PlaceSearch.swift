import Foundation
import SQLiteStore
import TextFolding

/// Autocomplete and place look-up over a dataset built by `Dataset`.
///
/// Candidates come from the FTS5 index (`place_fts`): first places whose *name* holds every
/// query word (the last one as a prefix, since the user is still typing), then, if those are
/// few, places whose name *or address* holds them, then places holding any of the words; with a
/// focus, name matches near it are added. Rows are numbered by importance at import,
/// so `ORDER BY rowid LIMIT n` yields the most important matches first and bounds the work
/// however common the words are. `MatchScorer` then ranks the candidates.
public final class PlaceSearch: Sendable {
    public let admin: AdminDirectory
    private let pool: ConnectionPool

    /// How many FTS candidates each stage reads before ranking.
    static let candidatesPerStage = 40
    /// Grid cells of `place_name_fts.cell` (the dataset's `DatasetSchema.cellDegrees`).
    static let cellDegrees = 0.05

    /// The cell tokens covering the focus and its neighbours (≈ 5–11 km around it), formed as
    /// the dataset forms them: "xq" + row·100000 + column from (-90, -180).
    static func cellTokens(around focus: Coordinate) -> [String] {
        let row = Int(((focus.lat + 90) / cellDegrees).rounded(.down))
        let column = Int(((focus.lng + 180) / cellDegrees).rounded(.down))
        var tokens: [String] = []
        for r in row - 1...row + 1 {
            for c in column - 1...column + 1 { tokens.append("xq\(r * 100_000 + c)") }
        }
        return tokens
    }
    /// Longer inputs are cut to this many words.
    static let maxQueryWords = 12

    public init(databasePath: String) throws {
        let database = try Database(path: databasePath, mode: .readOnly)
        admin = try AdminDirectory(database: database)
        // Derived at import (DatasetSchema.MetaKey.streetInitials / .kindWords).
        var meta: [String: String] = [:]
        let statement = try database.prepare("SELECT key, value FROM meta WHERE key IN ('street_initials', 'kind_words')")
        while try statement.step() { meta[statement.text(0)] = statement.text(1) }
        reader = QueryReader(admin: admin, initials: StreetInitials(stored: meta["street_initials"] ?? ""))
        kindWords = Set((meta["kind_words"] ?? "").split(separator: " ").map(String.init))
        typos = LazyTypoVocabulary(databasePath: databasePath)
        // 256 KiB of SQLite page cache per request thread instead of 2 MiB: the file is in the OS
        // page cache anyway, and the candidate cache spares most repeated statements.
        pool = ConnectionPool(path: databasePath) { try $0.execute("PRAGMA cache_size = -256") }
    }

    private let reader: QueryReader
    /// Every word of `place.kind_key`: a query made only of them asks for a kind of place.
    private let kindWords: Set<String>
    private let typos: LazyTypoVocabulary
    private let candidateCache = CandidateCache()

    /// Score bonus for a place inside a unit the query named ("… Q1"), and the malus outside.
    static let unitBonus = 0.25
    /// Score bonus for a place holding every typed word in its name (or kind) as typed.
    static let literalCompleteBonus = 0.2
    /// Text score of a unit the whole query names ("Q1", "District 1", "TP HCM"): above an exact
    /// complete name match (1.0 + exact 0.3 + complete 0.2).
    static let unitOnlyScore = 1.55
    /// With a focus, places this far away are ranked below everything that matches near it.
    static let farFromFocusMeters = 300_000.0
    static let nearFocusMeters = 60_000.0

    public func autocomplete(_ query: AutocompleteQuery) throws -> [SearchResult] {
        var readings = reader.readings(of: query.text)
        guard !readings.isEmpty, query.limit > 0 else { return [] }
        let (filterSQL, filterValues) = filters(for: query)
        var candidates: [Int64: PlaceRecord] = [:]
        var usedAnyWordStage = false
        try pool.withConnection { connection in
            try gather(readings, query: query, filter: (filterSQL, filterValues), connection: connection, into: &candidates)
            let literal = readings[0].words
            if candidates.isEmpty && literal.count > 1 {
                usedAnyWordStage = true
                let quoted = literal.enumerated().map { i, t in i == literal.count - 1 ? "\"\(t)\"*" : "\"\(t)\"" }
                try self.collect(quoted.joined(separator: " OR "), in: "place_fts", limit: Self.candidatesPerStage,
                                 filter: (filterSQL, filterValues), connection: connection, into: &candidates)
            }
        }
        var results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage)
        // One typing error: only when nothing matches every word as typed, so exact matches cost nothing more.
        // Not while a short last word is still being typed ("197 tran p"): the next letter decides.
        let lastWord = readings[0].words.last ?? ""
        if !results.contains(where: { $0.complete }) && (lastWord.count >= 3 || lastWord.first?.isNumber == true) {
            var typoReadings = typoReadings(of: readings[0])
            // A word the data lacks ("… cathedrl", a shop's slogan) must not empty the list:
            // the query without one of its words, below every reading that keeps them all.
            if readings[0].words.count >= 3 { typoReadings += Self.droppedWordReadings(of: readings[0]) }
            if !typoReadings.isEmpty {
                readings += typoReadings
                try pool.withConnection { connection in
                    try gather(typoReadings, query: query, filter: (filterSQL, filterValues), connection: connection, into: &candidates)
                }
                results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage)
            }
        }
        // With a focus and nothing near it holding every word: what near it matches part of the
        // query (the focus rule then ranks it above far-away full matches).
        if let focus = query.focus, readings[0].words.count >= 2,
           !results.contains(where: { $0.complete && ($0.result.distanceMeters ?? .infinity) < Self.nearFocusMeters }) {
            let partial = Self.droppedWordReadings(of: readings[0])
            let cells = Self.cellTokens(around: focus).map { "\"\($0)\"" }.joined(separator: " OR ")
            try pool.withConnection { connection in
                for reading in partial {
                    let quoted = reading.words.enumerated().map { i, t in
                        i == reading.words.count - 1 && reading.lastIsPrefix ? "\"\(t)\"*" : "\"\(t)\"" }
                    try self.collect("{name} : (\(quoted.joined(separator: " "))) AND {cell} : (\(cells))", in: "place_name_fts",
                                     limit: Self.candidatesPerStage / 2, filter: (filterSQL, filterValues), connection: connection, into: &candidates)
                }
            }
            readings += partial
            results = rank(candidates, readings: readings, query: query, anyWordStage: usedAnyWordStage)
        }
        results.sort { $0.result.score != $1.result.score ? $0.result.score > $1.result.score : $0.result.place.id < $1.result.place.id }
        return Self.distinct(results.map(\.result), format: query.format, limit: query.limit)
    }

    /// Readings of `literal` with one word corrected to a known word one edit away (words of
    /// three letters or more, not the prefix being typed), at most 6.
    private func typoReadings(of literal: QueryReading) -> [QueryReading] {
        var out: [QueryReading] = []
        for (index, word) in literal.words.enumerated() where word.count >= 3 && word.allSatisfy({ $0.isLetter }) {
            let isLast = index == literal.words.count - 1
            if isLast && word.count < 5 { continue }
            for correction in typos.vocabulary.corrections(of: word, limit: word.count >= 5 ? 2 : 3) {
                var copy = literal
                copy.words[index] = correction
                copy.understood = true
                copy.penalty = Self.typoPenalty
                if isLast { copy.lastIsPrefix = false }
                out.append(copy)
                if out.count >= 6 { return out }
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

    /// Runs the candidate stages of every reading.
    private func gather(_ readings: [QueryReading], query: AutocompleteQuery, filter: (String, [SQLiteValue]),
                        connection: ThreadConnection, into candidates: inout [Int64: PlaceRecord]) throws {
        func collect(_ expression: String, in table: String, limit: Int, extra: (String, [SQLiteValue]) = ("", [])) throws -> Int {
            try self.collect(expression, in: table, limit: limit, filter: (filter.0 + extra.0, filter.1 + extra.1),
                             connection: connection, into: &candidates)
        }
        for reading in readings {
            guard !reading.words.isEmpty else {
                // The text names only units ("Q1", "TP HCM", "P. Bến Nghé"): the units themselves.
                let keys = reading.units.prefix(20).map { "'admin:\($0.scheme.rawValue):\($0.level.rawValue):\($0.code)'" }
                let statement = try connection.statement("SELECT \(PlaceRecord.columns) FROM place p WHERE p.key IN (\(keys.joined(separator: ",")))" + filter.0)
                try statement.bind(filter.1)
                defer { statement.reset() }
                while try statement.step() {
                    let place = Self.record(statement)
                    candidates[place.id] = place
                }
                continue
            }
            let quoted = reading.words.enumerated().map { i, t in
                i == reading.words.count - 1 && reading.lastIsPrefix ? "\"\(t)\"*" : "\"\(t)\"" }
            let allWords = quoted.joined(separator: " ")
            // 1. Every word in the name; 2. the same near the focus, so a nearby café is not
            // crowded out by more important ones across the country; 3. places of the kind the
            // words name ("cafe", "bưu điện"), near the focus first; 4. the same inside the units
            // the query named; 5. if that is too little, every word in name or address ("le loi
            // quan 1").
            let inName = "{name} : (\(allWords))"
            let nameMatches = try collect(inName, in: "place_name_fts", limit: Self.candidatesPerStage)
            // Fewer rows than the limit means every name match is already in.
            if let focus = query.focus, nameMatches == Self.candidatesPerStage {
                let cells = Self.cellTokens(around: focus).map { "\"\($0)\"" }.joined(separator: " OR ")
                _ = try collect("\(inName) AND {cell} : (\(cells))", in: "place_name_fts", limit: Self.candidatesPerStage / 2)
            }
            // Only for a pure kind query ("cafe", "cây xăng") or when few names hold the words
            // ("công viên Tao Đàn": the park is called "Tao Dan Park").
            if reading.words.count <= 4, mayNameAKind(reading), nameMatches < 3 || isKindOnly(reading) {
                if let focus = query.focus {
                    let cells = Self.cellTokens(around: focus).map { "\"\($0)\"" }.joined(separator: " OR ")
                    _ = try collect("{name kind} : (\(allWords)) AND {cell} : (\(cells))", in: "place_name_fts", limit: Self.candidatesPerStage)
                } else {
                    _ = try collect("{name kind} : (\(allWords))", in: "place_name_fts", limit: Self.candidatesPerStage / 2)
                }
            }
            // (A filtered stage scans the words' whole doclist when the unit holds none of them:
            // only when the unit was named explicitly and the unfiltered stage was cut short.)
            if !reading.units.isEmpty && reading.penalty == 0 && nameMatches == Self.candidatesPerStage {
                let unitFilter = Self.unitFilter(reading.units)
                _ = try collect(inName, in: "place_name_fts", limit: Self.candidatesPerStage / 2, extra: unitFilter)
                _ = try collect(allWords, in: "place_fts", limit: Self.candidatesPerStage / 2, extra: unitFilter)
            }
            if candidates.count < query.limit { _ = try collect(allWords, in: "place_fts", limit: Self.candidatesPerStage) }
        }
    }

    /// Adds up to `limit` matches of `expression` in `table` (most important first); returns the rows read.
    /// (The rows of a statement run before come from `candidateCache`.)
    @discardableResult
    private func collect(_ expression: String, in table: String, limit: Int, filter: (String, [SQLiteValue]),
                         connection: ThreadConnection, into candidates: inout [Int64: PlaceRecord]) throws -> Int {
        let sql = "SELECT \(PlaceRecord.columns) FROM \(table) JOIN place p ON p.id = \(table).rowid WHERE \(table) MATCH ?"
            + filter.0 + " ORDER BY \(table).rowid LIMIT \(limit)"
        let key = CandidateCache.key(sql: sql, expression: expression, values: filter.1)
        if let ids = candidateCache.rows(for: key) {
            for id in ids where candidates[id] == nil {
                guard let place = try record(id: id, connection: connection) else { continue }
                candidates[id] = place
            }
            return ids.count
        }
        let statement = try connection.statement(sql)
        try statement.bind([.text(expression)] + filter.1)
        defer { statement.reset() }
        var ids: [Int64] = []
        ids.reserveCapacity(limit)
        while try statement.step() {
            let id = statement.int64(0)
            ids.append(id)
            // A row an earlier stage already read is the same record: skip decoding its columns.
            guard candidates[id] == nil else { continue }
            let place = Self.record(statement)
            candidates[id] = place
            candidateCache.store(place)
        }
        candidateCache.store(rows: ids, for: key)
        return ids.count
    }

    /// The place with row id `id`, from `candidateCache` or the table.
    private func record(id: Int64, connection: ThreadConnection) throws -> PlaceRecord? {
        if let cached = candidateCache.record(id) { return cached }
        let statement = try connection.statement("SELECT \(PlaceRecord.columns) FROM place p WHERE p.id = ?")
        try statement.bind(.integer(id))
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let place = Self.record(statement)
        candidateCache.store(place)
        return place
    }

    /// Scores every candidate by its best reading; `complete` when some reading's words are all in its name.
    private func rank(_ candidates: [Int64: PlaceRecord], readings: [QueryReading], query: AutocompleteQuery,
                      anyWordStage: Bool) -> [(result: SearchResult, complete: Bool)] {
        let scorers = readings.map {
            MatchScorer(queryTokens: $0.words.map { Substring($0) }, focus: query.focus,
                        isKindQuery: !$0.words.isEmpty && $0.words.allSatisfy(kindWords.contains))
        }
        var results: [(result: SearchResult, complete: Bool)] = []
        results.reserveCapacity(candidates.count)
        for place in candidates.values {
            if let circle = query.circle, circle.center.distance(to: place.coordinate) > circle.radiusMeters { continue }
            var best: (value: Double, coverage: Double, distance: Double?, complete: Bool)?
            var anyComplete = false
            var words = MatchScorer.PlaceWords(place)
            for (reading, scorer) in zip(readings, scorers) {
                var value: Double, coverage: Double, distance: Double?, complete: Bool
                if reading.words.isEmpty {
                    guard reading.units.contains(where: { Self.isUnit(place, $0) }) else { continue }
                    // The whole text read as this unit: as good as an exact, complete name match.
                    // (A little more when its name is also what was typed: "phường Ba Đình" is
                    // Phường Ba Đình before Xã Ba Đình.)
                    value = Self.unitOnlyScore + MatchScorer.importanceWeight * place.importance + (anyComplete ? 0.05 : 0)
                    coverage = 1
                    complete = true
                    if let focus = query.focus {
                        distance = focus.distance(to: place.coordinate)
                        value += MatchScorer.proximityWeight * exp(-distance! / MatchScorer.proximityScaleMeters)
                    }
                } else {
                    let score = scorer.score(place, words: &words)
                    (value, coverage, distance, complete) = (score.value, score.coverage, score.distance, score.complete)
                    if reading.understood { value -= 0.01 + reading.penalty }
                    // Every word as typed is in the name: above readings that had to reinterpret
                    // some words ("bưu điện sài gòn" is the post office called so, not any in the city).
                    else if score.complete { value += Self.literalCompleteBonus }
                    if !reading.units.isEmpty {
                        // A province is a weak hint, a ward a strong one.
                        let bonus = reading.units.map { $0.level == .province ? Self.unitBonus / 2.5 : Self.unitBonus }.max() ?? 0
                        value += reading.units.contains(where: { Self.lies(place, in: $0) }) ? bonus : -bonus
                    }
                }
                anyComplete = anyComplete || (complete && reading.penalty == 0)
                if best == nil || value > best!.value { best = (value, coverage, distance, false) }
            }
            guard let best else { continue }
            if anyWordStage && best.coverage < 0.5 { continue }
            results.append((SearchResult(place: place, distanceMeters: best.distance, score: best.value), anyComplete))
        }
        // With a focus, nothing far away comes first when something near it matches as well.
        if query.focus != nil,
           let nearBest = results.filter({ ($0.result.distanceMeters ?? .infinity) < Self.nearFocusMeters }).map(\.result.score).max() {
            for index in results.indices where (results[index].result.distanceMeters ?? 0) > Self.farFromFocusMeters {
                results[index].result.score = min(results[index].result.score, nearBest - 0.001) - 0.5
            }
        }
        return results
    }

    /// Whether `place` is the admin unit `unit` itself.
    static func isUnit(_ place: PlaceRecord, _ unit: AdminUnit) -> Bool {
        place.key == "admin:\(unit.scheme.rawValue):\(unit.level.rawValue):\(unit.code)"
    }

    /// Whether `place` lies in `unit` (by its codes in the unit's scheme).
    static func lies(_ place: PlaceRecord, in unit: AdminUnit) -> Bool {
        switch (unit.scheme, unit.level) {
        case (.new, .province): return place.newProvince == unit.code
        case (.old, .province): return place.oldProvince == unit.code
        case (_, .district): return place.oldDistrict == unit.code
        case (.new, .ward): return place.newWard == unit.code
        case (.old, .ward): return place.oldWard == unit.code
        }
    }

    /// SQL (" AND (…)") keeping places inside any of `units`.
    static func unitFilter(_ units: [AdminUnit]) -> (String, [SQLiteValue]) {
        var clauses: [String] = []
        var values: [SQLiteValue] = []
        for unit in units.prefix(20) {
            let column: String
            switch (unit.scheme, unit.level) {
            case (.new, .province): column = "p.new_province"
            case (.old, .province): column = "p.old_province"
            case (_, .district): column = "p.old_district"
            case (.new, .ward): column = "p.new_ward"
            case (.old, .ward): column = "p.old_ward"
            }
            clauses.append("\(column) = ?")
            values.append(.integer(Int64(unit.code)))
        }
        return (" AND (\(clauses.joined(separator: " OR ")))", values)
    }

    /// Drops results that would read the same as a better one (two bus stops called "Bến Thành C"
    /// in one ward): same name, same kind, same ward in the answer's format.
    /// Also drops a named-locality POI (OSM `place=*`, category 9301) that repeats an administrative
    /// unit among the results ("Quận 1", "Hà Nội" next to Thành Phố Hà Nội).
    static func distinct(_ results: [SearchResult], format: AddressFormat, limit: Int) -> [SearchResult] {
        struct Identity: Hashable { let name: String; let kind: Int; let ward: Int; let district: Int }
        var unitNames = Set<String>()
        for result in results.prefix(limit * 2) where result.place.kind == .admin {
            let words = MatchScorer.words(result.place.nameKey)
            unitNames.insert(result.place.nameKey)
            if let prefix = MatchScorer.adminPrefixes.filter({ words.starts(with: $0) }).max(by: { $0.count < $1.count }) {
                unitNames.insert(words.dropFirst(prefix.count).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " "))
            }
        }
        var seen = Set<Identity>()
        var kept: [SearchResult] = []
        for result in results where kept.count < limit {
            let p = result.place
            if p.kind == .poi, p.categories == ["9301"], unitNames.contains(p.nameKey) { continue }
            let identity = format == .new
                ? Identity(name: p.nameKey, kind: p.kind.rawValue, ward: p.newWard, district: p.newProvince)
                : Identity(name: p.nameKey, kind: p.kind.rawValue, ward: p.oldWard, district: p.oldDistrict)
            if seen.insert(identity).inserted { kept.append(result) }
        }
        return kept
    }

    /// The place with a stable key, or `nil`.
    public func place(key: String) throws -> PlaceRecord? {
        try pool.withConnection { connection in
            let statement = try connection.statement("SELECT \(PlaceRecord.columns) FROM place p WHERE p.key = ?")
            try statement.bind(.text(key))
            defer { statement.reset() }
            return try statement.step() ? Self.record(statement) : nil
        }
    }

    /// SQL conditions (each starting with " AND ") and their values for the query's filters.
    private func filters(for query: AutocompleteQuery) -> (String, [SQLiteValue]) {
        var sql = " AND p.scheme IN (0, ?)"
        var values: [SQLiteValue] = [.integer(Int64(query.format.rawValue))]
        if let city = query.cityId {
            sql += " AND (p.new_province = ? OR p.old_province = ?)"
            values += [.integer(Int64(city)), .integer(Int64(city))]
        }
        if let district = query.districtId {
            sql += " AND p.old_district = ?"
            values.append(.integer(Int64(district)))
        }
        if let ward = query.wardId {
            sql += " AND (p.new_ward = ? OR p.old_ward = ?)"
            values += [.integer(Int64(ward)), .integer(Int64(ward))]
        }
        if let circle = query.circle {
            let dLat = circle.radiusMeters / 111_320
            let dLng = dLat / max(0.01, cos(circle.center.lat * .pi / 180))
            sql += " AND p.lat BETWEEN ? AND ? AND p.lng BETWEEN ? AND ?"
            values += [.real(circle.center.lat - dLat), .real(circle.center.lat + dLat),
                       .real(circle.center.lng - dLng), .real(circle.center.lng + dLng)]
        }
        if !query.categories.isEmpty {
            let any = query.categories.map { _ in "(',' || p.categories || ',') LIKE ?" }.joined(separator: " OR ")
            sql += " AND (\(any))"
            values += query.categories.map { .text("%,\($0),%") }
        }
        if !query.layers.isEmpty {
            var clauses: [String] = []
            if query.layers.contains(.poi) || query.layers.contains(.building) { clauses.append("p.kind = 1") }
            if query.layers.contains(.street) { clauses.append("p.kind = 2") }
            if query.layers.contains(.address) { clauses.append("p.kind = 3") }
            let levels = [(SearchLayer.city, "p.key LIKE 'admin:%:0:%'"), (.district, "p.key LIKE 'admin:%:1:%'"),
                          (.ward, "p.key LIKE 'admin:%:2:%'")]
            for (layer, clause) in levels where query.layers.contains(layer) { clauses.append(clause) }
            sql += clauses.isEmpty ? " AND 0" : " AND (\(clauses.joined(separator: " OR ")))"
        }
        return (sql, values)
    }

    static func record(_ s: Statement) -> PlaceRecord {
        PlaceRecord(
            id: s.int64(0), key: s.text(1), kind: PlaceKind(rawValue: s.int(2)) ?? .poi,
            scheme: AddressFormat(rawValue: s.int(3)), name: s.text(4), houseNumber: s.text(5), street: s.text(6),
            categories: s.text(7).split(separator: ",").map(String.init),
            coordinate: Coordinate(lat: s.double(8), lng: s.double(9)), importance: s.double(10),
            newWard: s.int(11), newProvince: s.int(12), oldWard: s.int(13), oldDistrict: s.int(14), oldProvince: s.int(15),
            nameKey: s.text(16), addressKey: s.text(17), kindKey: s.text(18), aliasKey: s.text(19))
    }
}
