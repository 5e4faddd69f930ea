import SQLiteStore

/// The old↔new mapping of the 2025 reform as the dataset stores it (`admin_link`), in memory:
/// which new wards each old ward went into and which old wards each new ward was made of, and
/// which new province each old province became.
///
/// A dataset written before the table existed (schema < 11) has no links: every lookup is empty.
public final class AdminMapping: Sendable {
    /// One link of the mapping.
    public struct Link: Sendable, Equatable {
        public var old: Int
        public var new: Int
        /// Order among the old unit's targets as the old→new file lists them (0 first; ≥ 1000:
        /// known only from the new→old file).
        public var rank: Int
        /// The old ward went wholly into the new one.
        public var full: Bool
    }

    private let wardsByOld: [Int: [Link]]
    private let wardsByNew: [Int: [Link]]
    private let provincesByOld: [Int: [Link]]
    private let provincesByNew: [Int: [Link]]

    public init(database: Database) throws {
        var wardsByOld: [Int: [Link]] = [:], wardsByNew: [Int: [Link]] = [:]
        var provincesByOld: [Int: [Link]] = [:], provincesByNew: [Int: [Link]] = [:]
        let exists = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'admin_link'")
        if try exists.step(), exists.int(0) > 0 {
            let statement = try database.prepare("SELECT level, old_code, new_code, rank, full FROM admin_link ORDER BY level, old_code, rank, new_code")
            while try statement.step() {
                let link = Link(old: statement.int(1), new: statement.int(2), rank: statement.int(3), full: statement.int(4) != 0)
                switch AdminLevel(rawValue: statement.int(0)) {
                case .ward?:
                    wardsByOld[link.old, default: []].append(link)
                    wardsByNew[link.new, default: []].append(link)
                case .province?:
                    provincesByOld[link.old, default: []].append(link)
                    provincesByNew[link.new, default: []].append(link)
                default: continue
                }
            }
        }
        // Old wards of a new ward: whole ones first, then in code order.
        for (key, links) in wardsByNew { wardsByNew[key] = links.sorted { ($0.full ? 0 : 1, $0.old) < ($1.full ? 0 : 1, $1.old) } }
        for (key, links) in provincesByNew { provincesByNew[key] = links.sorted { $0.old < $1.old } }
        (self.wardsByOld, self.wardsByNew, self.provincesByOld, self.provincesByNew) = (wardsByOld, wardsByNew, provincesByOld, provincesByNew)
    }

    /// Whether the dataset holds any link.
    public var isEmpty: Bool { wardsByOld.isEmpty && provincesByOld.isEmpty }

    /// The new units an old unit (ward or province) went into, by rank.
    public func newUnits(ofOld level: AdminLevel, _ code: Int) -> [Link] {
        switch level {
        case .ward: return wardsByOld[code] ?? []
        case .province: return provincesByOld[code] ?? []
        case .district: return []
        }
    }

    /// The old units a new unit (ward or province) was made of: whole wards first, then by code.
    public func oldUnits(ofNew level: AdminLevel, _ code: Int) -> [Link] {
        switch level {
        case .ward: return wardsByNew[code] ?? []
        case .province: return provincesByNew[code] ?? []
        case .district: return []
        }
    }
}
