import Foundation
import ArrayBlob
import SQLiteStore
import TextFolding

/// Everything search reads: the places (``PlaceColumns``), their words (``TermIndex``), their
/// grid cells, names by exact key and by how they begin, the typo vocabulary and the reverse
/// geocoder's grid. Built once at import from the dataset's `place` table and FTS5 tables and
/// stored in the dataset (its `search_index` section), which `serve` maps and reads in place: a
/// start reads a few hundred bytes of it, whatever the country's size.
///
/// The answers are those of the FTS5 statements it replaced (`place_fts`, `place_name_fts`:
/// every word in the name, the last a prefix, `ORDER BY rowid LIMIT n`): a test compares the
/// two on the default dataset.
public final class SearchIndex: Sendable {
    let places: PlaceColumns
    let terms: TermIndex
    /// Sorted distinct cells; the rows of cell `cellKeys[i]` are `cellRows[cellStart[i]..<cellStart[i + 1]]`.
    let cellKeys: StoredArray<Int32>
    let cellStart: StoredArray<UInt32>
    let cellRows: StoredArray<UInt32>
    /// Rows by their squashed names, and by how their names begin: derived from `places` at import.
    let exactNames: ExactNames
    let nameStarts: NameStarts
    /// The names' words, for correcting one typing error: from the FTS5 vocabulary at import.
    let typos: TypoVocabulary
    /// The places by fine cell, for reverse geocoding.
    let reverseGrid: ReverseGrid

    /// Size of the grid cells, in degrees (≈ 5.5 km).
    public static let cellDegrees = 0.05

