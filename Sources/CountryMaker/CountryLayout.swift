import Foundation
import Geodesy
import PBFWriter

/// Where each copy of the city goes: a grid of cells the size of the city's bounding box plus a
/// gap, anchored on the city itself (copy 0 stays where it is), so copies never overlap. Each
/// copy, in assignment order, takes the free cell nearest its province's anchor, preferring
/// cells where the city's places land inside Vietnam's wards (where the import finds a ward for
/// a place; at sea or abroad it drops it): the cost of a cell is its distance plus 800 km times
/// the share of a sample of the city's places that would fall outside every ward there.
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
    /// Per copy: the share of the city's sampled places that fall outside every ward there.
    private(set) var outsideShare: [Double]

    /// `places`: a sample of the city's place coordinates (1e-7 degree).
    init(city: PBFBoundingBox, places: [(latE7: Int64, lonE7: Int64)], scale: Int, provinces: Provinces, seed: UInt64) {
        self.outsideShare = []
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
        // Share of the sample outside every ward, per cell, computed when a copy first considers the cell.
        var outside = [Double](repeating: -1, count: columns * (r1 - r0 + 1))
        func outsideShare(_ cell: Int) -> Double {
            if outside[cell] >= 0 { return outside[cell] }
            let dLat = Int64(cell / columns + r0) * cellHeightE7, dLon = Int64(cell % columns + c0) * cellWidthE7
            var misses = 0
            for p in places where !provinces.isInWard(lat: Double(p.latE7 + dLat) / 1e7, lng: Double(p.lonE7 + dLon) / 1e7) {
                misses += 1
            }
            outside[cell] = places.isEmpty ? 1 : Double(misses) / Double(places.count)
            return outside[cell]
        }
        var taken = [Bool](repeating: false, count: outside.count)

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
                // By distance: the penalty only adds, so stop once the distance alone exceeds the best cost.
                let byDistance = outside.indices.filter { !taken[$0] }.map { candidate -> (Double, Int) in
                    let lat = centerLat + Double(candidate / columns + r0) * ch, lng = centerLng + Double(candidate % columns + c0) * cw
                    return (Geo.planarDistance(lat, lng, anchor.anchorLat, anchor.anchorLng) / 1000, candidate)
                }.sorted { $0 < $1 }
                var best = -1
                var bestCost = Double.infinity
                for (distance, candidate) in byDistance {
                    if distance >= bestCost { break }
                    let cost = distance + 800 * outsideShare(candidate)
                    if cost < bestCost { bestCost = cost; best = candidate }
                }
                cell = best
            }
            taken[cell] = true
            let column = cell % columns + c0, row = cell / columns + r0
            copies.append(Copy(province: province, rank: ranks[province], cellColumn: column, cellRow: row,
                               dLatE7: Int64(row) * cellHeightE7, dLonE7: Int64(column) * cellWidthE7))
            ranks[province] += 1
            self.outsideShare.append(outsideShare(cell))
        }
    }
}
