import ArrayBlob
import Foundation
import TextFolding

/// Rows by how their names begin: every name twice, lower case with its accents (NFC) and
/// folded, each list sorted, so "which names begin with what was typed" is a binary search.
/// Typing a name from its start is the commonest search; at city scale a short start ("Nhã N",
/// "Khó", "Cao Đẳ") is held by thousands of names word by word, and the word stages, bounded,
/// may never reach the one being typed — the accented start narrows it to the few that really
/// begin so ("Nhã Nam thư quán", not the hundreds of "Nhà …").
///
/// Built at import with the rest of ``SearchIndex`` and stored in its blob (built on first use
/// it cost the first query ≈ 60 ms on the 39,000 places of a city), so no query pays for it.
struct NameStarts: Sendable {
    /// One list: every entry's row and its key's range in `arena`, and the entries sorted by key.
    struct Table: Sendable, Equatable {
        var arena: StoredArray<UInt8> = []
        var row: StoredArray<Int32> = []
        var start: StoredArray<UInt32> = []
        var end: StoredArray<UInt32> = []
        var order: StoredArray<Int32> = []

        /// Whether its arrays agree with each other and with `rows` places (a damaged blob never traps).
        func isConsistent(rows: Int) -> Bool {
            row.count == start.count && row.count == end.count && row.count == order.count
                && row.allSatisfy { $0 >= 0 && Int($0) < rows } && order.allSatisfy { $0 >= 0 && Int($0) < row.count }
                && zip(start, end).allSatisfy { $0 <= $1 && Int($1) <= arena.count }
        }
    }
    let accented: Table
    let folded: Table

    init(accented: Table, folded: Table) { (self.accented, self.folded) = (accented, folded) }

    /// Lower case, NFC, every run of characters other than letters and digits one space: the
    /// key names and typed text are compared by.
    static func accentedKey(_ text: String) -> [UInt8] {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var lower = text.lowercased()
        // (Foundation's NFC is slow: only for text holding a combining mark.)
        if lower.unicodeScalars.contains(where: { (0x0300...0x036F).contains($0.value) }) { lower = lower.precomposedStringWithCanonicalMapping }
        for scalar in lower.unicodeScalars {
            let v = scalar.value
            let isWordScalar = v < 0x80
                ? (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A)
                : scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if isWordScalar {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(scalar.value == 0x0110 || scalar.value == 0x00D0 || scalar.value == 0x00F0 ? "đ" : scalar)
            } else {
                pendingSpace = true
            }
        }
        return Array(String(Self.placingTones(out)).utf8)
    }

    /// Vowels by tone (none, grave, acute, hook, tilde, dot below).
    private static let toned: [Character: [Unicode.Scalar]] = [
        "o": ["o", "ò", "ó", "ỏ", "õ", "ọ"], "u": ["u", "ù", "ú", "ủ", "ũ", "ụ"],
        "a": ["a", "à", "á", "ả", "ã", "ạ"], "e": ["e", "è", "é", "ẻ", "ẽ", "ẹ"], "y": ["y", "ỳ", "ý", "ỷ", "ỹ", "ỵ"],
    ]
    private static let toneOf: [Unicode.Scalar: (base: Character, tone: Int)] = {
        var out: [Unicode.Scalar: (base: Character, tone: Int)] = [:]
        for (base, scalars) in toned { for (tone, scalar) in scalars.enumerated() where tone > 0 { out[scalar] = (base, tone) } }
        return out
    }()

