import Foundation
import ArrayBlob
import TextFolding

/// The direction of an address migration (VietMap's `migrate_type`).
public enum MigrationDirection: Int, Sendable {
    /// A pre-2025 address (ward, district, province) to the 2025 scheme (ward, province).
    case oldToNew = 1
    /// A 2025 address to the pre-2025 scheme.
    case newToOld = 2

    /// The scheme the input is written in.
    public var source: AddressFormat { self == .oldToNew ? .old : .new }
    /// The scheme of the answer.
    public var target: AddressFormat { source.other }
}

/// An address rewritten in the other scheme: the street part as typed, the units replaced.
public struct MigratedAddress: Sendable, Equatable {
    /// The text before the units, as typed ("197 Trần Phú"); "" when the text named only units.
    public var street: String
    /// The units of the answer's scheme, ward first, province last (as VietMap's boundaries).
    public var units: [AdminUnit]
    /// The units read from the text, in the source scheme, ward first.
    public var source: [AdminUnit]
}

/// Rewrites a free-text address between the pre-2025 and 2025 administrative schemes using the
/// dataset's old↔new mapping (``AdminMapping``).
///
/// Reading: the text is split at commas; the parts that name administrative units (read as
/// search reads qualifiers: "Phường 4", "P.4", "Q5", "Quận Nhất", "TP HCM", "Thành phố Hồ Chí
/// Minh", accents optional; after the first part also a bare unit name such as "Bến Nghé") are the
/// units, the parts before them the street part, kept verbatim. A first part may end in units
/// ("197 Trần Phú P4 Q5 TPHCM"). Parts after the units that name nothing ("Việt Nam") are ignored.
///
/// Choosing the source ward: the ward of the source scheme named in the text that lies in the
/// named district and province (those constraints are relaxed when nothing satisfies them); among
/// several, the one holding the dataset place nearest the focus (within ``focusMeters``), else the
/// one whose centroid is nearest the focus, else the lowest code.
///
/// Choosing the target when the mapping gives several (a split ward old→new; nearly always for
/// new→old): with a focus, the target ward of the dataset place nearest the focus among the
/// places of the source ward (within ``focusMeters``), else (old→new) the target whose centroid is
/// nearest the focus; without a focus — or with one that decides nothing — the target holding the
/// most dataset places of the source ward, else the mapping's first target (old→new: the first the
/// old→new file lists; new→old: the first whole old ward, else the lowest code).
///
/// A text naming a province but no ward (of either scheme) migrates the province only (old→new: the province it
/// became; new→old: chosen as above among the provinces merged into it, preferring the one with
/// the same code). `nil` when no unit of the source scheme is recognised or it has no mapping.
public final class AddressMigration: Sendable {
    private let admin: AdminDirectory
    private let mapping: AdminMapping
    private let geocoder: ReverseGeocoder
    private let reader: QueryReader

    /// How far from the focus the dataset's places decide between candidate units.
    public static let focusMeters = 2_000.0

    init(admin: AdminDirectory, mapping: AdminMapping, geocoder: ReverseGeocoder) {
        self.admin = admin
        self.mapping = mapping
        self.geocoder = geocoder
        reader = QueryReader(admin: admin, initials: StreetInitials(stored: ""))
    }

    /// Whether the dataset holds the mapping at all.
    public var isAvailable: Bool { !mapping.isEmpty }

    /// `text` rewritten into `direction.target`, or `nil` (see the type's comment).
    public func migrate(_ text: String, direction: MigrationDirection, focus: Coordinate? = nil) -> MigratedAddress? {
        let (street, named) = read(text)
        let source = direction.source
        let provinces = named.filter { $0.scheme == source && $0.level == .province }
        let districts = source == .old ? named.filter { $0.scheme == .old && $0.level == .district } : []
        let wards = named.filter { $0.scheme == source && $0.level == .ward }
        if let ward = chooseWard(wards, districts: districts, provinces: provinces, focus: focus) {
            guard let target = target(of: ward, direction: direction, focus: focus) else { return nil }
            return MigratedAddress(street: street, units: hierarchy(of: target), source: hierarchy(of: ward))
        }
        // A ward of the other scheme only ("Phường Chợ Quán" asked old→new): not an address of the source scheme.
        guard !named.contains(where: { $0.level == .ward }),
              let province = provinces.min(by: { $0.code < $1.code }),
              let target = targetProvince(of: province, direction: direction, focus: focus) else { return nil }
        return MigratedAddress(street: street, units: [target], source: [province])
    }

    // MARK: - Reading

