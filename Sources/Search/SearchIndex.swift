import Foundation
import SQLiteStore

/// Everything search reads, in memory: the places (``PlaceColumns``), their words
/// (``TermIndex``) and their grid cells. Built once at import from the dataset's `place` table
/// and FTS5 tables and stored in the dataset (`search_index`), so a warm start reads one blob;
/// a dataset without it (written by an older importer) gets it built at start.
///
/// The answers are those of the FTS5 statements it replaced (`place_fts`, `place_name_fts`:
/// every word in the name, the last a prefix, `ORDER BY rowid LIMIT n`): a test compares the
/// two on the default dataset.
public final class SearchIndex: Sendable {
    let places: PlaceColumns
    let terms: TermIndex
    /// Sorted distinct cells; the rows of cell `cellKeys[i]` are `cellRows[cellStart[i]..<cellStart[i + 1]]`.
    let cellKeys: [Int32]
    let cellStart: [UInt32]
    let cellRows: [UInt32]

    /// Size of the grid cells, in degrees: the dataset's `DatasetSchema.cellDegrees`.
    static let cellDegrees = 0.05

    /// The grid cell of a point: row · 100000 + column, counted from (-90, -180) (the number of
    /// the dataset's `xq…` cell tokens).
    static func cell(_ point: Coordinate) -> Int32 {
        let row = Int(((point.lat + 90) / cellDegrees).rounded(.down))
        let column = Int(((point.lng + 180) / cellDegrees).rounded(.down))
        return Int32(clamping: row * 100_000 + column)
    }

    /// The cells covering `focus` and its eight neighbours (≈ 5–11 km around it), sorted.
    static func cells(around focus: Coordinate) -> [Int32] {
        let center = cell(focus)
        var out: [Int32] = []
        for dr in [-100_000, 0, 100_000] as [Int32] {
            for dc in [-1, 0, 1] as [Int32] { out.append(center &+ dr &+ dc) }
        }
        return out.sorted()
    }

