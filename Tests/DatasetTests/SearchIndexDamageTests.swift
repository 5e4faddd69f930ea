import ArrayBlob
import Dataset
import DefaultData
import Foundation
@testable import Search
import SeededRandom
import SimTesting
import SQLiteStore
import TestExpectations
import Testing

/// A damaged or hostile `search_index` blob either is refused by `decode` (a heap copy: every
/// element checked) or, when its arrays
/// still agree with each other (a changed coordinate, word or text byte), serves answers
/// without trapping: every array of the blob is damaged in turn, and each index `decode`
/// accepts is searched through ``PlaceSearch``.
@Suite final class SearchIndexDamageTests {
    /// Element sizes of the blob's arrays, in ``SearchIndex/serialized()``'s order.
    private static let elementSizes: [(name: String, size: Int)] = {
        var sizes: [(name: String, size: Int)] = [
            ("kind", 1), ("scheme", 1), ("adminLevel", 1), ("lat", 8), ("lng", 8), ("importance", 8), ("codes", 4), ("cell", 4),
            ("textStart", 4), ("addressGroup", 4), ("groupStart", 4), ("arena", 1), ("byKey", 4), ("vocabulary", 1), ("termStart", 4),
            ("postings", 4), ("rowTerms", 4), ("postingStarts", 4), ("rowStarts", 4),
        ]
        sizes += [("cellKeys", 4), ("cellStart", 4), ("cellRows", 4), ("exactHashes", 8), ("exactRows", 4)]
        for table in ["accented", "folded"] {
            sizes += [(table + "Arena", 1), (table + "Row", 4), (table + "Start", 4), (table + "End", 4), (table + "Order", 4)]
        }
        sizes += [("typoWordBytes", 1), ("typoWordEnds", 4), ("typoFrequency", 4), ("typoDeletionHashes", 8), ("typoDeletionWords", 4)]
        sizes += [("reverseCellKeys", 8), ("reverseCellStart", 4), ("reverseCellRows", 4), ("reverseNewWardRows", 4)]
        return sizes
    }()

