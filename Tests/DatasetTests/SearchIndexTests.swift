import ArrayBlob
import Dataset
import Foundation
import Routing
@testable import Search
import SQLiteStore
import TextFolding
import TestExpectations
import Testing

/// The in-memory search index against the FTS5 tables it replaced, on the default dataset: the
/// same rows, in the same order, for every kind of candidate statement search used to run.
@Suite final class SearchIndexTests {
    static let foci = [Coordinate(lat: 10.7769, lng: 106.7009), Coordinate(lat: 21.0285, lng: 105.8542), Coordinate(lat: 10.7830, lng: 106.6870)]

    /// FTS5 rows of `expression` in `table` with an optional SQL filter, most important first.
    private func ftsRows(_ db: Database, _ table: String, _ expression: String, filter: String = "", limit: Int = 40) throws -> [Int] {
        let statement = try db.prepare("SELECT p.id FROM \(table) JOIN place p ON p.id = \(table).rowid WHERE \(table) MATCH ?\(filter) ORDER BY \(table).rowid LIMIT \(limit)")
        try statement.bind(.text(expression))
        var rows: [Int] = []
        while try statement.step() { rows.append(statement.int(0) - 1) }
        return rows
    }

    private func quoted(_ words: [String], lastIsPrefix: Bool) -> String {
        words.enumerated().map { i, w in i == words.count - 1 && lastIsPrefix ? "\"\(w)\"*" : "\"\(w)\"" }.joined(separator: " ")
    }

    private func conditions(_ index: SearchIndex, _ words: [String], lastIsPrefix: Bool, in columns: TermIndex.Columns) -> [RowCondition] {
        words.enumerated().map { i, w in .words(index.terms.match(Array(w.utf8), prefix: i == words.count - 1 && lastIsPrefix, in: columns)) }
    }

    /// Queries: every prefix of the search-quality queries, folded, plus single letters and common words.
    private func queries() throws -> [[String]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scripts/search-quality/queries.json")
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
        var out = Set<[String]>()
        for entry in entries {
            let text = entry["q"] as! String
            for end in text.indices.dropFirst() + [text.endIndex] {
                let words = TextFolding.tokens(String(text[..<end])).map(String.init)
                if !words.isEmpty { out.insert(words) }
            }
        }
        for letter in "abcdefghijklmnopqrstuvwxyz0123456789" { out.insert([String(letter)]) }
        for words in [["ph", "n"], ["t", "t"], ["cafe"], ["pho"], ["197", "tran", "p"], ["xyzzy"], ["ba", "d"], ["반미"], ["ресторан"]] { out.insert(words) }
        return out.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
    }

    @Test func testEveryWordStatementMatchesFTS5() throws {
        let db = try SharedDataset.open()
        let index = try SearchIndex.load(path: try SharedDataset.get().url.path, database: db)
        let all = try queries()
        expectGreaterThan(all.count, 700)
        var compared = 0
        for words in all {
            for lastIsPrefix in [true, false] {
                let expression = quoted(words, lastIsPrefix: lastIsPrefix)
                // Every word in the name.
                expectEqual(index.firstRows(allOf: conditions(index, words, lastIsPrefix: lastIsPrefix, in: .name), limit: 40) { _ in true },
                               try ftsRows(db, "place_name_fts", "{name} : (\(expression))"), "name: \(expression)")
                // Every word in name or address; and any word.
                expectEqual(index.firstRows(allOf: conditions(index, words, lastIsPrefix: lastIsPrefix, in: [.name, .address]), limit: 40) { _ in true },
                               try ftsRows(db, "place_fts", expression), "anywhere: \(expression)")
                expectEqual(index.firstRows(anyOf: words.enumerated().map { i, w in
                    index.terms.match(Array(w.utf8), prefix: lastIsPrefix && i == words.count - 1, in: [.name, .address]) }, limit: 40) { _ in true },
                               try ftsRows(db, "place_fts", words.enumerated().map { i, w in lastIsPrefix && i == words.count - 1 ? "\"\(w)\"*" : "\"\(w)\"" }.joined(separator: " OR ")),
                               "any: \(expression)")
                compared += 3
            }
            // Name or kind near each focus (the cell column).
            for focus in Self.foci {
                let cells = SearchIndex.cells(around: focus)
                let cellExpression = cells.map { "\"xq\($0)\"" }.joined(separator: " OR ")
                let expression = quoted(words, lastIsPrefix: true)
                expectEqual(index.firstRows(allOf: conditions(index, words, lastIsPrefix: true, in: [.name, .kind]) + [.cells(cells)], limit: 40) { _ in true },
                               try ftsRows(db, "place_name_fts", "{name kind} : (\(expression)) AND {cell} : (\(cellExpression))"),
                               "near \(focus): \(expression)")
                compared += 1
            }
        }
        print("compared \(compared) statements")
    }

