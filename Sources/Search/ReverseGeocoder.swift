import ArrayBlob
import Foundation
import Geodesy

/// Reverse geocoding: the places nearest a coordinate, answered from memory over a fine grid of
/// the dataset's ordinary places (address points, POIs, streets; admin units are not in it).
///
/// - Within ``ReverseQuery/radiusMeters`` (default 500 m): the nearest places, nearest first,
///   each a place row that exists in both schemes (``ReverseResult/match`` `.place`). A street is
///   its place row's point (the dataset stores one point per street and ward, no geometry).
/// - Nothing that near: one `.area` result, the ward the point lies in — the wards of the
///   nearest place within ``areaMeters`` (5 km), else the new ward whose centroid is nearest
///   within ``maxCentroidMeters`` (30 km), with the old ward the mapping gives it (a whole one
///   first). Each scheme's ward is its own admin place row.
/// - Neither (the open sea, another country): no result.
///
/// The radius is in metres (equirectangular, exact enough at these ranges); the order is by
/// planar distance in degrees, the `distance` VietMap's reverse answers report.
public final class ReverseGeocoder: Sendable {
    let places: PlaceColumns
    private let mapping: AdminMapping
    /// Grid of ordinary places: sorted distinct cell keys, the rows of `cellKeys[i]` are
    /// `cellRows[cellStart[i]..<cellStart[i + 1]]`.
    private let cellKeys: StoredArray<Int64>
    private let cellStart: StoredArray<UInt32>
    private let cellRows: StoredArray<UInt32>
    /// Rows of the new-scheme ward units (for the centroid fallback).
    private let newWardRows: StoredArray<UInt32>

    /// Grid cell size in degrees (≈ 440 m).
    static let cellDegrees = 0.004
    /// Metres per degree of latitude (mean Earth radius).
    static let metersPerDegree = Geo.metresPerDegree
    /// The nearest place farther than a query's radius still names the ward up to this far.
    public static let areaMeters = 5_000.0
    /// Beyond this from every new ward's centroid (and with no place within `areaMeters`) a point is
    /// outside the country: no answer.
    public static let maxCentroidMeters = 30_000.0

    init(index: SearchIndex, mapping: AdminMapping) {
        places = index.places
        self.mapping = mapping
        let grid = index.reverseGrid
        (cellKeys, cellStart, cellRows, newWardRows) = (grid.cellKeys, grid.cellStart, grid.cellRows, grid.newWardRows)
    }

    static func cellRow(_ lat: Double) -> Int64 { Int64(((lat + 90) / cellDegrees).rounded(.down)) }
    static func cellColumn(_ lng: Double) -> Int64 { Int64(((lng + 180) / cellDegrees).rounded(.down)) }
    static func cellKey(row: Int64, column: Int64) -> Int64 { row << 32 | column }

    /// The places nearest `query.point`, nearest first, or the ward it lies in (see the type's comment).
    public func reverse(_ query: ReverseQuery) -> [ReverseResult] {
        let point = query.point
        guard point.lat.isFinite, point.lng.isFinite, abs(point.lat) <= 90, abs(point.lng) <= 180, query.limit > 0 else { return [] }
        let radius = max(0, query.radiusMeters)
        // A small circle first: in a city it already holds enough, and only its cells are read.
        var found: [(d2: Double, row: Int)] = []
        for r in [min(150, radius), radius] {
            found = nearest(to: point, withinMeters: r, limit: query.limit) { _ in true }
            if found.count >= query.limit { break }
        }
        if !found.isEmpty {
            return found.map { hit in
                let record = places.record(hit.row)
                return ReverseResult(match: .place, newPlace: record, oldPlace: record, distanceMeters: hit.d2.squareRoot())
            }
        }
        return area(around: point).map { [$0] } ?? []
    }