    /// Where each array's elements lie in the blob: the counts in the head (after magic, version
    /// and the head's length, each at a multiple of 8), the elements in the body that follows.
    private static func arrays(of blob: [UInt8]) -> [(name: String, size: Int, range: Range<Int>)] {
        func number(at offset: Int) -> Int { blob[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) } }
        var offset = 16
        var body = (number(at: 8) + 7) / 8 * 8
        return Self.elementSizes.map { name, size in
            offset = (offset + 7) / 8 * 8
            let count = number(at: offset)
            offset += 8
            body = (body + 7) / 8 * 8
            defer { body += count * size }
            return (name, size, body..<body + count * size)
        }
    }

    /// A small real dataset (the 2025 units and Hoàn Kiếm's POIs), its stored index, and that
    /// index damaged array by array: an element with all bits set (-1, the largest unsigned
    /// value, a NaN), one with a large value (+∞ for a Double), the first and last elements
    /// swapped (sorted order broken). Built once for both tests.
    private struct Damaged {
        let path: String
        let original: [UInt8]
        let blobs: [(array: String, bytes: [UInt8])]
    }

    private static let damaged: Result<Damaged, any Error> = Result {
        let output = try SharedDataset.scratch("damaged-index").appendingPathComponent("small.sqlite")
        let names = ["units_2025.json", "hanoi_hoankiem_pois_osm2019.csv"]
        _ = try DatasetBuilder().build(inputs: DefaultData.inputFiles.filter { names.contains($0.lastPathComponent) }, output: output)
        guard let range = try FileSections.directory(path: output.path)[SearchIndex.sectionName] else {
            throw ArrayBlobReader.Malformed(reason: "no stored index")
        }
        let original = Array(try Data(contentsOf: output)[range])
        var generator = SplitMix64(seed: 20261201)
        var blobs: [(String, [UInt8])] = []
        for (name, size, range) in arrays(of: original) where !range.isEmpty {
            for value: [UInt8] in [Array(repeating: 0xFF, count: size), size == 8 ? [0, 0, 0, 0, 0, 0, 0xF0, 0x7F] : [0x7F] + Array(repeating: 0xFF, count: size - 1)] {
                var blob = original
                let element = range.lowerBound + size * Int(generator.next() % UInt64(range.count / size))
                blob.replaceSubrange(element..<element + size, with: value)
                blobs.append((name, blob))
            }
            if range.count >= 2 * size {
                var swapped = original
                let a = range.lowerBound, b = range.upperBound - size
                let first = Array(swapped[a..<a + size])
                swapped.replaceSubrange(a..<a + size, with: swapped[b..<b + size])
                swapped.replaceSubrange(b..<b + size, with: first)
                blobs.append((name, swapped))
            }
        }
        return Damaged(path: output.path, original: original, blobs: blobs)
    }

    private static let hoanKiem = Coordinate(lat: 21.0285, lng: 105.8542)

    /// Reads every part of the index the way search does: each row's text fields, words, word
    /// list, filter fields and key order; each cell's rows; each word's rows (merged,
    /// marked and scanned), every row found passed through a filter as search does.
    private static func readEverything(_ index: SearchIndex) {
        let places = index.places
        let words = MatchScorer.PlaceWords()
        let everyWord = TermIndex.Match(lower: 0, upper: index.terms.termCount, columns: [.name, .address, .kind])
        let filter = PlaceFilter(AutocompleteQuery(text: "", format: .old, cityId: 1, circle: SearchCircle(center: Self.hoanKiem, radiusMeters: 5_000),
                                                   categories: ["1002"]))
        let accept = { (row: Int) in filter.accepts(row, in: places) || places.kind[row] == 0 }
        places.arena.withUnsafeBufferPointer { arena in
            for row in 0..<places.count {
                for field in PlaceColumns.Field.allCases { _ = arena[places.span(row, field)] }
                _ = arena[places.groupSpan(row)]
                words.load(row, places, arena)
                _ = words.addressWords(arena)
                _ = index.terms.contains(row, everyWord)
                _ = accept(row)
            }
        }
        // Look-ups by key read `byKey` through a binary search: each of its rows as one would.
        for row in places.byKey { _ = places.span(Int(row), .key) }
        for row in stride(from: 0, to: places.count, by: 97) { _ = places.row(key: places.text(row, .key)) }
        for cell in index.cellKeys { _ = index.firstRows(allOf: [.cells([cell])], limit: 1_000, accept: accept) }
        let cells = RowCondition.cells(SearchIndex.cells(around: Self.hoanKiem))
        // The tables derived at import: names by their start, exact names, typo corrections.
        for text in ["Nhà", "nha t", "cà ph", "ho", "1"] { _ = index.nameStarts.rows(beginning: text, limit: 4_000) }
        for words in [["ha", "noi"], ["hoan", "kiem"], ["pho"]] { _ = index.exactNames.rows(named: words) }
        for word in ["hanoi", "kiem", "phoo", "thnah"] { _ = index.typos.corrections(of: word, limit: 4); _ = index.typos.contains(word) }
        for first in "abhnt1" {
            let match = index.terms.match(Array(String(first).utf8), prefix: true, in: [.name, .address, .kind])
            let exact = index.terms.match(Array(String(first).utf8), prefix: false, in: [.name])
            _ = index.firstRows(allOf: [.words(match)], limit: 40, accept: accept)
            _ = index.firstRows(allOf: [.words(match), cells], limit: 40, accept: accept)
            _ = index.firstRows(allOf: [.words(exact), .words(match)], limit: 40, accept: accept)
            _ = index.firstRows(anyOf: [match, exact], limit: 40, accept: accept)
        }
    }

    @Test func testABlobHasTheLayoutAbove() throws {
        let original = try Self.damaged.get().original
        expectEqual(Self.arrays(of: original).last?.range.upperBound, original.count)
        expectGreaterThan(try SearchIndex.decode(original).count, 3_000)
    }

    @Test func testADamagedIndexIsRefusedOrReadWithoutATrap() throws {
        let damaged = try Self.damaged.get()
        let count = try SearchIndex.decode(damaged.original).count
        // Each blob decoded and read on its own thread, two at a time (seconds of a debug build each
        // way); the counts asserted here.
        let counts: [Int?] = concurrentMap(damaged.blobs.count) { index in
            guard let decoded = try? SearchIndex.decode(damaged.blobs[index].bytes) else { return nil }
            Self.readEverything(decoded)
            return decoded.count
        }
        var accepted = 0
        for ((name, _), decodedCount) in zip(damaged.blobs, counts) {
            guard let decodedCount else { continue }
            accepted += 1
            expectEqual(decodedCount, count, name)
        }
        print("damaged index: \(accepted) of \(damaged.blobs.count) accepted and read")
        expectLessThan(accepted, damaged.blobs.count - 20, "most damage is refused")
        expectGreaterThan(accepted, 10, "damage that keeps the arrays consistent is read")
    }

    /// The same through ``PlaceSearch`` as `serve` loads it: the blob written over the dataset's
    /// section and read in place (mapped: only its counts are checked).
    @Test func testADamagedStoredIndexIsSearchedWithoutATrap() throws {
        let damaged = try Self.damaged.get()
        let original = try SearchIndex.decode(damaged.original)
        let keys = [0, 1, original.count / 2, original.count - 1].map { original.places.text($0, .key) }
        let texts = ["h", "hang bac", "phuong hoan kiem", "a b c d e f g h i j k l m", String(repeating: "đ", count: 64)]
        let foci: [Coordinate?] = [nil, Self.hoanKiem, Coordinate(lat: -90, lng: 180)]
        let section = try unwrap(try FileSections.directory(path: damaged.path)[SearchIndex.sectionName])
        let file = try unwrap(FileHandle(forUpdatingAtPath: damaged.path))
        defer { try? file.close() }
        var searched = 0
        let decodes: [Bool] = concurrentMap(damaged.blobs.count) { (try? SearchIndex.decode(damaged.blobs[$0].bytes)) != nil }
        for ((_, blob), decodes) in zip(damaged.blobs, decodes) where decodes {
            try file.seek(toOffset: UInt64(section.lowerBound))
            try file.write(contentsOf: blob)  // (no fsync: the mapping reads the same page cache)
            let search = try PlaceSearch(databasePath: damaged.path)
            let text = texts[searched % texts.count]
            searched += 1
            for focus in foci { _ = try search.autocomplete(AutocompleteQuery(text: text, focus: focus)) }
            _ = try search.autocomplete(AutocompleteQuery(text: text, format: .old, circle: SearchCircle(center: Self.hoanKiem, radiusMeters: 3_000),
                                                          layers: [.poi, .ward]))
            for key in keys { _ = try search.place(key: key) }
        }
        expectGreaterThan(searched, 10)
    }
}