    @Test func testFiltersMeanWhatTheSQLMeant() throws {
        let db = try SharedDataset.open()
        let index = try SearchIndex.load(path: try SharedDataset.get().url.path, database: db)
        let center = Self.foci[0]
        let cases: [(AutocompleteQuery, String)] = [
            (AutocompleteQuery(text: "", format: .old), " AND p.scheme IN (0, 2)"),
            (AutocompleteQuery(text: "", cityId: 1), " AND p.scheme IN (0, 1) AND (p.new_province = 1 OR p.old_province = 1)"),
            (AutocompleteQuery(text: "", format: .old, districtId: 760), " AND p.scheme IN (0, 2) AND p.old_district = 760"),
            (AutocompleteQuery(text: "", wardId: 26740), " AND p.scheme IN (0, 1) AND (p.new_ward = 26740 OR p.old_ward = 26740)"),
            (AutocompleteQuery(text: "", circle: SearchCircle(center: center, radiusMeters: 1500)),
             " AND p.scheme IN (0, 1) AND p.lat BETWEEN \(center.lat - 1500 / 111_320.0) AND \(center.lat + 1500 / 111_320.0)"
             + " AND p.lng BETWEEN \(center.lng - 1500 / 111_320.0 / cos(center.lat * .pi / 180)) AND \(center.lng + 1500 / 111_320.0 / cos(center.lat * .pi / 180))"),
            (AutocompleteQuery(text: "", categories: ["1002-1", "2001_"]),
             " AND p.scheme IN (0, 1) AND ((',' || p.categories || ',') LIKE '%,1002-1,%' OR (',' || p.categories || ',') LIKE '%,2001_,%')"),
            (AutocompleteQuery(text: "", layers: [.poi, .ward]), " AND p.scheme IN (0, 1) AND (p.kind = 1 OR p.key LIKE 'admin:%:2:%')"),
            (AutocompleteQuery(text: "", layers: [.city, .district, .street]), " AND p.scheme IN (0, 1) AND (p.kind = 2 OR p.key LIKE 'admin:%:0:%' OR p.key LIKE 'admin:%:1:%')"),
            (AutocompleteQuery(text: "", layers: [.village]), " AND 0"),
        ]
        // A selective filter reads past the first rows: the common words are then intersected in
        // bit sets, kept in one `RowMarks` for every case (a query's stages share them so).
        let marks = RowMarks()
        for (query, sql) in cases {
            let filter = PlaceFilter(query)
            for words in [["a"], ["ph"], ["t"], ["ben", "th"], ["ha", "noi"], ["nguyen"], ["duong", "nguyen", "t"]] {
                let expression = quoted(words, lastIsPrefix: true)
                let expected = try ftsRows(db, "place_fts", expression, filter: sql)
                for shared in [nil, marks, marks] {
                    expectEqual(index.firstRows(allOf: conditions(index, words, lastIsPrefix: true, in: [.name, .address]), limit: 40, marks: shared) {
                        filter.accepts($0, in: index.places) }, expected, "\(sql): \(expression)")
                }
            }
        }
    }

    @Test func testRecordsAndKeysAreThoseOfThePlaceTable() throws {
        let db = try SharedDataset.open()
        let index = try SearchIndex.load(path: try SharedDataset.get().url.path, database: db)
        expectEqual(index.count, try db.scalarInt("SELECT count(*) FROM place"))
        let statement = try db.prepare("SELECT id, key, name, hs_num, street, categories, lat, lng, importance, new_ward, old_district, alias_key, address_key, name_key, kind_key FROM place WHERE id % 97 = 1 OR (kind = 1 AND street != '')")
        var checked = 0
        while try statement.step() {
            let row = statement.int(0) - 1
            let record = index.places.record(row)
            expectEqual(record.key, statement.text(1))
            expectEqual(record.name, statement.text(2))
            expectEqual(record.houseNumber, statement.text(3))
            expectEqual(record.street, statement.text(4))
            expectEqual(record.categories.joined(separator: ","), statement.text(5))
            expectEqual(record.coordinate, Coordinate(lat: statement.double(6), lng: statement.double(7)))
            expectEqual(record.importance, statement.double(8))
            expectEqual(record.newWard, statement.int(9))
            expectEqual(record.oldDistrict, statement.int(10))
            expectEqual(index.places.text(row, .aliasKey), statement.text(11))
            expectEqual(index.places.addressKey(row), statement.text(12), "the address rebuilt from street and group")
            expectEqual(index.places.text(row, .nameKey), statement.text(13))
            expectEqual(index.places.text(row, .kindKey), statement.text(14))
            expectEqual(index.places.row(key: record.key), row)
            checked += 1
        }
        expectGreaterThan(checked, 3_000)
        expectNil(index.places.row(key: "poi:node/0"))
        expectNil(index.places.row(key: ""))
    }

