import Foundation

/// Gives every ordinary place its old-format (pre-2025) ward, district and province.
///
/// Rows that carry an old ward code keep it (district and province are then taken from
/// `units_pre2025`). Otherwise the candidates are the old wards linked to the place's new
/// ward in the new→old mapping (restricted to the old district when the row gives one; if
/// none of them lies in that district, the district's own wards). Among the candidates,
/// the one used by the nearest POI with a known old ward in the same new ward wins (a
/// spatial heuristic); failing that the first `full` link, failing that the first link.
struct OldCodeResolver {
    private let admin: AdminRegistry
    private struct Reference { let lat: Double, lng: Double, oldWard: Int }
    private var referencesByNewWard: [Int: [Reference]] = [:]
    private var allReferences: [Reference] = []

    init(admin: AdminRegistry, references: [ImportedPlace]) {
        self.admin = admin
        for place in references where place.oldWard != 0 && admin.oldWards[place.oldWard] != nil {
            let reference = Reference(lat: place.lat, lng: place.lng, oldWard: place.oldWard)
            referencesByNewWard[place.newWard, default: []].append(reference)
            allReferences.append(reference)
        }
    }

    private static func distance2(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let dx = (lng1 - lng2) * cos(lat1 * .pi / 180), dy = lat1 - lat2
        return dx * dx + dy * dy
    }

    private func nearest(in references: [Reference], to place: ImportedPlace, among candidates: Set<Int>) -> Int? {
        var best: (ward: Int, d: Double)?
        for reference in references where candidates.contains(reference.oldWard) {
            let d = Self.distance2(place.lat, place.lng, reference.lat, reference.lng)
            if best == nil || d < best!.d || (d == best!.d && reference.oldWard < best!.ward) { best = (reference.oldWard, d) }
        }
        return best?.ward
    }

    func resolve(_ place: inout ImportedPlace) {
        if place.oldWard != 0, let ward = admin.oldWards[place.oldWard] {
            place.oldDistrict = ward.districtCode
            place.oldProvince = ward.provinceCode
            place.oldSource = .data
            return
        }
        place.oldWard = 0
        let knownDistrict = place.oldDistrict != 0 ? admin.oldDistricts[place.oldDistrict] : nil
        if knownDistrict == nil { place.oldDistrict = 0 }

        var candidates = (admin.newToOld[place.newWard] ?? []).filter { admin.oldWards[$0.code] != nil }
        var districtFallback = false
        if let district = knownDistrict {
            let inDistrict = candidates.filter { admin.oldWards[$0.code]?.districtCode == district.code }
            if inDistrict.isEmpty {
                candidates = (admin.oldDistrictWards[district.code] ?? []).map { (code: $0, full: false) }
                districtFallback = true
            } else {
                candidates = inDistrict
            }
        }

        var chosen: Int?
        var source = OldCodeSource.unresolved
        if !candidates.isEmpty {
            let set = Set(candidates.map(\.code))
            if let ward = nearest(in: referencesByNewWard[place.newWard] ?? [], to: place, among: set)
                ?? (districtFallback ? nearest(in: allReferences, to: place, among: set) : nil) {
                chosen = ward
                source = .nearestPOI
            } else if let full = candidates.first(where: \.full) {
                chosen = full.code
                source = .firstFullLink
            } else {
                chosen = candidates[0].code
                source = .firstLink
            }
        }
        if let chosen, let ward = admin.oldWards[chosen] {
            place.oldWard = chosen
            place.oldDistrict = ward.districtCode
            place.oldProvince = ward.provinceCode
            place.oldSource = source
            place.oldDistrictFromData = knownDistrict != nil
        } else {
            place.oldProvince = knownDistrict?.provinceCode ?? 0
            place.oldSource = .unresolved
            place.oldDistrictFromData = knownDistrict != nil
        }
    }
}
