import Foundation
import TextFolding

/// One administrative unit as stored in `admin_unit`.
struct AdminUnitRecord {
    let scheme: DatasetSchema.Scheme
    let level: DatasetSchema.Level
    let code: Int
    let name: String
    let prefix: String
    let fullName: String
    let nameEn: String
    var districtCode: Int
    var provinceCode: Int
    var lat: Double = 0
    var lng: Double = 0

    /// Splits "Thành phố Hồ Chí Minh" / "Hồ Chí Minh" into prefix "Thành Phố" (each word
    /// capitalised like the live API) and the short name.
    init(scheme: DatasetSchema.Scheme, level: DatasetSchema.Level, code: Int, name rawName: String,
         fullName rawFullName: String, nameEn: String?, districtCode: Int, provinceCode: Int) {
        let name = TextFolding.clean(rawName)
        let fullName = TextFolding.clean(rawFullName)
        var prefix = ""
        if fullName.hasSuffix(name), fullName.count > name.count {
            prefix = String(fullName.dropLast(name.count)).trimmingCharacters(in: .whitespaces)
        }
        prefix = AdminUnitRecord.capitaliseWords(prefix)
        self.scheme = scheme
        self.level = level
        self.code = code
        self.name = name
        self.prefix = prefix
        self.fullName = prefix.isEmpty ? name : prefix + " " + name
        self.nameEn = TextFolding.clean(nameEn ?? "")
        self.districtCode = districtCode
        self.provinceCode = provinceCode
    }

    /// The record of `unit` (`code` already read from it).
    init(_ unit: some UnitNames, scheme: DatasetSchema.Scheme, level: DatasetSchema.Level, code: Int, districtCode: Int = 0, provinceCode: Int) {
        self.init(scheme: scheme, level: level, code: code, name: unit.name, fullName: unit.fullName, nameEn: unit.nameEn,
                  districtCode: districtCode, provinceCode: provinceCode)
    }

    static func capitaliseWords(_ text: String) -> String {
        text.split(separator: " ").map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined(separator: " ")
    }
}

/// Centroid and bounding box of a 2025 unit.
struct UnitCentroid {
    let lat: Double, lng: Double
    let minLat: Double, minLng: Double, maxLat: Double, maxLng: Double
    let provinceCode: Int

    func contains(lat: Double, lng: Double) -> Bool {
        lat >= minLat && lat <= maxLat && lng >= minLng && lng <= maxLng
    }
}

/// Every administrative unit of both schemes, the old↔new mapping and the 2025 centroids,
/// loaded from whichever admin inputs were given.
final class AdminRegistry {
    var newProvinces: [Int: AdminUnitRecord] = [:]
    var newWards: [Int: AdminUnitRecord] = [:]
    var oldProvinces: [Int: AdminUnitRecord] = [:]
    var oldDistricts: [Int: AdminUnitRecord] = [:]
    var oldWards: [Int: AdminUnitRecord] = [:]
    /// Old district → its wards, in file order.
    var oldDistrictWards: [Int: [Int]] = [:]
    var provinceCentroids: [Int: UnitCentroid] = [:]
    var wardCentroids: [Int: UnitCentroid] = [:] { didSet { wardGrid = nil } }
    /// Ward codes by cell of ``wardGridDegrees``: the wards whose bbox overlaps the cell, so a place
    /// tests a few wards instead of all 3,321 (a country's millions of places); built on first use.
    private var wardGrid: [Int64: [Int]]?
    static let wardGridDegrees = 0.1
    /// New ward → old wards (file order), `full` links flagged.
    var newToOld: [Int: [(code: Int, full: Bool)]] = [:]
    /// Old ward → new wards (file order).
    var oldToNew: [Int: [Int]] = [:]
    /// Old province → the new province it became.
    var oldProvinceToNew: [Int: Int] = [:]

    /// Names of the new wards the mapping files mention, to reconcile codes that differ
    /// between sources (the mapping says 06970 "Xã Ba Chẽ", units_2025 says 06978).
    private var mappingWardNames: [Int: (name: String, newProvince: Int?, oldProvince: Int?)] = [:]

    var hasUnits2025 = false, hasUnitsPre2025 = false, hasCentroids = false
    var hasNewToOld = false, hasOldToNew = false