    /// The street part (verbatim) and every unit the text names.
    func read(_ text: String) -> (street: String, units: [AdminUnit]) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        var streetParts: [String] = []
        var units: [AdminUnit] = []
        for (index, part) in parts.enumerated() {
            if let found = unitsOnly(part, allowBareName: index > 0) {
                units += found
                continue
            }
            guard units.isEmpty else { continue }
            let words = part.split(whereSeparator: \.isWhitespace)
            var split = false
            for start in words.indices.dropFirst() {
                if let found = unitsOnly(words[start...].joined(separator: " "), allowBareName: false) {
                    streetParts.append(words[..<start].joined(separator: " "))
                    units += found
                    split = true
                    break
                }
            }
            if !split { streetParts.append(part) }
        }
        return (streetParts.joined(separator: ", "), units)
    }

    /// The units `text` names when it is nothing but unit names, else `nil`.
    private func unitsOnly(_ text: String, allowBareName: Bool) -> [AdminUnit]? {
        if let reading = reader.readings(of: text).first(where: { $0.words.isEmpty && !$0.units.isEmpty }) { return reading.units }
        if allowBareName {
            let found = admin.units(named: TextFolding.fold(text))
            if !found.isEmpty { return found }
        }
        return nil
    }

    // MARK: - Choosing

    private func chooseWard(_ wards: [AdminUnit], districts: [AdminUnit], provinces: [AdminUnit], focus: Coordinate?) -> AdminUnit? {
        guard !wards.isEmpty else { return nil }
        let inProvince = { (w: AdminUnit) in provinces.isEmpty || provinces.contains { $0.code == w.provinceCode } }
        let inDistrict = { (w: AdminUnit) in districts.isEmpty || districts.contains { $0.code == w.districtCode } }
        var candidates = wards.filter { inProvince($0) && inDistrict($0) }
        if candidates.isEmpty { candidates = wards.filter(inProvince) }
        if candidates.isEmpty { candidates = wards }
        candidates.sort { $0.code < $1.code }
        guard candidates.count > 1, let focus else { return candidates.first }
        let codes = Set(candidates.map(\.code))
        let places = geocoder.places
        let scheme = candidates[0].scheme
        if let hit = geocoder.nearest(to: focus, withinMeters: Self.focusMeters, limit: 1, where: {
            codes.contains(scheme == .new ? places.newWard($0) : places.oldWard($0))
        }).first {
            let code = scheme == .new ? places.newWard(hit.row) : places.oldWard(hit.row)
            if let unit = candidates.first(where: { $0.code == code }) { return unit }
        }
        return candidates.min { focus.distance(to: $0.centroid) < focus.distance(to: $1.centroid) }
    }

    /// The ward of the other scheme that `ward` migrates to.
    private func target(of ward: AdminUnit, direction: MigrationDirection, focus: Coordinate?) -> AdminUnit? {
        let links = direction == .oldToNew ? mapping.newUnits(ofOld: .ward, ward.code) : mapping.oldUnits(ofNew: .ward, ward.code)
        let targetCodes = links.map { direction == .oldToNew ? $0.new : $0.old }
        let targetScheme = direction.target
        let units = targetCodes.compactMap { admin.unit(targetScheme, .ward, $0) }
        guard units.count > 1 else { return units.first }
        let places = geocoder.places
        let wanted = Set(units.map(\.code))
        // (source code, target code) of a dataset row.
        func codes(_ row: Int) -> (Int, Int) {
            direction == .oldToNew ? (places.oldWard(row), places.newWard(row)) : (places.newWard(row), places.oldWard(row))
        }
        if let focus {
            if let hit = geocoder.nearest(to: focus, withinMeters: Self.focusMeters, limit: 1, where: {
                let (from, to) = codes($0)
                return from == ward.code && wanted.contains(to)
            }).first, let unit = units.first(where: { $0.code == codes(hit.row).1 }) {
                return unit
            }
            // Old wards have no centroid of their own (the importer gives them their first new ward's).
            if direction == .oldToNew {
                return units.min { focus.distance(to: $0.centroid) < focus.distance(to: $1.centroid) }
            }
        }
        var counts: [Int: Int] = [:]
        for row in 0..<places.count where places.kind[row] != UInt8(PlaceKind.admin.rawValue) {
            let (from, to) = codes(row)
            if from == ward.code, wanted.contains(to) { counts[to, default: 0] += 1 }
        }
        if let most = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }),
           let unit = units.first(where: { $0.code == most.key }) {
            return unit
        }
        return units.first
    }

    private func targetProvince(of province: AdminUnit, direction: MigrationDirection, focus: Coordinate?) -> AdminUnit? {
        switch direction {
        case .oldToNew:
            return mapping.newUnits(ofOld: .province, province.code).lazy.compactMap { self.admin.unit(.new, .province, $0.new) }.first
        case .newToOld:
            let units = mapping.oldUnits(ofNew: .province, province.code).compactMap { admin.unit(.old, .province, $0.old) }
            guard units.count > 1 else { return units.first }
            let places = geocoder.places
            let wanted = Set(units.map(\.code))
            if let focus, let hit = geocoder.nearest(to: focus, withinMeters: Self.focusMeters, limit: 1, where: {
                places.newProvince($0) == province.code && wanted.contains(places.oldProvince($0))
            }).first, let unit = units.first(where: { $0.code == places.oldProvince(hit.row) }) {
                return unit
            }
            return units.first { $0.code == province.code } ?? units.first
        }
    }

    /// `ward` and its parents, ward first.
    private func hierarchy(of ward: AdminUnit) -> [AdminUnit] {
        switch ward.scheme {
        case .new:
            return [ward, admin.unit(.new, .province, ward.provinceCode)].compactMap { $0 }
        case .old:
            return [ward, admin.unit(.old, .district, ward.districtCode), admin.unit(.old, .province, ward.provinceCode)].compactMap { $0 }
        }
    }
}
