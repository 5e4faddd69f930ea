import ArrayBlob

/// The fine grid reverse geocoding reads (``ReverseGeocoder``): the ordinary places (no admin
/// units) by cell of ``ReverseGeocoder/cellDegrees`` (≈ 440 m), and the new-scheme wards' rows for
/// the centroid fallback. Built at import with the rest of ``SearchIndex`` and stored in its blob:
/// at a country's 2 M places sorting them cost every start a second.
struct ReverseGrid: Sendable {
    /// Sorted distinct cell keys; the rows of `cellKeys[i]` are `cellRows[cellStart[i]..<cellStart[i + 1]]`.
    let cellKeys: StoredArray<Int64>
    let cellStart: StoredArray<UInt32>
    let cellRows: StoredArray<UInt32>
    /// Rows of the new-scheme ward units.
    let newWardRows: StoredArray<UInt32>

    init(cellKeys: StoredArray<Int64>, cellStart: StoredArray<UInt32>, cellRows: StoredArray<UInt32>, newWardRows: StoredArray<UInt32>) {
        (self.cellKeys, self.cellStart, self.cellRows, self.newWardRows) = (cellKeys, cellStart, cellRows, newWardRows)
    }

    /// The grid of `places`.
    static func build(_ places: PlaceColumns) -> ReverseGrid {
        let admin = UInt8(PlaceKind.admin.rawValue)
        var pairs: [(key: Int64, row: UInt32)] = []
        var wards: [UInt32] = []
        pairs.reserveCapacity(places.count)
        for row in 0..<places.count {
            if places.kind[row] == admin {
                if places.scheme[row] == UInt8(AddressFormat.new.rawValue), places.adminLevel[row] == UInt8(AdminLevel.ward.rawValue) {
                    wards.append(UInt32(row))
                }
                continue
            }
            // A coordinate outside the globe is in no cell, rather than a trap.
            let lat = places.lat[row], lng = places.lng[row]
            guard lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else { continue }
            pairs.append((ReverseGeocoder.cellKey(row: ReverseGeocoder.cellRow(lat), column: ReverseGeocoder.cellColumn(lng)), UInt32(row)))
        }
        let cells = KeyedRows(pairs)
        return ReverseGrid(cellKeys: StoredArray(cells.keys), cellStart: StoredArray(cells.starts), cellRows: StoredArray(cells.rows),
                           newWardRows: StoredArray(wards))
    }

    /// Whether its arrays agree with each other and with `rows` places (a damaged blob never traps).
    func isConsistent(rows: Int) -> Bool {
        cellStart.count == cellKeys.count + 1 && cellStart.first == 0 && Int(cellStart.last!) == cellRows.count
            && zip(cellStart, cellStart.dropFirst()).allSatisfy { $0 <= $1 } && zip(cellKeys, cellKeys.dropFirst()).allSatisfy { $0 < $1 }
            && cellRows.allSatisfy { Int($0) < rows } && newWardRows.allSatisfy { Int($0) < rows }
    }
}
