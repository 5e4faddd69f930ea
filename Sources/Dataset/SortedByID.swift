/// Values by OSM id, appended in file order (ascending in PBF and XML extracts) and sorted once,
/// stably, before the first look-up if they were not: a country's tens of millions of nodes in two
/// arrays instead of a hash table twice their size. A repeated id (a broken file) reads as its last
/// value, as a dictionary filled with `[id] = value` would.
struct SortedByID<Value> {
    private var ids: [Int64] = []
    private var values: [Value] = []
    private var isSorted = true

    mutating func append(_ id: Int64, _ value: Value) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
        values.append(value)
    }

    subscript(id: Int64) -> Value? {
        mutating get {
            if !isSorted {
                let order = ids.indices.sorted { ids[$0] < ids[$1] || ids[$0] == ids[$1] && $0 < $1 }
                (ids, values) = (order.map { ids[$0] }, order.map { values[$0] })
                isSorted = true
            }
            let end = ids.end(ofSorted: id)
            return end > 0 && ids[end - 1] == id ? values[end - 1] : nil
        }
    }
}

extension Array where Element == Int64 {
    /// Where `id` stands in this ascending array of distinct ids, if it does.
    func position(ofSorted id: Int64) -> Int? {
        let end = end(ofSorted: id)
        return end > 0 && self[end - 1] == id ? end - 1 : nil
    }

    /// The index after the last element of this ascending array that is at most `id`.
    func end(ofSorted id: Int64) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] <= id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