    /// The grid cell of a point: row · 100000 + column, counted from (-90, -180) (the number of
    /// the dataset's `xq…` cell tokens).
    public static func cell(_ point: Coordinate) -> Int32 {
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

    init(places: PlaceColumns, terms: TermIndex, cellKeys: StoredArray<Int32>, cellStart: StoredArray<UInt32>,
         cellRows: StoredArray<UInt32>, typos: TypoVocabulary, exactNames: ExactNames? = nil, nameStarts: NameStarts? = nil,
         reverseGrid: ReverseGrid? = nil) {
        self.typos = typos
        (self.places, self.terms, self.cellKeys, self.cellStart, self.cellRows) = (places, terms, cellKeys, cellStart, cellRows)
        self.exactNames = exactNames ?? ExactNames.build(places)
        self.nameStarts = nameStarts ?? NameStarts.build(places)
        self.reverseGrid = reverseGrid ?? ReverseGrid.build(places)
    }

    /// An index whose cell lists are made from the places' cells.
    convenience init(places: PlaceColumns, terms: TermIndex, typos: TypoVocabulary) {
        let cells = KeyedRows((0..<places.count).map { (key: places.cell[$0], row: UInt32($0)) })
        self.init(places: places, terms: terms, cellKeys: StoredArray(cells.keys), cellStart: StoredArray(cells.starts),
                  cellRows: StoredArray(cells.rows), typos: typos)
    }

    /// Number of places.
    public var count: Int { places.count }

    // MARK: - Storage

    /// Its section in a dataset file (`FileSections`).
    public static let sectionName = "search_index"

    static let magic = "VMSX"
    /// Bump when the layout below or the meaning of a column changes.
    static let formatVersion: UInt32 = 8

    /// The index as one blob (`ArrayBlobWriter`).
    public func serialized() -> [UInt8] {
        var writer = ArrayBlobWriter(magic: Self.magic, version: Self.formatVersion)
        let p = places
        writer.append(p.kind); writer.append(p.scheme); writer.append(p.adminLevel)
        writer.append(p.lat); writer.append(p.lng); writer.append(p.importance)
        writer.append(p.codes); writer.append(p.cell); writer.append(p.textStart); writer.append(p.addressGroup); writer.append(p.groupStart)
        writer.append(p.arena); writer.append(p.byKey)
        writer.append(terms.vocabulary); writer.append(terms.termStart)
        writer.append(terms.postings); writer.append(terms.rowTerms)
        writer.append(terms.postingStarts); writer.append(terms.rowStarts)
        writer.append(cellKeys); writer.append(cellStart); writer.append(cellRows)
        writer.append(exactNames.hashes); writer.append(exactNames.rows)
        for table in [nameStarts.accented, nameStarts.folded] {
            writer.append(table.arena); writer.append(table.row); writer.append(table.start); writer.append(table.end); writer.append(table.order)
        }
        writer.append(typos.wordBytes); writer.append(typos.wordEnds); writer.append(typos.frequency)
        writer.append(typos.deletionHashes); writer.append(typos.deletionWords)
        let grid = reverseGrid
        writer.append(grid.cellKeys); writer.append(grid.cellStart); writer.append(grid.cellRows); writer.append(grid.newWardRows)
        return writer.bytes
    }

    /// Reads a blob that ``serialized()`` wrote, checking that its arrays agree with each other.
    public static func decode(_ bytes: [UInt8]) throws -> SearchIndex {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    /// `decode` of bytes held elsewhere (SQLite's copy of the column), checking every element.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> SearchIndex {
        let index = try decode(ByteRegion(copying: bytes))
        try index.validate()
        return index
    }

    /// The index stored in `region` (a mapped dataset section), read in place: only the arrays'
    /// counts are checked here — O(1), so a start does not read the country — and ``validate()``
    /// checks every element. (A sealed dataset's checksum covers these bytes; for a large file
    /// it is compared in the background after start.)
    public static func decode(_ region: ByteRegion) throws -> SearchIndex {
        var r = try ArrayBlobReader(region, magic: Self.magic, version: Self.formatVersion)
        let kind: StoredArray<UInt8> = try r.stored(), scheme: StoredArray<UInt8> = try r.stored()
        let adminLevel: StoredArray<UInt8> = try r.stored()
        let lat: StoredArray<Double> = try r.stored(), lng: StoredArray<Double> = try r.stored()
        let importance: StoredArray<Double> = try r.stored()
        let codes: StoredArray<Int32> = try r.stored(), cell: StoredArray<Int32> = try r.stored()
        let textStart: StoredArray<UInt32> = try r.stored()
        let addressGroup: StoredArray<UInt32> = try r.stored(), groupStart: StoredArray<UInt32> = try r.stored()
        let arena: StoredArray<UInt8> = try r.stored(), byKey: StoredArray<UInt32> = try r.stored()
        let vocabulary: StoredArray<UInt8> = try r.stored(), termStart: StoredArray<UInt32> = try r.stored()
        let postings: StoredArray<UInt32> = try r.stored(), rowTerms: StoredArray<UInt32> = try r.stored()
        let postingStarts: StoredArray<UInt32> = try r.stored(), rowStarts: StoredArray<UInt32> = try r.stored()
        let cellKeys: StoredArray<Int32> = try r.stored(), cellStart: StoredArray<UInt32> = try r.stored()
        let cellRows: StoredArray<UInt32> = try r.stored()
        let exactHashes: StoredArray<UInt64> = try r.stored(), exactRows: StoredArray<Int32> = try r.stored()
        var starts: [NameStarts.Table] = []
        for _ in 0..<2 {
            starts.append(NameStarts.Table(arena: try r.stored(), row: try r.stored(), start: try r.stored(), end: try r.stored(),
                                           order: try r.stored()))
        }
        let wordBytes: StoredArray<UInt8> = try r.stored(), wordEnds: StoredArray<UInt32> = try r.stored()
        let frequency: StoredArray<Int32> = try r.stored()
        let deletionHashes: StoredArray<UInt64> = try r.stored(), deletionWords: StoredArray<Int32> = try r.stored()
        let grid = ReverseGrid(cellKeys: try r.stored(), cellStart: try r.stored(), cellRows: try r.stored(), newWardRows: try r.stored())
        let n = kind.count
        func fail(_ what: String) -> ArrayBlobReader.Malformed { ArrayBlobReader.Malformed(reason: "search index: " + what) }
        guard r.isAtEnd else { throw fail("trailing bytes") }
        // O(1) checks: the counts, and the last offsets against the arrays they index.
        guard [scheme.count, adminLevel.count, lat.count, lng.count, importance.count, cell.count, byKey.count, addressGroup.count]
                .allSatisfy({ $0 == n }),
              codes.count == 5 * n, textStart.count == PlaceColumns.fieldCount * n + 1,
              let groupsFrom = groupStart.first, textStart.last == groupsFrom, groupStart.last.map({ Int($0) == arena.count }) ?? false
        else { throw fail("place columns disagree") }
        let termCount = termStart.count - 1
        guard termCount >= 0, termStart.last.map({ Int($0) == vocabulary.count }) ?? false,
              postingStarts.count == TermIndex.columnCount * (termCount + 1), rowStarts.count == TermIndex.columnCount * (n + 1)
        else { throw fail("vocabulary disagrees") }
        guard cellStart.count == cellKeys.count + 1, Int(cellStart.last!) == cellRows.count else { throw fail("cells disagree") }
        guard exactHashes.count == exactRows.count else { throw fail("exact names disagree") }
        guard starts.allSatisfy({ $0.row.count == $0.start.count && $0.row.count == $0.end.count && $0.row.count == $0.order.count })
        else { throw fail("name starts disagree") }
        guard wordEnds.count == frequency.count, deletionHashes.count == deletionWords.count,
              wordEnds.last.map({ Int($0) == wordBytes.count }) ?? wordBytes.isEmpty else { throw fail("typo vocabulary disagrees") }
        guard grid.cellStart.count == grid.cellKeys.count + 1, Int(grid.cellStart.last!) == grid.cellRows.count
        else { throw fail("reverse grid disagrees") }
        let places = PlaceColumns(kind: kind, scheme: scheme, adminLevel: adminLevel, lat: lat, lng: lng, importance: importance,
                                  codes: codes, cell: cell, textStart: textStart, addressGroup: addressGroup, groupStart: groupStart,
                                  arena: arena, byKey: byKey)
        return SearchIndex(places: places,
                           terms: TermIndex(vocabulary: vocabulary, termStart: termStart, postingStarts: postingStarts, postings: postings,
                                            rowStarts: rowStarts, rowTerms: rowTerms, rows: n),
                           cellKeys: cellKeys, cellStart: cellStart, cellRows: cellRows,
                           typos: TypoVocabulary(wordBytes: wordBytes, wordEnds: wordEnds, frequency: frequency,
                                                 deletionHashes: deletionHashes, deletionWords: deletionWords),
                           exactNames: ExactNames(hashes: exactHashes, rows: exactRows),
                           nameStarts: NameStarts(accented: starts[0], folded: starts[1]), reverseGrid: grid)
    }

    /// Checks every element that indexes another array (O(n)): after it, no look-up can trap or
    /// read outside the index, whatever the bytes were.
    public func validate() throws {
        func fail(_ what: String) -> ArrayBlobReader.Malformed { ArrayBlobReader.Malformed(reason: "search index: " + what) }
        let p = places, n = p.count
        guard zip(p.textStart, p.textStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(p.groupStart, p.groupStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              p.addressGroup.allSatisfy({ Int($0) < p.groupStart.count - 1 }),
              p.byKey.allSatisfy({ Int($0) < n }) else { throw fail("place columns disagree") }
        guard terms.isConsistent(rows: n) else { throw fail("postings disagree") }
        guard cellStart.first == 0, zip(cellStart, cellStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(cellKeys, cellKeys.dropFirst()).allSatisfy({ $0 < $1 }), cellRows.allSatisfy({ Int($0) < n }) else { throw fail("cells disagree") }
        guard exactNames.rows.allSatisfy({ $0 >= 0 && Int($0) < n }),
              zip(exactNames.hashes, exactNames.hashes.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw fail("exact names disagree") }
        guard nameStarts.accented.isConsistent(rows: n), nameStarts.folded.isConsistent(rows: n) else { throw fail("name starts disagree") }
        guard typos.isConsistent else { throw fail("typo vocabulary disagrees") }
        guard reverseGrid.isConsistent(rows: n) else { throw fail("reverse grid disagrees") }
    }

    /// Builds the index from a dataset's `place` table and FTS5 tables (place ids must be 1…n).
    public static func build(from database: Database) throws -> SearchIndex {
        let statement = try database.prepare("SELECT \(PlaceRecord.columns) FROM place p ORDER BY p.id")
        var kind: [UInt8] = [], scheme: [UInt8] = [], adminLevel: [UInt8] = [], lat: [Double] = [], lng: [Double] = []
        var importance: [Double] = [], codes: [Int32] = [], cell: [Int32] = [], textStart: [UInt32] = [], arena: [UInt8] = []
        var keys: [[UInt8]] = []
        var addressGroup: [UInt32] = []
        var groups: [String: UInt32] = [:]
        var groupTexts: [String] = []
        while try statement.step() {
            guard statement.int64(0) == Int64(kind.count + 1) else {
                throw ArrayBlobReader.Malformed(reason: "search index: place ids are not 1…n")
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
            // The address: a POI's street part, then the unit names many rows share.
            let addressKey = statement.text(17)
            var streetKey = ""
            var group = addressKey
            if k == PlaceKind.poi.rawValue {
                let street = TextFolding.fold([statement.text(5), statement.text(6)].filter { !$0.isEmpty }.joined(separator: " "))
                if !street.isEmpty && addressKey.hasPrefix(street + " ") {
                    streetKey = street
                    group = String(addressKey.dropFirst(street.count + 1))
                }
            }
            if let known = groups[group] {
                addressGroup.append(known)
            } else {
                groups[group] = UInt32(groupTexts.count)
                addressGroup.append(UInt32(groupTexts.count))
                groupTexts.append(group)
            }
            // Text fields in ``PlaceColumns/Field`` order.
            for text in [statement.text(1), statement.text(4), statement.text(5), statement.text(6), statement.text(7), statement.text(16),
                         streetKey, statement.text(18), statement.text(19)] {
                textStart.append(UInt32(arena.count))
                arena += Array(text.utf8)
            }
        }
        var groupStart: [UInt32] = []
        for text in groupTexts {
            groupStart.append(UInt32(arena.count))
            arena += Array(text.utf8)
        }
        groupStart.append(UInt32(arena.count))
        textStart.append(groupStart.first!)
        let places = PlaceColumns(kind: StoredArray(kind), scheme: StoredArray(scheme), adminLevel: StoredArray(adminLevel),
                                  lat: StoredArray(lat), lng: StoredArray(lng), importance: StoredArray(importance),
                                  codes: StoredArray(codes), cell: StoredArray(cell), textStart: StoredArray(textStart),
                                  addressGroup: StoredArray(addressGroup), groupStart: StoredArray(groupStart),
                                  arena: StoredArray(arena), byKey: StoredArray(PlaceColumns.keyOrder(keys)))

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
        return SearchIndex(places: places, terms: TermIndex(triples: triples, rows: kind.count), typos: try TypoVocabulary(database: database))
    }

    /// The stored index of the dataset at `path`: its section, mapped; in a dataset written before
    /// sections existed (or whose section is of another format version), one built from its tables.
    public static func load(path: String, database: Database) throws -> SearchIndex {
        let region: ByteRegion?
        do {
            region = try FileSections.map(path: path, name: sectionName)
        } catch {
            throw ArrayBlobReader.Malformed(reason: "\(path): \(error.description)")
        }
        if let region, let index = try? decode(region) { return index }
        return try build(from: database)
    }
}
