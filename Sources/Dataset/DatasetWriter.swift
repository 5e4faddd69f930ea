import ArrayBlob
import Foundation
import Routing
import SQLiteStore
import Search
import TextFolding

/// Writes the loaded units and places into a fresh database file (one transaction,
/// prepared statements), then the FTS index and `meta`; then, the database closed, its search
/// index as the first section after the SQLite pages. The road graph's sections follow through the
/// returned ``DatasetSections``.
struct DatasetWriter {
    let path: String
    let admin: AdminRegistry
    /// Dropped once their rows are written (the search index is built from the tables).
    private(set) var places: PlaceSources
    let inputs: [URL]
    let fingerprint: String

    /// How an admin unit is indexed in the FTS `address` column: its short name ("Bến Thành",
    /// "Hồ Chí Minh") without "Phường"/"Thành phố"/"Tỉnh", which nearly every place shares and
    /// which would make every multi-word query scan the whole index; districts and numbered
    /// wards keep their prefix ("Quận 1", "Phường 4"), without which they mean nothing.
    static func searchName(_ unit: AdminUnitRecord?) -> String {
        guard let unit else { return "" }
        if unit.level == .district || unit.name.allSatisfy({ $0.isNumber }) { return unit.fullName }
        return unit.name
    }

    /// Folded text of several strings, exact duplicates and empties dropped.
    static func folded(_ parts: [String]) -> String {
        joined(folded: parts.map { $0.isEmpty ? "" : TextFolding.fold($0) })
    }

    /// ``folded(_:)`` of strings already folded.
    static func joined(folded keys: [String]) -> String {
        var seen = Set<String>()
        var out: [String] = []
        for key in keys where !key.isEmpty && seen.insert(key).inserted { out.append(key) }
        return out.joined(separator: " ")
    }