    init(places: PlaceColumns, terms: TermIndex) {
        self.places = places
        self.terms = terms
        var pairs = (0..<places.count).map { (cell: places.cell[$0], row: UInt32($0)) }
        pairs.sort { ($0.cell, $0.row) < ($1.cell, $1.row) }
        var keys: [Int32] = [], starts: [UInt32] = [], rows: [UInt32] = []
        rows.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            if keys.last != pair.cell {
                keys.append(pair.cell)
                starts.append(UInt32(index))
            }
            rows.append(pair.row)
        }
        starts.append(UInt32(pairs.count))
        (cellKeys, cellStart, cellRows) = (keys, starts, rows)
    }

    /// Number of places.
    public var count: Int { places.count }

    // MARK: - Storage

    static let magic = "VMSX"
    /// Bump when the layout below or the meaning of a column changes.
    static let formatVersion: UInt32 = 2

    /// The index as one blob (see ``IndexWriter``).
    public func serialized() -> [UInt8] {
        var writer = IndexWriter(magic: Self.magic, version: Self.formatVersion)
        let p = places
        writer.append(p.kind); writer.append(p.scheme); writer.append(p.adminLevel)
        writer.append(p.lat); writer.append(p.lng); writer.append(p.importance)
        writer.append(p.codes); writer.append(p.cell); writer.append(p.textStart); writer.append(p.arena); writer.append(p.byKey)
        writer.append(terms.vocabulary); writer.append(terms.termStart)
        writer.append(terms.postings); writer.append(terms.rowTerms)
        for column in 0..<TermIndex.columnCount {
            writer.append(terms.postingStart[column]); writer.append(terms.rowStart[column])
        }
        return writer.bytes
    }

    /// Reads ``serialized()``'s blob, checking that its arrays agree with each other.
    public convenience init(serialized bytes: [UInt8]) throws {
        var r = try IndexReader(bytes, magic: Self.magic, version: Self.formatVersion)
        let kind: [UInt8] = try r.read(), scheme: [UInt8] = try r.read(), adminLevel: [UInt8] = try r.read()
        let lat = try r.readDoubles(), lng = try r.readDoubles(), importance = try r.readDoubles()
        let codes: [Int32] = try r.read(), cell: [Int32] = try r.read(), textStart: [UInt32] = try r.read()
        let arena: [UInt8] = try r.read(), byKey: [UInt32] = try r.read()
        let vocabulary: [UInt8] = try r.read(), termStart: [UInt32] = try r.read()
        let postings: [UInt32] = try r.read(), rowTerms: [UInt32] = try r.read()
        var postingStart: [[UInt32]] = [], rowStart: [[UInt32]] = []
        for _ in 0..<TermIndex.columnCount {
            postingStart.append(try r.read()); rowStart.append(try r.read())
        }
        let n = kind.count
        func fail(_ what: String) -> IndexReader.Malformed { IndexReader.Malformed(reason: what) }
        guard r.isAtEnd else { throw fail("trailing bytes") }
        guard [scheme.count, adminLevel.count, lat.count, lng.count, importance.count, cell.count, byKey.count].allSatisfy({ $0 == n }),
              codes.count == 5 * n, textStart.count == PlaceColumns.fieldCount * n + 1,
              textStart.last.map({ Int($0) == arena.count }) ?? false,
              zip(textStart, textStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              byKey.allSatisfy({ Int($0) < n }) else { throw fail("place columns disagree") }
        let termCount = termStart.count - 1
        guard termCount >= 0, termStart.last.map({ Int($0) == vocabulary.count }) ?? false,
              zip(termStart, termStart.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw fail("vocabulary disagrees") }
        guard postings.allSatisfy({ Int($0) < n }), rowTerms.allSatisfy({ Int($0) < termCount }) else { throw fail("postings disagree") }
        for c in 0..<TermIndex.columnCount {
            guard postingStart[c].count == termCount + 1, rowStart[c].count == n + 1,
                  Int(postingStart[c].last!) <= postings.count, Int(rowStart[c].last!) <= rowTerms.count,
                  zip(postingStart[c], postingStart[c].dropFirst()).allSatisfy({ $0 <= $1 }),
                  zip(rowStart[c], rowStart[c].dropFirst()).allSatisfy({ $0 <= $1 })
            else { throw fail("column \(c) disagrees") }
        }
        self.init(places: PlaceColumns(kind: kind, scheme: scheme, adminLevel: adminLevel, lat: lat, lng: lng, importance: importance,
                                       codes: codes, cell: cell, textStart: textStart, arena: arena, byKey: byKey),
                  terms: TermIndex(vocabulary: vocabulary, termStart: termStart, postingStart: postingStart, postings: postings,
                                   rowStart: rowStart, rowTerms: rowTerms))
    }

    /// Builds the index from a dataset's `place` table and FTS5 tables (place ids must be 1…n).
    public static func build(from database: Database) throws -> SearchIndex {
        let statement = try database.prepare("SELECT \(PlaceRecord.columns) FROM place p ORDER BY p.id")
        var kind: [UInt8] = [], scheme: [UInt8] = [], adminLevel: [UInt8] = [], lat: [Double] = [], lng: [Double] = []
        var importance: [Double] = [], codes: [Int32] = [], cell: [Int32] = [], textStart: [UInt32] = [], arena: [UInt8] = []
        var keys: [[UInt8]] = []
        while try statement.step() {
            guard statement.int64(0) == Int64(kind.count + 1) else {
                throw IndexReader.Malformed(reason: "place ids are not 1…n")
            }
            let key = statement.text(1)
            let k = statement.int(2)
            kind.append(UInt8(clamping: k))
            scheme.append(UInt8(clamping: statement.int(3)))
            // "admin:<scheme>:<level>:<code>"
            let parts = key.split(separator: ":")
            adminLevel.append(k == PlaceKind.admin.rawValue && parts.count == 4 ? UInt8(parts[2]) ?? 255 : 255)
            let point = Coordinate(lat: statement.double(8), lng: statement.double(9))
            lat.append(point.lat)
            lng.append(point.lng)
            importance.append(statement.double(10))
            for column in Int32(11)...15 { codes.append(Int32(clamping: statement.int(column))) }
            cell.append(Self.cell(point))
            keys.append(Array(key.utf8))
            // Text fields in ``PlaceColumns/Field`` order.
            for column: Int32 in [1, 4, 5, 6, 7, 16, 17, 18, 19] {
                textStart.append(UInt32(arena.count))
                arena += Array(statement.text(column).utf8)
            }
        }
        textStart.append(UInt32(arena.count))
        let places = PlaceColumns(kind: kind, scheme: scheme, adminLevel: adminLevel, lat: lat, lng: lng, importance: importance,
                                  codes: codes, cell: cell, textStart: textStart, arena: arena, byKey: PlaceColumns.keyOrder(keys))

        // The words exactly as FTS5 tokenized them.
        var triples: [(term: String, doc: Int, column: TermIndex.Column)] = []
        try database.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.place_words USING fts5vocab(main, 'place_fts', 'instance');
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.place_name_words USING fts5vocab(main, 'place_name_fts', 'instance');
            """)
        for (table, columns) in [("temp.place_words", ["name": TermIndex.Column.name, "address": .address]),
                                 ("temp.place_name_words", ["kind": .kind])] {
            let words = try database.prepare("SELECT term, doc, col FROM \(table)")
            while try words.step() {
                guard let column = columns[words.text(2)] else { continue }
                let doc = words.int(1) - 1
                guard doc >= 0 && doc < kind.count else { continue }
                triples.append((words.text(0), doc, column))
            }
        }
        try database.execute("DROP TABLE IF EXISTS temp.place_words; DROP TABLE IF EXISTS temp.place_name_words;")
        return SearchIndex(places: places, terms: TermIndex(triples: triples, rows: kind.count))
    }

    /// The stored index of a dataset (`search_index`), or one built from its tables when it has none.
    public static func load(from database: Database) throws -> SearchIndex {
        let exists = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'search_index'")
        if try exists.step(), exists.int(0) > 0 {
            let statement = try database.prepare("SELECT data FROM search_index WHERE id = 1")
            // (An index of another format version is built anew from the tables.)
            if try statement.step(), let index = try? SearchIndex(serialized: statement.blob(0)) { return index }
        }
        return try build(from: database)
    }
}
