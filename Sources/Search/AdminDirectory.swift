import SQLiteStore

/// Every administrative unit of both schemes, loaded once at start-up and shared read-only
/// by all request threads (a few thousand small values: cheaper than a query per lookup).
public final class AdminDirectory: Sendable {
    private struct Key: Hashable { let scheme: Int; let level: Int; let code: Int }
    private let units: [Key: AdminUnit]
    /// Units by folded short name ("ben thanh", "1", "ho chi minh"), for reading qualifiers in queries.
    private let byName: [String: [AdminUnit]]

    public init(database: Database) throws {
        let statement = try database.prepare(
            "SELECT scheme, level, code, name, prefix, full_name, district_code, province_code, lat, lng, name_key FROM admin_unit")
        let counter = try database.prepare("SELECT count(*) FROM admin_unit")
        let total = try counter.step() ? counter.int(0) : 0
        // Sized once: growing the tables step by step was a fifth of the start-up time.
        var units: [Key: AdminUnit] = Dictionary(minimumCapacity: total)
        var byName: [String: [AdminUnit]] = Dictionary(minimumCapacity: total)
        while try statement.step() {
            guard let scheme = AddressFormat(rawValue: statement.int(0)),
                  let level = AdminLevel(rawValue: statement.int(1)) else { continue }
            let unit = AdminUnit(
                scheme: scheme, level: level, code: statement.int(2), name: statement.text(3),
                prefix: statement.text(4), fullName: statement.text(5), districtCode: statement.int(6),
                provinceCode: statement.int(7), centroid: Coordinate(lat: statement.double(8), lng: statement.double(9)))
            units[Key(scheme: scheme.rawValue, level: level.rawValue, code: unit.code)] = unit
            byName[statement.text(10), default: []].append(unit)
        }
        self.units = units
        for name in byName.keys {
            byName[name]!.sort { ($0.scheme.rawValue, $0.level.rawValue, $0.code) < ($1.scheme.rawValue, $1.level.rawValue, $1.code) }
        }
        self.byName = byName
    }

    /// Units whose folded short name is `foldedName`, optionally of one level only.
    public func units(named foldedName: String, level: AdminLevel? = nil) -> [AdminUnit] {
        let all = byName[foldedName] ?? []
        guard let level else { return all }
        return all.filter { $0.level == level }
    }

    public func unit(_ scheme: AddressFormat, _ level: AdminLevel, _ code: Int) -> AdminUnit? {
        guard code != 0 else { return nil }
        return units[Key(scheme: scheme.rawValue, level: level.rawValue, code: code)]
    }

    public var count: Int { units.count }

    /// The units a place's address is made of, ward first, province last (VietMap's boundary order).
    public func hierarchy(of place: PlaceRecord, in format: AddressFormat) -> [AdminUnit] {
        switch format {
        case .new:
            return [unit(.new, .ward, place.newWard), unit(.new, .province, place.newProvince)].compactMap { $0 }
        case .old:
            return [unit(.old, .ward, place.oldWard), unit(.old, .district, place.oldDistrict),
                    unit(.old, .province, place.oldProvince)].compactMap { $0 }
        }
    }
}
