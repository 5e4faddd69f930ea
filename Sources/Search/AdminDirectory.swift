import SQLiteStore

/// Every administrative unit of both schemes, loaded once at start-up and shared read-only
/// by all request threads (a few thousand small values: cheaper than a query per lookup).
public final class AdminDirectory: Sendable {
    private struct Key: Hashable { let scheme: UInt8; let level: UInt8; let code: Int32 }
    /// Every unit once; the maps below hold positions in it (a unit is ~100 bytes and its
    /// names more: stored twice they were most of the directory's memory).
    private let all: [AdminUnit]
    private let positions: [Key: Int32]
    /// Units by folded short name ("ben thanh", "1", "ho chi minh"), for reading qualifiers in
    /// queries; positions sorted by (scheme, level, code).
    private let byName: [String: [Int32]]

    public init(database: Database) throws {
        let statement = try database.prepare(
            "SELECT scheme, level, code, name, prefix, full_name, district_code, province_code, lat, lng, name_key FROM admin_unit ORDER BY scheme, level, code")
        let counter = try database.prepare("SELECT count(*) FROM admin_unit")
        let total = try counter.step() ? counter.int(0) : 0
        // Sized once: growing the tables step by step was a fifth of the start-up time.
        var all: [AdminUnit] = []
        all.reserveCapacity(total)
        var positions: [Key: Int32] = Dictionary(minimumCapacity: total)
        var byName: [String: [Int32]] = [:]
        while try statement.step() {
            guard let scheme = AddressFormat(rawValue: statement.int(0)),
                  let level = AdminLevel(rawValue: statement.int(1)) else { continue }
            let unit = AdminUnit(
                scheme: scheme, level: level, code: statement.int(2), name: statement.text(3),
                prefix: statement.text(4), fullName: statement.text(5), districtCode: statement.int(6),
                provinceCode: statement.int(7), centroid: Coordinate(lat: statement.double(8), lng: statement.double(9)))
            let position = Int32(all.count)
            all.append(unit)
            positions[Self.key(scheme, level, unit.code)] = position
            byName[statement.text(10), default: []].append(position)
        }
        self.all = all
        self.positions = positions
        self.byName = byName
    }

    private static func key(_ scheme: AddressFormat, _ level: AdminLevel, _ code: Int) -> Key {
        Key(scheme: UInt8(scheme.rawValue), level: UInt8(level.rawValue), code: Int32(truncatingIfNeeded: code))
    }

    /// Units whose folded short name is `foldedName`, optionally of one level only.
    public func units(named foldedName: String, level: AdminLevel? = nil) -> [AdminUnit] {
        guard let found = byName[foldedName] else { return [] }
        let units = found.map { all[Int($0)] }
        guard let level else { return units }
        return units.filter { $0.level == level }
    }

    public func unit(_ scheme: AddressFormat, _ level: AdminLevel, _ code: Int) -> AdminUnit? {
        guard code != 0, Int32(exactly: code) != nil, let position = positions[Self.key(scheme, level, code)] else { return nil }
        return all[Int(position)]
    }

    public var count: Int { all.count }

    /// Every unit of both schemes, ordered by scheme, level and code.
    public var units: [AdminUnit] { all }

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