    /// `serve`'s index is the dataset's section mapped and read in place; it answers exactly as
    /// a heap copy of the same bytes.
    @Test func testTheStoredIndexIsReadInPlaceAndAnswersAsACopy() throws {
        let path = try SharedDataset.get().url.path
        let mapped = try SearchIndex.load(path: path, database: try SharedDataset.open())
        let copy = try SearchIndex.decode(mapped.serialized())
        for array in [mapped.places.arena.isMapped, mapped.terms.postings.isMapped, mapped.typos.wordBytes.isMapped,
                      mapped.reverseGrid.cellRows.isMapped] {
            expectTrue(array)
        }
        expectFalse(copy.places.arena.isMapped)
        var compared = 0
        for prefix in ["a", "b", "ca", "nha", "ph", "ng", "ben", "tr", "1", "q"] {
            let match = mapped.terms.match(Array(prefix.utf8), prefix: true, in: [.name, .address])
            expectEqual(mapped.terms.postingCount(match), copy.terms.postingCount(match), prefix)
            let first = mapped.firstRows(allOf: [.words(match)], limit: 50) { _ in true }
            expectEqual(first, copy.firstRows(allOf: [.words(match)], limit: 50) { _ in true }, prefix)
            expectEqual(first.map { mapped.places.record($0).name }, first.map { copy.places.record($0).name })
            compared += first.count
        }
        expectGreaterThan(compared, 300)
        let point = Coordinate(lat: 21.0285, lng: 105.8542)
        let near = ReverseGeocoder(index: mapped, mapping: try AdminMapping(database: try SharedDataset.open())).reverse(ReverseQuery(point: point))
        expectFalse(near.isEmpty)
        expectEqual(near.map(\.newPlace?.key),
                       ReverseGeocoder(index: copy, mapping: try AdminMapping(database: try SharedDataset.open()))
                        .reverse(ReverseQuery(point: point)).map(\.newPlace?.key))
        expectEqual(mapped.typos.corrections(of: "thnah", limit: 4), copy.typos.corrections(of: "thnah", limit: 4))
        expectFalse(mapped.typos.corrections(of: "thnah", limit: 4).isEmpty)
    }

    @Test func testTheStoredIndexRoundTripsAndADamagedOneIsRefused() throws {
        let path = try SharedDataset.get().url.path
        let index = try SearchIndex.load(path: path, database: try SharedDataset.open())
        let bytes = index.serialized()
        expectEqual(try SearchIndex.decode(bytes).serialized(), bytes)
        let sections = try FileSections.directory(path: path)
        expectEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))[sections[SearchIndex.sectionName]!]), bytes,
                       "the stored section is what the index serializes to")
        // The road graph shares the blob format (`ArrayBlob`): the stored one reads and writes back byte for byte.
        let stored = Array(try Data(contentsOf: URL(fileURLWithPath: path))[try unwrap(sections[RoadGraph.sectionName])])
        expectGreaterThan(stored.count, 100_000)
        expectEqual(try RoadGraph(serialized: stored).serialized(), stored)
        expectThrowsError(try RoadGraph(serialized: Array(stored.dropLast(3))))
        // Cut short, wrong magic, wrong version, a count pointing past the end, a row number out of range.
        var damaged: [[UInt8]] = [Array(bytes.prefix(bytes.count / 2)), Array(bytes.dropLast()), [], Array("VMSY".utf8) + bytes.dropFirst(4)]
        var version = bytes
        version[4] = 99
        damaged.append(version)
        var count = bytes
        for i in 8..<16 { count[i] = 0xFF }
        damaged.append(count)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            var flipped = bytes
            let i = Int.random(in: 8..<flipped.count, using: &rng)
            flipped[i] ^= 0xFF
            damaged.append(flipped)
        }
        for (n, blob) in damaged.enumerated() {
            // A flip inside text or coordinates can still be a consistent index; it must never crash.
            if n < 6 { expectThrowsError(try SearchIndex.decode(blob), "damage \(n)") } else { _ = try? SearchIndex.decode(blob) }
        }
    }

    @Test func testLikeFollowsSQLite() throws {
        let db = try SharedDataset.open()
        let cases = [("%,a_c,%", ",x,abc,y,"), ("%,a_c,%", ",x,ac,y,"), ("%,ABC,%", ",abc,"), ("%,é,%", ",É,"), ("%,_,%", ",đ,"),
                     ("%,1002-1,%", ",1002-1,"), ("%,1002-1,%", ",1002-10,"), ("%%", ""), ("%,%,%", ",,"), ("a%b%c", "aXbYc"), ("a%b%c", "acb")]
        for (pattern, text) in cases {
            let statement = try db.prepare("SELECT ? LIKE ?")
            try statement.bind(.text(text), .text(pattern))
            expectTrue(try statement.step())
            expectEqual(PlaceFilter.like(Array(pattern.utf8), Array(text.utf8)), statement.int(0) == 1, "\(text) LIKE \(pattern)")
        }
    }
}
