import Foundation

/// Rows by the *squashed* key of their name and of each other name: the folded words with the
/// spaces taken out, so a brand's spellings meet ("Co.op Mart", "Co.opmart", "CoopMart" →
/// "coopmart"; "Mini Stop" = "Ministop"). Answers "which places are called exactly this",
/// which the word lists cannot bound when every word is common ("Phạm Vấn" among 1,000 streets
/// "Phạm Văn …").
///
/// Built on first use (≈ 5–10 ms for 40,000 places) under a lock, like the typo vocabulary:
/// start-up does not pay for it. One sorted array of (64-bit hash, row), ≈ 12 bytes a name.
final class ExactNames: @unchecked Sendable {
    // @unchecked: `built` is only touched under `lock`, then read-only.
    private let lock = NSLock()
    private var built: [(hash: UInt64, row: Int32)]?

    /// FNV-1a of the bytes without spaces.
    static func squashedHash<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes where b != UInt8(ascii: " ") {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
        }
        return h
    }

    private func table(_ places: PlaceColumns) -> [(hash: UInt64, row: Int32)] {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        var out: [(hash: UInt64, row: Int32)] = []
        out.reserveCapacity(places.count * 5 / 4)
        places.arena.withUnsafeBufferPointer { arena in
            for row in 0..<places.count {
                let name = places.span(row, .nameKey)
                if !name.isEmpty { out.append((Self.squashedHash(arena[name]), Int32(row))) }
                let aliases = places.span(row, .aliasKey)
                var from = aliases.lowerBound
                for i in aliases.lowerBound...aliases.upperBound where i == aliases.upperBound || arena[i] == UInt8(ascii: "|") {
                    if i > from { out.append((Self.squashedHash(arena[from..<i]), Int32(row))) }
                    from = i + 1
                }
            }
        }
        out.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.row < $1.row }
        built = out
        return out
    }

    /// The rows one of whose names squashes to the squashed `words` (hash equality: callers score them).
    func rows(named words: [String], in places: PlaceColumns) -> [Int] {
        let table = table(places)
        var bytes: [UInt8] = []
        for word in words { bytes += word.utf8 }
        guard !bytes.isEmpty else { return [] }
        let hash = Self.squashedHash(bytes)
        var low = 0, high = table.count
        while low < high {
            let mid = (low + high) / 2
            if table[mid].hash < hash { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        while low < table.count, table[low].hash == hash {
            if out.last != Int(table[low].row) { out.append(Int(table[low].row)) }
            low += 1
        }
        return out
    }
}