    /// The folded other names of a place, "|"-separated, without the name itself and duplicates.
    static func aliasKey(name: String, aliases: [String]) -> String {
        var seen: Set<String> = [TextFolding.fold(name)]
        return aliases.map(TextFolding.fold).filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "|")
    }

    /// Writes the tables and the search index; returns where the dataset's other sections go.
    mutating func write(into report: inout DatasetBuildReport) throws -> DatasetSections {
        let index: [UInt8]
        do {
            index = try writeTables(into: &report)
        } catch let error as SQLiteError {
            throw DatasetError(.database, file: URL(fileURLWithPath: report.output.path).lastPathComponent, error.description)
        }
        let sections = try DatasetSections(path: path, output: report.output)
        try sections.append(name: SearchIndex.sectionName, index)
        return sections
    }

    /// The tables, in one transaction; returns the search index blob.
    private mutating func writeTables(into report: inout DatasetBuildReport) throws -> [UInt8] {
        let db = try Database(path: path, mode: .create)
        // A fresh private temp file: no journal needed, it is renamed into place only when complete.
        try db.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;")
        try db.execute(DatasetSchema.ddl)

        try db.transaction {
            let insertUnit = try db.prepare("INSERT INTO admin_unit(scheme, level, code, name, prefix, full_name, name_key, district_code, province_code, lat, lng) VALUES (?,?,?,?,?,?,?,?,?,?,?)")
            let insertPlace = try db.prepare("INSERT INTO place(id, key, kind, scheme, name, hs_num, street, categories, lat, lng, importance, new_ward, new_province, old_ward, old_district, old_province, name_key, address_key, kind_key, alias_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
            let insertFTS = try db.prepare("INSERT INTO place_fts(rowid, name, address) VALUES (?,?,?)")
            let insertNameFTS = try db.prepare("INSERT INTO place_name_fts(rowid, name, cell, kind) VALUES (?,?,?,?)")
            // Rows are numbered by importance (descending; ties by kind, then key), so `ORDER BY
            // rowid` over FTS matches yields the most important first. Only that order is held for
            // the ordinary places: each one's row (its folded texts) is made as it is inserted.
            struct Row {
                let key: String, kind: DatasetSchema.PlaceKind, scheme: Int, name: String, hsNum: String, street: String
                let categories: String, lat: Double, lng: Double, importance: Double
                let codes: (Int, Int, Int, Int, Int)  // new_ward, new_province, old_ward, old_district, old_province
                let ftsName: String, ftsAddress: String
                /// The full folded address (with "phường", "thành phố"…), for ranking.
                let addressKey: String
                var kindKey = ""
                var aliasKey = ""
            }
            var rows: [Row] = []  // the administrative units'

            // Administrative units: admin_unit rows and searchable places.
            let groups: [([Int: AdminUnitRecord], Double)] = [
                (admin.newProvinces, 1.0), (admin.newWards, 0.7),
                (admin.oldProvinces, 0.95), (admin.oldDistricts, 0.85), (admin.oldWards, 0.6),
            ]
            for (units, importance) in groups {
                for code in units.keys.sorted() {
                    let unit = units[code]!
                    try insertUnit.bind(.integer(Int64(unit.scheme.rawValue)), .integer(Int64(unit.level.rawValue)), .integer(Int64(code)),
                                        .text(unit.name), .text(unit.prefix), .text(unit.fullName), .text(TextFolding.fold(unit.name)),
                                        .integer(Int64(unit.level == .ward && unit.scheme == .old ? unit.districtCode : 0)),
                                        .integer(Int64(unit.provinceCode)), .real(unit.lat), .real(unit.lng))
                    try insertUnit.run()
                    var codes = (0, 0, 0, 0, 0)
                    var parents: [String] = []
                    var parentSearchNames: [String] = []
                    switch (unit.scheme, unit.level) {
                    case (.new, .province):
                        codes.1 = code
                        report.adminCounts.newProvinces += 1
                    case (.new, _):
                        codes = (code, unit.provinceCode, 0, 0, 0)
                        parents = [admin.newProvinces[unit.provinceCode]?.fullName ?? ""]
                        parentSearchNames = [Self.searchName(admin.newProvinces[unit.provinceCode])]
                        report.adminCounts.newWards += 1
                    case (.old, .province):
                        codes.4 = code
                        report.adminCounts.oldProvinces += 1
                    case (.old, .district):
                        codes = (0, 0, 0, code, unit.provinceCode)
                        parents = [admin.oldProvinces[unit.provinceCode]?.fullName ?? ""]
                        parentSearchNames = [Self.searchName(admin.oldProvinces[unit.provinceCode])]
                        report.adminCounts.oldDistricts += 1
                    case (.old, .ward):
                        codes = (0, 0, code, unit.districtCode, unit.provinceCode)
                        parents = [admin.oldDistricts[unit.districtCode]?.fullName ?? "", admin.oldProvinces[unit.provinceCode]?.fullName ?? ""]
                        parentSearchNames = [Self.searchName(admin.oldDistricts[unit.districtCode]), Self.searchName(admin.oldProvinces[unit.provinceCode])]
                        report.adminCounts.oldWards += 1
                    }
                    rows.append(Row(key: "admin:\(unit.scheme.rawValue):\(unit.level.rawValue):\(code)", kind: .admin, scheme: unit.scheme.rawValue,
                                    name: unit.fullName, hsNum: "", street: "", categories: "", lat: unit.lat, lng: unit.lng,
                                    importance: importance, codes: codes,
                                    ftsName: Self.folded([unit.fullName, unit.nameEn]), ftsAddress: Self.folded(parentSearchNames),
                                    addressKey: Self.folded(parents), aliasKey: Self.aliasKey(name: unit.fullName, aliases: [unit.nameEn])))
                }
            }

            // The old↔new mapping (admin_link).
            let insertLink = try db.prepare("INSERT OR IGNORE INTO admin_link(level, old_code, new_code, rank, full) VALUES (?,?,?,?,?)")
            for link in admin.links() {
                try insertLink.bind(.integer(Int64(link.level.rawValue)), .integer(Int64(link.old)), .integer(Int64(link.new)),
                                    .integer(Int64(link.rank)), .integer(link.full ? 1 : 0))
                try insertLink.run()
            }

            // Ordinary places, by index: the units' rows first, then pois, streets and addresses.
            let placeGroups = [places.pois, places.streets, places.addresses]
            func place(_ index: Int) -> ImportedPlace {
                var i = index - rows.count
                for group in placeGroups {
                    if i < group.count { return group[i] }
                    i -= group.count
                }
                preconditionFailure("place index out of range")
            }
            var unitKeys: [String: String] = [:]
            func unitKey(_ name: String?) -> String {
                guard let name, !name.isEmpty else { return "" }
                if let key = unitKeys[name] { return key }
                let key = TextFolding.fold(name)
                unitKeys[name] = key
                return key
            }
            func row(_ index: Int) -> Row {
                guard index >= rows.count else { return rows[index] }
                let place = place(index)
                var streetPart = ""
                if place.kind == .poi { streetPart = [place.hsNum, place.street].filter { !$0.isEmpty }.joined(separator: " ") }
                // Unit names repeat on every place of their unit: each is folded once (`unitKeys`).
                let street = streetPart.isEmpty ? "" : TextFolding.fold(streetPart)
                let newAddress = Self.joined(folded: [street, unitKey(admin.newWards[place.newWard]?.fullName),
                                                      unitKey(admin.newProvinces[place.newProvince]?.fullName)])
                let oldAddress = Self.joined(folded: [unitKey(admin.oldWards[place.oldWard]?.fullName),
                                                      unitKey(admin.oldDistricts[place.oldDistrict]?.fullName),
                                                      unitKey(admin.oldProvinces[place.oldProvince]?.fullName)])
                let searchAddress = Self.joined(folded: [street] + [
                    unitKey(Self.searchName(admin.newWards[place.newWard])), unitKey(Self.searchName(admin.newProvinces[place.newProvince])),
                    unitKey(Self.searchName(admin.oldWards[place.oldWard])), unitKey(Self.searchName(admin.oldDistricts[place.oldDistrict])),
                    unitKey(Self.searchName(admin.oldProvinces[place.oldProvince])),
                ])
                return Row(key: place.key, kind: place.kind, scheme: 0, name: place.name, hsNum: place.hsNum, street: place.street,
                           categories: place.categories, lat: place.lat, lng: place.lng, importance: place.importance,
                           codes: (place.newWard, place.newProvince, place.oldWard, place.oldDistrict, place.oldProvince),
                           ftsName: Self.folded([place.name] + place.aliases), ftsAddress: searchAddress,
                           addressKey: [newAddress, oldAddress].filter { !$0.isEmpty }.joined(separator: " "), kindKey: place.kindWords, aliasKey: Self.aliasKey(name: place.name, aliases: place.aliases))
            }
            // The sort keys in flat arrays (a place record is not copied per comparison).
            var importance = rows.map(\.importance), kind = rows.map(\.kind.rawValue), key = rows.map(\.key)
            for group in placeGroups {
                importance += group.lazy.map(\.importance)
                kind += group.lazy.map(\.kind.rawValue)
                key += group.lazy.map(\.key)
            }
            var order = Array(importance.indices)
            order.sort { a, b in
                if importance[a] != importance[b] { return importance[a] > importance[b] }
                if kind[a] != kind[b] { return kind[a] < kind[b] }
                return key[a] < key[b]
            }
            (importance, kind, key) = ([], [], [])
            for (position, index) in order.enumerated() {
                let id = Int64(position + 1)
                let row = row(index)
                let c = row.codes
                try insertPlace.bind(.integer(id), .text(row.key), .integer(Int64(row.kind.rawValue)), .integer(Int64(row.scheme)),
                                     .text(row.name), .text(row.hsNum), .text(row.street), .text(row.categories), .real(row.lat), .real(row.lng),
                                     .real(row.importance), .integer(Int64(c.0)), .integer(Int64(c.1)),
                                     .integer(Int64(c.2)), .integer(Int64(c.3)), .integer(Int64(c.4)),
                                     .text(TextFolding.fold(row.name)), .text(row.addressKey), .text(row.kindKey), .text(row.aliasKey))
                try insertPlace.run()
                try insertFTS.bind(.integer(id), .text(row.ftsName), .text(row.ftsAddress))
                try insertFTS.run()
                try insertNameFTS.bind(.integer(id), .text(row.ftsName), .text(DatasetSchema.cellToken(latitude: row.lat, longitude: row.lng)), .text(row.kindKey))
                try insertNameFTS.run()
                report.placeCounts[row.kind, default: 0] += 1
            }
            let placeCount = order.count

            // Meta.
            let insertMeta = try db.prepare("INSERT INTO meta(key, value) VALUES (?,?)")
            func meta(_ key: String, _ value: String) throws { try insertMeta.bind(.text(key), .text(value)); try insertMeta.run() }
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            try meta(DatasetSchema.MetaKey.schemaVersion, "\(DatasetSchema.schemaVersion)")
            try meta(DatasetSchema.MetaKey.builderVersion, "\(DatasetSchema.builderVersion)")
            try meta(DatasetSchema.MetaKey.sourceFingerprint, fingerprint)
            try meta(DatasetSchema.MetaKey.builtAt, formatter.string(from: Date()))
            try meta(DatasetSchema.MetaKey.sources, inputs.map(\.lastPathComponent).joined(separator: ","))
            try meta(DatasetSchema.MetaKey.attribution, DatasetSchema.attribution)
            try meta(DatasetSchema.MetaKey.placeCount, "\(placeCount)")
            for kind in DatasetSchema.PlaceKind.allCases { try meta(DatasetSchema.MetaKey.count(kind), "\(report.placeCounts[kind] ?? 0)") }
            let a = report.adminCounts
            for (scheme, level, count) in [(DatasetSchema.Scheme.new, DatasetSchema.Level.province, a.newProvinces), (.new, .ward, a.newWards),
                                           (.old, .province, a.oldProvinces), (.old, .district, a.oldDistricts), (.old, .ward, a.oldWards)] {
                try meta(DatasetSchema.MetaKey.adminCount(scheme: scheme, level: level), "\(count)")
            }
            try meta(DatasetSchema.MetaKey.oldCodesFromData, "\(report.oldCodesFromData)")
            try meta(DatasetSchema.MetaKey.oldCodesDerived, "\(report.oldCodesDerived)")
            try meta(DatasetSchema.MetaKey.kindWords, Set(CategoryWords.table.values.flatMap { $0.split(separator: " ") }).sorted().joined(separator: " "))
            try meta(DatasetSchema.MetaKey.kindPhrases, CategoryWords.phrases.joined(separator: "|"))
            var streetRows: [String: Int] = [:]
            for street in places.streets { streetRows[TextFolding.fold(street.name), default: 0] += 1 }
            try meta(DatasetSchema.MetaKey.streetInitials, StreetInitials(deriving: streetRows).stored)
        }
        places = PlaceSources()
        MemoryWatch.returnFreedMemory()
        // Merge the FTS b-trees into one: smaller file, faster queries.
        try db.execute("INSERT INTO place_fts(place_fts) VALUES('optimize')")
        try db.execute("INSERT INTO place_name_fts(place_name_fts) VALUES('optimize')")
        // The in-memory search index, from the place rows and the words exactly as FTS5 tokenized them.
        let index = try SearchIndex.build(from: db).serialized()
        // Statistics for the planner: without them a join of place_fts with place filtered on
        // kind probes the FTS index once per place row (seconds instead of milliseconds).
        try db.execute("ANALYZE")
        return index
    }
}

/// The sections of a dataset being written (``FileSections/Appender``), each appended as it is
/// made; a write error names the dataset once.
final class DatasetSections {
    private let appender: FileSections.Appender
    private let file: String

    init(path: String, output: URL) throws {
        file = output.lastPathComponent
        do { appender = try FileSections.Appender(path: path) } catch { throw DatasetError(.output, file: file, "\(error)") }
    }

    func append(name: String, _ bytes: [UInt8]) throws {
        do { try appender.append(name: name, bytes) } catch { throw DatasetError(.output, file: file, "\(error)") }
    }

    /// Writes the directory and footer: the last write.
    func finish() throws {
        do { try appender.finish() } catch { throw DatasetError(.output, file: file, "\(error)") }
    }
}
