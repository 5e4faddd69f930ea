import ArrayBlob
import Foundation

/// Rows by the *squashed* key of their name and of each other name: the folded words with the
/// spaces taken out, so a brand's spellings meet ("Co.op Mart", "Co.opmart", "CoopMart" →
/// "coopmart"; "Mini Stop" = "Ministop"). Answers "which places are called exactly this",
/// which the word lists cannot bound when every word is common ("Phạm Vấn" among 1,000 streets
/// "Phạm Văn …").
///
/// Built at import with the rest of ``SearchIndex`` and stored in its blob: one sorted array of
/// (64-bit hash, row), ≈ 12 bytes a name.
struct ExactNames: Sendable {
    let hashes: StoredArray<UInt64>
    let rows: StoredArray<Int32>

    init(hashes: StoredArray<UInt64>, rows: StoredArray<Int32>) { (self.hashes, self.rows) = (hashes, rows) }

    /// FNV-1a of the bytes without spaces.
    static func squashedHash<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes where b != UInt8(ascii: " ") {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
        }
        return h
    }

    /// The table of `places`' names and other names.
    static func build(_ places: PlaceColumns) -> ExactNames {
        var out: [(hash: UInt64, row: Int32)] = []
        out.reserveCapacity(places.count * 5 / 4)
        places.arena.withUnsafeBufferPointer { arena in
            for row in 0..<places.count {
                let name = places.span(row, .nameKey)
                if !name.isEmpty { out.append((squashedHash(arena[name]), Int32(row))) }
                let aliases = places.span(row, .aliasKey)
                var from = aliases.lowerBound
                for i in aliases.lowerBound...aliases.upperBound where i == aliases.upperBound || arena[i] == UInt8(ascii: "|") {
                    if i > from { out.append((squashedHash(arena[from..<i]), Int32(row))) }
                    from = i + 1
                }
            }
        }
        out.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.row < $1.row }
        return ExactNames(hashes: StoredArray(out.map(\.hash)), rows: StoredArray(out.map(\.row)))
    }

    /// The rows one of whose names squashes to the squashed `words` (hash equality: callers score them).
    func rows(named words: [String]) -> [Int] {
        var bytes: [UInt8] = []
        for word in words { bytes += word.utf8 }
        guard !bytes.isEmpty else { return [] }
        let hash = Self.squashedHash(bytes)
        var low = 0, high = hashes.count
        while low < high {
            let mid = (low + high) / 2
            if hashes[mid] < hash { low = mid + 1 } else { high = mid }
        }
        var out: [Int] = []
        while low < hashes.count, hashes[low] == hash {
            if out.last != Int(rows[low]) { out.append(Int(rows[low])) }
            low += 1
        }
        return out
    }
}