    private static func code(_ text: String, _ url: URL, _ what: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw DatasetError.malformed(url, nil, "\(what) code is not numeric: '\(text.prefix(40))'")
        }
        return value
    }

    /// Checks `unit`'s code and files its record in `table`; returns the code. A province is its
    /// own province (`provinceCode` nil), a district its own district.
    private static func file(_ unit: some UnitNames, _ level: DatasetSchema.Level, scheme: DatasetSchema.Scheme,
                             in table: inout [Int: AdminUnitRecord], url: URL, districtCode: Int = 0, provinceCode: Int? = nil) throws -> Int {
        let what = switch level { case .province: "province"; case .district: "district"; case .ward: "ward" }
        let code = try Self.code(unit.code, url, what)
        table[code] = AdminUnitRecord(unit, scheme: scheme, level: level, code: code,
                                      districtCode: level == .district ? code : districtCode, provinceCode: provinceCode ?? code)
        return code
    }

    func loadUnits2025(_ url: URL) throws {
        let provinces = try JSONInput.decode([Units2025File.Province].self, from: url)
        hasUnits2025 = true
        for province in provinces {
            let provinceCode = try Self.file(province, .province, scheme: .new, in: &newProvinces, url: url)
            for ward in province.children ?? [] {
                _ = try Self.file(ward, .ward, scheme: .new, in: &newWards, url: url, provinceCode: provinceCode)
            }
        }
    }

    func loadUnitsPre2025(_ url: URL) throws {
        let provinces = try JSONInput.decode([UnitsPre2025File.Province].self, from: url)
        hasUnitsPre2025 = true
        for province in provinces {
            let provinceCode = try Self.file(province, .province, scheme: .old, in: &oldProvinces, url: url)
            for district in province.children ?? [] {
                let districtCode = try Self.file(district, .district, scheme: .old, in: &oldDistricts, url: url, provinceCode: provinceCode)
                let wardCodes = try (district.children ?? []).map {
                    try Self.file($0, .ward, scheme: .old, in: &oldWards, url: url, districtCode: districtCode, provinceCode: provinceCode)
                }
                oldDistrictWards[districtCode, default: []].append(contentsOf: wardCodes)
            }
        }
    }

    func loadNewToOld(_ url: URL) throws {
        let file = try JSONInput.decode(MappingNewToOldFile.self, from: url)
        hasNewToOld = true
        for province in file.data {
            let newProvince = try Self.code(province.id, url, "province")
            for ward in province.wards ?? [] {
                let newCode = try Self.code(ward.id, url, "ward")
                if let name = ward.name, mappingWardNames[newCode] == nil { mappingWardNames[newCode] = (name, newProvince, nil) }
                var links: [(code: Int, full: Bool)] = []
                for link in ward.merges ?? [] {
                    links.append((try Self.code(link.oldID, url, "ward"), link.type == "full"))
                }
                newToOld[newCode, default: []].append(contentsOf: links)
            }
        }
    }

    func loadOldToNew(_ url: URL) throws {
        let file = try JSONInput.decode(MappingOldToNewFile.self, from: url)
        hasOldToNew = true
        for province in file.data {
            let oldProvince = try Self.code(province.id, url, "province")
            if let first = province.splits?.first, oldProvinceToNew[oldProvince] == nil {
                oldProvinceToNew[oldProvince] = try Self.code(first.newID, url, "province")
            }
            for ward in province.wards ?? [] {
                let oldCode = try Self.code(ward.id, url, "ward")
                for split in ward.splits ?? [] {
                    let newCode = try Self.code(split.newID, url, "ward")
                    oldToNew[oldCode, default: []].append(newCode)
                    if let name = split.name, mappingWardNames[newCode] == nil { mappingWardNames[newCode] = (name, nil, oldProvince) }
                }
            }
        }
    }

    func loadCentroids(_ url: URL) throws {
        let table = try CSVTable(url: url, required: Set(InputKind.csvColumns.first { $0.0 == .centroidCSV }!.1).union(["province_code"]))
        hasCentroids = true
        while let row = try table.next() {
            let code = try row.code("code")
            let centroid = UnitCentroid(
                lat: try row.double("centroid_lat", in: -90...90), lng: try row.double("centroid_lng", in: -180...180),
                minLat: try row.double("bbox_min_lat", in: -90...90), minLng: try row.double("bbox_min_lng", in: -180...180),
                maxLat: try row.double("bbox_max_lat", in: -90...90), maxLng: try row.double("bbox_max_lng", in: -180...180),
                provinceCode: try row.optionalCode("province_code") ?? 0)
            switch row["level"].trimmingCharacters(in: .whitespaces).lowercased() {
            case "province": provinceCentroids[code] = centroid
            case "ward": wardCentroids[code] = centroid
            default: throw row.error("level must be 'province' or 'ward', found '\(row["level"].prefix(40))'")
            }
        }
    }

    /// Rewrites mapping links whose new ward code is unknown to units_2025 to the unit with the
    /// same name in the same province, when exactly one exists. Returns a note if any changed.
    func reconcileMappingCodes() -> [String] {
        guard hasUnits2025 else { return [] }
        var byProvinceAndName: [String: [Int]] = [:]
        for (code, unit) in newWards { byProvinceAndName["\(unit.provinceCode):\(TextFolding.fold(unit.fullName))", default: []].append(code) }
        var alias: [Int: Int] = [:]
        var unknown: [Int] = []
        for (code, entry) in mappingWardNames where newWards[code] == nil {
            let province = entry.newProvince ?? entry.oldProvince.flatMap { oldProvinceToNew[$0] }
            if let province, let matches = byProvinceAndName["\(province):\(TextFolding.fold(entry.name))"], matches.count == 1 {
                alias[code] = matches[0]
            } else {
                unknown.append(code)
            }
        }
        var notes: [String] = []
        if !alias.isEmpty {
            for (from, to) in alias {
                if let links = newToOld.removeValue(forKey: from) { newToOld[to, default: []].append(contentsOf: links) }
            }
            for (old, targets) in oldToNew { oldToNew[old] = targets.map { alias[$0] ?? $0 } }
            let list = alias.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: ", ")
            notes.append("mapping ward codes unknown to the 2025 units reconciled by name: \(list)")
        }
        if !unknown.isEmpty {
            notes.append("\(unknown.count) mapping ward codes are unknown to the 2025 units: \(unknown.sorted().prefix(10).map(String.init).joined(separator: ", "))")
        }
        return notes
    }

    /// Gives every unit coordinates (see the schema comment on `admin_unit.lat`).
    /// Returns notes about units that had to fall back.
    func assignCoordinates() -> [String] {
        var notes: [String] = []
        var missing = 0
        for (code, var unit) in newProvinces {
            if let c = provinceCentroids[code] { unit.lat = c.lat; unit.lng = c.lng } else { missing += 1 }
            newProvinces[code] = unit
        }
        for (code, var unit) in newWards {
            if let c = wardCentroids[code] { unit.lat = c.lat; unit.lng = c.lng }
            else if let p = newProvinces[unit.provinceCode] { unit.lat = p.lat; unit.lng = p.lng; missing += 1 }
            else { missing += 1 }
            newWards[code] = unit
        }
        if missing > 0 { notes.append("\(missing) new units have no centroid (province centroid or 0,0 used)") }

        // Old wards: the centroid of the first new ward they map to.
        var unmapped = 0
        for (code, var unit) in oldWards {
            if let target = oldToNew[code]?.lazy.compactMap({ self.newWards[$0] }).first {
                unit.lat = target.lat; unit.lng = target.lng
            } else { unmapped += 1 }
            oldWards[code] = unit
        }
        // Old provinces: the new province they became.
        for (code, var unit) in oldProvinces {
            if let newCode = oldProvinceToNew[code], let target = newProvinces[newCode] {
                unit.lat = target.lat; unit.lng = target.lng
            } else if let firstWard = oldWards.keys.sorted().lazy.compactMap({ self.oldWards[$0] })
                        .first(where: { $0.provinceCode == code && ($0.lat != 0 || $0.lng != 0) }) {
                // Deterministic fallback: the province's lowest-coded ward that has coordinates.
                unit.lat = firstWard.lat; unit.lng = firstWard.lng
            }
            oldProvinces[code] = unit
        }
        // Old districts: mean of their wards; ward-less island districts: the new unit of the same
        // name in the province they became part of (e.g. Huyện Côn Đảo → Đặc Khu Côn Đảo), else the province.
        var newWardByProvinceAndName: [String: AdminUnitRecord] = [:]
        for unit in newWards.values { newWardByProvinceAndName["\(unit.provinceCode):\(TextFolding.fold(unit.name))"] = unit }
        for (code, var unit) in oldDistricts {
            let wards = (oldDistrictWards[code] ?? []).compactMap { oldWards[$0] }.filter { $0.lat != 0 || $0.lng != 0 }
            if !wards.isEmpty {
                unit.lat = (wards.map(\.lat).reduce(0, +) / Double(wards.count)).rounded(toPlaces: 6)
                unit.lng = (wards.map(\.lng).reduce(0, +) / Double(wards.count)).rounded(toPlaces: 6)
            } else if let newProvince = oldProvinceToNew[unit.provinceCode],
                      let same = newWardByProvinceAndName["\(newProvince):\(TextFolding.fold(unit.name))"] {
                unit.lat = same.lat; unit.lng = same.lng
            } else if let province = oldProvinces[unit.provinceCode] {
                unit.lat = province.lat; unit.lng = province.lng
            }
            oldDistricts[code] = unit
        }
        if unmapped > 0 { notes.append("\(unmapped) old wards have no old→new mapping (coordinates 0,0)") }
        return notes
    }

    /// The rows of `admin_link`: every old ward → new ward link of both mapping files (ranked in
    /// old→new file order, links only the new→old file has after them from 1000) and every old
    /// province → new province, sorted; links to units neither scheme knows are left out.
    func links() -> [(level: DatasetSchema.Level, old: Int, new: Int, rank: Int, full: Bool)] {
        var out: [(level: DatasetSchema.Level, old: Int, new: Int, rank: Int, full: Bool)] = []
        var full = Set<[Int]>()
        var fromNewFile: [Int: [Int]] = [:]
        for newCode in newToOld.keys.sorted() {
            for link in newToOld[newCode]! {
                if link.full { full.insert([link.code, newCode]) }
                fromNewFile[link.code, default: []].append(newCode)
            }
        }
        for oldCode in Set(oldToNew.keys).union(fromNewFile.keys).sorted() where oldWards[oldCode] != nil {
            var targets: [Int] = []
            for target in (oldToNew[oldCode] ?? []) + (fromNewFile[oldCode] ?? []) where newWards[target] != nil && !targets.contains(target) {
                targets.append(target)
            }
            let listed = Set(oldToNew[oldCode] ?? [])
            var extra = 1000
            for (rank, target) in targets.enumerated() {
                let r = listed.contains(target) ? rank : extra
                if !listed.contains(target) { extra += 1 }
                out.append((.ward, oldCode, target, r, full.contains([oldCode, target])))
            }
        }
        for oldCode in oldProvinceToNew.keys.sorted() where oldProvinces[oldCode] != nil {
            if let target = oldProvinceToNew[oldCode], newProvinces[target] != nil { out.append((.province, oldCode, target, 0, false)) }
        }
        return out
    }

    /// The 2025 ward containing a point: among wards whose bbox contains it, the one with the
    /// nearest centroid.
    func newWard(containing lat: Double, _ lng: Double) -> (ward: Int, province: Int)? {
        var best: (Int, Int, Double)?
        let scale = cos(lat * .pi / 180)
        let grid = wardGrid ?? buildWardGrid()
        let cell = abs(lat) < 1e5 && abs(lng) < 1e5 ? Self.wardCell(lat, lng) : Self.wideWardsCell
        for code in [grid[cell], cell == Self.wideWardsCell ? nil : grid[Self.wideWardsCell]].compactMap({ $0 }).joined() {
            guard let c = wardCentroids[code], c.contains(lat: lat, lng: lng) else { continue }
            let dx = (c.lng - lng) * scale, dy = c.lat - lat
            let d = dx * dx + dy * dy
            if best == nil || d < best!.2 || (d == best!.2 && code < best!.0) {
                best = (code, newWards[code]?.provinceCode ?? c.provinceCode, d)
            }
        }
        return best.map { ($0.0, $0.1) }
    }

    private static func wardCell(_ lat: Double, _ lng: Double) -> Int64 {
        cell(Int64((lat / wardGridDegrees).rounded(.down)), Int64((lng / wardGridDegrees).rounded(.down)))
    }

    private static func cell(_ row: Int64, _ column: Int64) -> Int64 { row << 32 ^ (column & 0xFFFF_FFFF) }

    /// Cells hold the wards whose bbox overlaps them; a bbox over ~10,000 cells (or not finite: a
    /// broken row) is listed under ``wideWardsCell``, which every look-up reads too.
    private func buildWardGrid() -> [Int64: [Int]] {
        var grid: [Int64: [Int]] = [:]
        for (code, c) in wardCentroids.sorted(by: { $0.key < $1.key }) where c.minLat <= c.maxLat && c.minLng <= c.maxLng {
            let bounds = [c.minLat, c.maxLat, c.minLng, c.maxLng].map { ($0 / Self.wardGridDegrees).rounded(.down) }
            guard bounds.allSatisfy({ abs($0) < 1e6 }), (bounds[1] - bounds[0] + 1) * (bounds[3] - bounds[2] + 1) <= 10_000 else {
                grid[Self.wideWardsCell, default: []].append(code)
                continue
            }
            for row in Int64(bounds[0])...Int64(bounds[1]) {
                for column in Int64(bounds[2])...Int64(bounds[3]) { grid[Self.cell(row, column), default: []].append(code) }
            }
        }
        wardGrid = grid
        return grid
    }

    /// A key no cell of a real coordinate has.
    private static let wideWardsCell = Int64.min
}
