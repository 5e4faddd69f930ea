import Foundation
import ArrayBlob

/// The filters of an autocomplete query (format, city/district/ward, circle, categories, layers)
/// and the units a reading named, as a test on a row of ``PlaceColumns``. Same meaning as the
/// SQL conditions it replaced (a circle is first a bounding box; categories compare like SQL's
/// case-insensitive `LIKE '%,code,%'`).
struct PlaceFilter {
    let format: Int
    var cityId: Int?
    var districtId: Int?
    var wardId: Int?
    /// minimum and maximum latitude, then longitude.
    var box: (Double, Double, Double, Double)?
    /// `LIKE` patterns over "," + categories + ",".
    var categoryPatterns: [[UInt8]] = []
    /// Allowed kinds (bits by ``PlaceKind`` raw value) and admin levels (bits by ``AdminLevel`` raw
    /// value); `nil` when every layer is asked for.
    var layers: (kinds: UInt8, levels: UInt8)?
    /// The row must lie in one of these units (empty: no condition).
    var units: [AdminUnit] = []

    init(_ query: AutocompleteQuery) {
        format = query.format.rawValue
        cityId = query.cityId
        districtId = query.districtId
        wardId = query.wardId
        if let circle = query.circle {
            let dLat = circle.radiusMeters / 111_320
            let dLng = dLat / max(0.01, cos(circle.center.lat * .pi / 180))
            box = (circle.center.lat - dLat, circle.center.lat + dLat, circle.center.lng - dLng, circle.center.lng + dLng)
        }
        categoryPatterns = query.categories.map { Array("%,\($0),%".utf8) }
        if !query.layers.isEmpty {
            var kinds: UInt8 = 0, levels: UInt8 = 0
            if query.layers.contains(.poi) || query.layers.contains(.building) { kinds |= 1 << PlaceKind.poi.rawValue }
            if query.layers.contains(.street) { kinds |= 1 << PlaceKind.street.rawValue }
            if query.layers.contains(.address) { kinds |= 1 << PlaceKind.address.rawValue }
            if query.layers.contains(.city) { levels |= 1 << AdminLevel.province.rawValue }
            if query.layers.contains(.district) { levels |= 1 << AdminLevel.district.rawValue }
            if query.layers.contains(.ward) { levels |= 1 << AdminLevel.ward.rawValue }
            layers = (kinds, levels)
        }
    }

    /// The same filter, also requiring one of `units`.
    func within(_ units: [AdminUnit]) -> PlaceFilter {
        var copy = self
        copy.units = Array(units.prefix(20))
        return copy
    }

    func accepts(_ row: Int, in places: PlaceColumns) -> Bool {
        let scheme = Int(places.scheme[row])
        guard scheme == 0 || scheme == format else { return false }
        if let cityId, places.newProvince(row) != cityId && places.oldProvince(row) != cityId { return false }
        if let districtId, places.oldDistrict(row) != districtId { return false }
        if let wardId, places.newWard(row) != wardId && places.oldWard(row) != wardId { return false }
        if let (minLat, maxLat, minLng, maxLng) = box {
            let lat = places.lat[row], lng = places.lng[row]
            guard lat >= minLat && lat <= maxLat && lng >= minLng && lng <= maxLng else { return false }
        }
        if let (kinds, levels) = layers {
            let kind = places.kind[row]
            let level = places.adminLevel[row]
            let byKind = kinds & (1 << kind) != 0
            let byLevel = kind == UInt8(PlaceKind.admin.rawValue) && level < 8 && levels & (1 << level) != 0
            guard byKind || byLevel else { return false }
        }
        if !categoryPatterns.isEmpty {
            let range = places.span(row, .categories)
            var text: [UInt8] = [UInt8(ascii: ",")]
            text += places.arena[range]
            text.append(UInt8(ascii: ","))
            guard categoryPatterns.contains(where: { Self.like($0, text) }) else { return false }
        }
        if !units.isEmpty && !units.contains(where: { PlaceSearch.lies(row, in: $0, places) }) { return false }
        return true
    }

    /// SQLite's `LIKE` without ESCAPE: `%` any run of characters, `_` one character (UTF-8),
    /// ASCII letters without regard to case.
    static func like(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }
        /// Bytes of the UTF-8 character starting at `i`.
        func width(_ i: Int) -> Int {
            var j = i + 1
            while j < text.count && text[j] & 0xC0 == 0x80 { j += 1 }
            return j - i
        }
        while t < text.count {
            if p < pattern.count && pattern[p] == UInt8(ascii: "%") {
                starP = p
                starT = t
                p += 1
            } else if p < pattern.count && pattern[p] == UInt8(ascii: "_") {
                p += 1
                t += width(t)
            } else if p < pattern.count && lower(pattern[p]) == lower(text[t]) {
                p += 1
                t += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += width(starT)
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == UInt8(ascii: "%") { p += 1 }
        return p == pattern.count
    }
}