    /// Both tone placements as one: "hòa"/"thủy"/"khỏe" (the tone on the first vowel of oa, oe, uy)
    /// become "hoà"/"thuỷ"/"khoẻ", as ``TextFolding/accentedWords`` makes them meet.
    static func placingTones(_ text: String.UnicodeScalarView) -> String.UnicodeScalarView {
        var scalars = Array(text)
        guard scalars.count > 1 else { return text }
        for i in 0..<(scalars.count - 1) {
            guard let (base, tone) = toneOf[scalars[i]], base == "o" || base == "u" else { continue }
            let next = Character(scalars[i + 1])
            guard (base == "o" && (next == "a" || next == "e")) || (base == "u" && next == "y"),
                  let plain = toned[base]?[0], let moved = toned[next]?[tone] else { continue }
            scalars[i] = plain
            scalars[i + 1] = moved
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return out
    }

    /// Both lists of `places`' names.
    static func build(_ places: PlaceColumns) -> NameStarts {
        /// A table while it is built.
        struct Lists {
            var arena: [UInt8] = [], row: [Int32] = [], start: [UInt32] = [], end: [UInt32] = [], order: [Int32] = []
        }
        var accented = Lists(), folded = Lists()
        func add(_ key: [UInt8], row: Int, to table: inout Lists) {
            guard !key.isEmpty else { return }
            table.row.append(Int32(row))
            table.start.append(UInt32(table.arena.count))
            table.arena += key
            table.end.append(UInt32(table.arena.count))
        }
        places.arena.withUnsafeBufferPointer { arena in
            for row in 0..<places.count {
                add(Array(arena[places.span(row, .nameKey)]), row: row, to: &folded)
            }
        }
        for row in 0..<places.count {
            let name = places.text(row, .name)
            if TextFolding.hasAccents(name) { add(accentedKey(name), row: row, to: &accented) }
        }
        func sort(_ table: inout Lists) {
            table.arena.withUnsafeBufferPointer { arena in
                guard let base = arena.baseAddress else { return }
                let (start, end) = (table.start, table.end)
                var order = (0..<Int32(table.row.count)).map { $0 }
                order.sort { a, b in
                    let (sa, ea, sb, eb) = (Int(start[Int(a)]), Int(end[Int(a)]), Int(start[Int(b)]), Int(end[Int(b)]))
                    let c = memcmp(base + sa, base + sb, min(ea - sa, eb - sb))
                    return c != 0 ? c < 0 : (ea - sa != eb - sb ? ea - sa < eb - sb : a < b)
                }
                table.order = order
            }
        }
        sort(&accented)
        sort(&folded)
        func stored(_ lists: Lists) -> Table {
            Table(arena: StoredArray(lists.arena), row: StoredArray(lists.row), start: StoredArray(lists.start),
                  end: StoredArray(lists.end), order: StoredArray(lists.order))
        }
        return NameStarts(accented: stored(accented), folded: stored(folded))
    }

    /// The rows whose name begins with `text` (accented when `text` has accents, else folded),
    /// or `nil` when more than `limit` names do.
    func rows(beginning text: String, limit: Int) -> [Int]? {
        let hasAccents = TextFolding.hasAccents(text)
        let key = hasAccents ? Self.accentedKey(text) : Array(TextFolding.fold(text).utf8)
        guard !key.isEmpty else { return nil }
        let table = hasAccents ? accented : folded
        return table.arena.withUnsafeBufferPointer { arena -> [Int]? in
            guard let base = arena.baseAddress else { return [] }
            // -1, 0, 1: the entry's key before, beginning with, after `key`.
            func compare(_ entry: Int32) -> Int32 {
                let s = Int(table.start[Int(entry)]), length = Int(table.end[Int(entry)]) - s
                let c = key.withUnsafeBufferPointer { memcmp(base + s, $0.baseAddress!, min(length, key.count)) }
                if c != 0 { return c < 0 ? -1 : 1 }
                return length < key.count ? -1 : 0
            }
            var low = 0, high = table.order.count
            while low < high {
                let mid = (low + high) / 2
                if compare(table.order[mid]) < 0 { low = mid + 1 } else { high = mid }
            }
            var out: [Int] = []
            var i = low
            while i < table.order.count, compare(table.order[i]) == 0 {
                if out.count == limit { return nil }
                out.append(Int(table.row[Int(table.order[i])]))
                i += 1
            }
            return out
        }
    }
}
