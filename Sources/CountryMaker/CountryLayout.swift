import Foundation
import PBFWriter

/// Where each copy of the city goes: a grid of cells the size of the city's bounding box plus a
/// gap, anchored on the city itself (copy 0 stays where it is), so copies never overlap. Each
/// copy, in assignment order, takes the free cell nearest its province's anchor, preferring
/// cells that hold ward centroids (land, where the importer finds a ward for every place) over
/// cells that hold none (sea, neighbouring countries).
struct CountryLayout {
    struct Copy: Sendable, Equatable {
        /// Index into `Provinces.provinces`.
        var province: Int
        /// The n-th copy in its province, from 0.
        var rank: Int
        var cellColumn: Int
        var cellRow: Int
        /// Translation in 1e-7 degree.
        var dLatE7: Int64
        var dLonE7: Int64
    }

    /// Space between neighbouring copies, in 1e-7 degree (≈ 5.5 km).
    static let gapE7: Int64 = 500_000

    private(set) var copies: [Copy] = []
    let cellWidthE7: Int64
    let cellHeightE7: Int64

    init(city: PBFBoundingBox, scale: Int, provinces: Provinces, seed: UInt64) {
        cellWidthE7 = city.maxLonE7 - city.minLonE7 + Self.gapE7
        cellHeightE7 = city.maxLatE7 - city.minLatE7 + Self.gapE7
        let cw = Double(cellWidthE7) / 1e7, ch = Double(cellHeightE7) / 1e7
        let centerLat = Double(city.minLatE7 + city.maxLatE7) / 2e7, centerLng = Double(city.minLonE7 + city.maxLonE7) / 2e7

        // Candidate cells: those over Vietnam's bbox, widened ring by ring until there are enough.
        func columnOf(_ lng: Double) -> Int { Int(((lng - centerLng) / cw).rounded()) }
        func rowOf(_ lat: Double) -> Int { Int(((lat - centerLat) / ch).rounded()) }
        var c0 = columnOf(provinces.minLng), c1 = columnOf(provinces.maxLng)
        var r0 = rowOf(provinces.minLat), r1 = rowOf(provinces.maxLat)
        while (c1 - c0 + 1) * (r1 - r0 + 1) < scale + 1 { c0 -= 1; c1 += 1; r0 -= 1; r1 += 1 }
        let columns = c1 - c0 + 1
        var land = [Int](repeating: 0, count: columns * (r1 - r0 + 1))
        for ward in provinces.wardCentroids {
            let c = columnOf(ward.lng), r = rowOf(ward.lat)
            if (c0 ... c1).contains(c), (r0 ... r1).contains(r) { land[(r - r0) * columns + (c - c0)] += 1 }
        }
        var taken = [Bool](repeating: false, count: land.count)

        let home = provinces.nearest(lat: centerLat, lng: centerLng)
        let order = provinces.assignmentOrder(home: home, seed: seed)
        var ranks = [Int](repeating: 0, count: provinces.provinces.count)
        for index in 0 ..< scale {
            let province = order[index % order.count]
            let cell: Int
            if index == 0 {
                cell = (0 - r0) * columns + (0 - c0)
            } else {
                let anchor = provinces.provinces[province]
                var best = -1
                var bestCost = Double.infinity
                for candidate in land.indices where !taken[candidate] {
                    let c = candidate % columns + c0, r = candidate / columns + r0
                    let lat = centerLat + Double(r) * ch, lng = centerLng + Double(c) * cw
                    let penalty = land[candidate] >= 3 ? 0 : land[candidate] >= 1 ? 150.0 : 400.0
                    let cost = Geo.km(lat, lng, anchor.anchorLat, anchor.anchorLng) + penalty
                    if cost < bestCost { bestCost = cost; best = candidate }
                }
                cell = best
            }
            taken[cell] = true
            let column = cell % columns + c0, row = cell / columns + r0
            copies.append(Copy(province: province, rank: ranks[province], cellColumn: column, cellRow: row,
                               dLatE7: Int64(row) * cellHeightE7, dLonE7: Int64(column) * cellWidthE7))
            ranks[province] += 1
        }
    }
}
