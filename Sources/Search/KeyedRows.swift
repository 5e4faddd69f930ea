/// Rows grouped by a key — the layout of both cell grids (``SearchIndex``'s cells, ``ReverseGrid``):
/// sorted distinct `keys`; the rows of `keys[i]` are `rows[starts[i]..<starts[i + 1]]`, ascending.
struct KeyedRows<Key: Comparable & BitwiseCopyable> {
    let keys: [Key]
    let starts: [UInt32]
    let rows: [UInt32]

    /// The groups of `pairs` (in any order).
    init(_ pairs: [(key: Key, row: UInt32)]) {
        let sorted = pairs.sorted { ($0.key, $0.row) < ($1.key, $1.row) }
        var keys: [Key] = [], starts: [UInt32] = [], rows: [UInt32] = []
        rows.reserveCapacity(sorted.count)
        for (index, pair) in sorted.enumerated() {
            if keys.last != pair.key {
                keys.append(pair.key)
                starts.append(UInt32(index))
            }
            rows.append(pair.row)
        }
        starts.append(UInt32(sorted.count))
        (self.keys, self.starts, self.rows) = (keys, starts, rows)
    }
}