    /// The ward `point` lies in, as a result of both schemes' ward rows.
    private func area(around point: Coordinate) -> ReverseResult? {
        var newWard = 0, oldWard = 0
        var distance = 0.0
        if let hit = nearest(to: point, withinMeters: Self.areaMeters, limit: 1, where: { _ in true }).first {
            newWard = places.newWard(hit.row)
            oldWard = places.oldWard(hit.row)
            distance = hit.d2.squareRoot()
        }
        if newWard == 0 {
            var best: (d2: Double, row: Int)?
            let scale = cos(point.lat * .pi / 180)
            for row in newWardRows.lazy.map(Int.init) {
                let d2 = Self.distance2(point, places.lat[row], places.lng[row], scale)
                if best == nil || d2 < best!.d2 { best = (d2, row) }
            }
            guard let best, best.d2 <= Self.maxCentroidMeters * Self.maxCentroidMeters else { return nil }
            newWard = places.newWard(best.row)
            distance = best.d2.squareRoot()
            oldWard = 0
        }
        if oldWard == 0 { oldWard = mapping.oldUnits(ofNew: .ward, newWard).first?.old ?? 0 }
        let newRow = places.row(key: PlaceSearch.key(of: .new, .ward, newWard))
        let oldRow = oldWard == 0 ? nil : places.row(key: PlaceSearch.key(of: .old, .ward, oldWard))
        guard newRow != nil || oldRow != nil else { return nil }
        return ReverseResult(match: .area, newPlace: newRow.map(places.record), oldPlace: oldRow.map(places.record),
                             distanceMeters: distance)
    }

    /// Squared equirectangular distance in m² from `point` (`scale` = cos of its latitude).
    @inline(__always)
    static func distance2(_ point: Coordinate, _ lat: Double, _ lng: Double, _ scale: Double) -> Double {
        let dy = (lat - point.lat) * metersPerDegree
        let dx = (lng - point.lng) * metersPerDegree * scale
        return dx * dx + dy * dy
    }

    /// Up to `limit` ordinary rows within `meters` of `point` that `accept`, nearest first by
    /// planar distance in degrees — the distance the API reports, so its lists read in order —
    /// (ties: lower row, i.e. the more important place), with their squared distances in m².
    func nearest(to point: Coordinate, withinMeters meters: Double, limit: Int, where accept: (Int) -> Bool) -> [(d2: Double, row: Int)] {
        guard meters >= 0, limit > 0 else { return [] }
        let scale = cos(point.lat * .pi / 180)
        let dLat = meters / Self.metersPerDegree
        let dLng = meters / (Self.metersPerDegree * max(scale, 0.01))
        let rows = Self.cellRow(point.lat - dLat)...Self.cellRow(point.lat + dLat)
        let firstColumn = Self.cellColumn(point.lng - dLng), lastColumn = Self.cellColumn(point.lng + dLng)
        let max2 = meters * meters
        var found: [(d2: Double, degrees2: Double, row: Int)] = []
        for cellRow in rows {
            let from = Self.cellKey(row: cellRow, column: firstColumn), to = Self.cellKey(row: cellRow, column: lastColumn)
            // The cells of one grid row are contiguous in key order.
            var i = lowerBound(from)
            while i < cellKeys.count, cellKeys[i] <= to {
                for k in Int(cellStart[i])..<Int(cellStart[i + 1]) {
                    let row = Int(cellRows[k])
                    let d2 = Self.distance2(point, places.lat[row], places.lng[row], scale)
                    if d2 <= max2, accept(row) {
                        let dLat = places.lat[row] - point.lat, dLng = places.lng[row] - point.lng
                        found.append((d2, dLat * dLat + dLng * dLng, row))
                    }
                }
                i += 1
            }
        }
        found.sort { $0.degrees2 != $1.degrees2 ? $0.degrees2 < $1.degrees2 : $0.row < $1.row }
        return found.prefix(limit).map { ($0.d2, $0.row) }
    }

    private func lowerBound(_ key: Int64) -> Int {
        var low = 0, high = cellKeys.count
        while low < high {
            let mid = (low + high) / 2
            if cellKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// A reverse-geocoding request in domain terms.
public struct ReverseQuery: Sendable {
    public var point: Coordinate
    /// At most this many places.
    public var limit: Int
    /// Places farther than this are not answered (the ward is, see ``ReverseGeocoder``).
    public var radiusMeters: Double

    public init(point: Coordinate, limit: Int = 10, radiusMeters: Double = 500) {
        self.point = point
        self.limit = limit
        self.radiusMeters = radiusMeters
    }
}

/// One reverse-geocoding answer: a place (the same row in both schemes) or, far from every
/// place, the ward the point lies in (one admin row per scheme).
public struct ReverseResult: Sendable {
    public enum Match: Sendable { case place, area }
    public var match: Match
    /// The row shown in the new format (`nil` when the scheme has no such unit).
    public var newPlace: PlaceRecord?
    /// The row shown in the old format.
    public var oldPlace: PlaceRecord?
    /// Metres from the query point to the place (for `.area`: to the place or centroid that named the ward).
    public var distanceMeters: Double

    /// The row to show in `format`.
    public func place(in format: AddressFormat) -> PlaceRecord? { format == .new ? newPlace : oldPlace }
}
