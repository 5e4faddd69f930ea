import Dataset
import DefaultData
import Foundation
import SQLiteStore
import TestExpectations
import Testing

/// Content of the default dataset (all embedded inputs).
@Suite final class DefaultDatasetTests {
    @Test func testDefaultDataListsEveryEmbeddedInput() {
        let names = DefaultData.inputFiles.map(\.lastPathComponent)
        expectEqual(names.count, 13, "\(names)")
        expectTrue(names.contains("hcmc_pois_osm2018.csv"))
        expectTrue(names.contains("hcmc_q1_q3_2018.osm"))
        expectFalse(names.contains("hcmc_2018.osm.pbf"), "the whole-city PBF is for imports and benchmarks")
        expectTrue(FileManager.default.fileExists(atPath: DefaultData.hcmcPBF.path))
        expectFalse(names.contains("SOURCES.md"))
        expectTrue(DefaultData.noticeFiles.map(\.lastPathComponent).contains("SOURCES.md"))
    }

    @Test func testAdminUnitCountsAreExact() throws {
        let db = try SharedDataset.open()
        let expected: [(Int, Int, Int)] = [(1, 0, 34), (1, 2, 3321), (2, 0, 63), (2, 1, 696), (2, 2, 10035)]
        for (scheme, level, count) in expected {
            expectEqual(try db.scalarInt("SELECT COUNT(*) FROM admin_unit WHERE scheme = ? AND level = ?", .integer(Int64(scheme)), .integer(Int64(level))),
                           count, "admin_unit scheme \(scheme) level \(level)")
            expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 0 AND scheme = ? AND key LIKE ?", .integer(Int64(scheme)), .text("admin:\(scheme):\(level):%")),
                           count, "admin places scheme \(scheme) level \(level)")
        }
        let report = try SharedDataset.get().report
        expectEqual(report.adminCounts, .init(newProvinces: 34, newWards: 3321, oldProvinces: 63, oldDistricts: 696, oldWards: 10035))
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM admin_unit WHERE lat = 0 AND lng = 0"), 0, "every unit has coordinates")
    }

    @Test func testAdminUnitsFollowTheLiveNaming() throws {
        let db = try SharedDataset.open()
        let hcmc = try db.rows("SELECT name, prefix, full_name FROM admin_unit WHERE scheme = 1 AND level = 0 AND code = 79", columns: 3)
        expectEqual(hcmc.first, ["Hồ Chí Minh", "Thành Phố", "Thành Phố Hồ Chí Minh"])
        let ward = try db.rows("SELECT name, prefix, full_name, district_code, province_code FROM admin_unit WHERE scheme = 2 AND level = 2 AND code = 26743", columns: 5)
        expectEqual(ward.first, ["Bến Thành", "Phường", "Phường Bến Thành", "760", "79"])
        let prefixes = Set(try db.rows("SELECT DISTINCT prefix FROM admin_unit", columns: 1).map { $0[0] })
        expectEqual(prefixes, ["Phường", "Xã", "Đặc Khu", "Thị Trấn", "Quận", "Huyện", "Thị Xã", "Thành Phố", "Tỉnh"])
        // A ward-less island district sits on its 2025 special zone, not on the province centroid.
        let conDao = try db.rows("SELECT a.lat, b.lat FROM admin_unit a, admin_unit b WHERE a.scheme = 2 AND a.level = 1 AND a.code = 755 AND b.scheme = 1 AND b.level = 2 AND b.name = 'Côn Đảo'", columns: 2)
        expectEqual(conDao.first?[0], conDao.first?[1])
        let place = try db.rows("SELECT name, old_ward, old_district, old_province, importance FROM place WHERE key = 'admin:2:2:26743'", columns: 5)
        expectEqual(place.first, ["Phường Bến Thành", "26743", "760", "79", "0.6"])
    }

    @Test func testCoverageOfPlaceInputs() throws {
        let db = try SharedDataset.open()
        let report = try SharedDataset.get().report
        // Every CSV row is a place (streets: one place per folded name and ward).
        expectEqual(report.placeCounts[.poi], try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 1"))
        // … except what the import cleaning drops (docs/search.md: advertising, stacks, empty names).
        expectGreaterThan(report.droppedByCleaning, 30)
        expectGreaterThanOrEqual(report.placeCounts[.poi] ?? 0, 8727 + 1665 - report.droppedByCleaning)
        expectEqual(report.placeCounts[.address], 3667 + 1327)
        expectGreaterThan(report.placeCounts[.street] ?? 0, 10_000)
    }
}

/// Places: both address formats, landmarks, derived codes, folding, cleaning.
@Suite final class DefaultDatasetPlaceTests {
    private func place(_ db: Database, key: String) throws -> [String: String]? {
        let columns = ["id", "kind", "scheme", "name", "hs_num", "street", "categories", "lat", "lng", "importance",
                       "new_ward", "new_province", "old_ward", "old_district", "old_province"]
        let rows = try db.rows("SELECT \(columns.joined(separator: ", ")) FROM place WHERE key = ?", columns: columns.count, .text(key))
        guard let row = rows.first else { return nil }
        return Dictionary(uniqueKeysWithValues: zip(columns, row))
    }

    @Test func testLandmarksHaveOldAndNewCodes() throws {
        let db = try SharedDataset.open()
        let market = try unwrap(place(db, key: "poi:way/39514795"))
        expectEqual(market["name"], "Chợ Bến Thành")
        expectEqual(market["kind"], "1")
        expectEqual(market["scheme"], "0")
        expectEqual(market["categories"], "8001")
        expectEqual([market["new_ward"], market["new_province"]], ["26743", "79"])
        expectEqual([market["old_ward"], market["old_district"], market["old_province"]], ["26743", "760", "79"])

        let cathedral = try unwrap(place(db, key: "poi:way/469809885"))
        expectEqual(cathedral["name"], "Nhà thờ Đức Bà")
        expectEqual(cathedral["categories"], "6001")
        expectEqual([cathedral["new_ward"], cathedral["new_province"]], ["26740", "79"])
        expectEqual([cathedral["old_ward"], cathedral["old_district"], cathedral["old_province"]], ["26740", "760", "79"])
        expectGreaterThan(Double(cathedral["importance"]!)!, 0.75, "place of worship + English name")
    }

    @Test func testEveryOrdinaryPlaceKnowsBothAddresses() throws {
        let db = try SharedDataset.open()
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind > 0 AND (new_ward = 0 OR new_province = 0 OR old_ward = 0 OR old_district = 0 OR old_province = 0)"), 0)
        // The codes are real units and consistent with each other.
        expectEqual(try db.scalarInt("""
            SELECT COUNT(*) FROM place p LEFT JOIN admin_unit w ON w.scheme = 1 AND w.level = 2 AND w.code = p.new_ward
            WHERE p.kind > 0 AND (w.code IS NULL OR w.province_code != p.new_province)
            """), 0)
        expectEqual(try db.scalarInt("""
            SELECT COUNT(*) FROM place p LEFT JOIN admin_unit w ON w.scheme = 2 AND w.level = 2 AND w.code = p.old_ward
            WHERE p.kind > 0 AND (w.code IS NULL OR w.district_code != p.old_district OR w.province_code != p.old_province)
            """), 0)
        let report = try SharedDataset.get().report
        // 6,306 HCMC rows carry an old ward code; the import cleaning drops 12 of them, whose names
        // have no Latin letter at all and no Latin other name (海鮮 as a fuel station, …; docs/search.md).
        expectEqual(report.oldCodesFromData, 6306 - 12, "HCMC rows with an old ward code")
        expectEqual(report.oldCodesFromData + report.oldCodesDerived, report.totalPlaces - (report.placeCounts[.admin] ?? 0))
        expectEqual(report.oldCodeSources[.unresolved] ?? 0, 0)
    }

    @Test func testDerivedOldCodesFollowTheMapping() throws {
        let db = try SharedDataset.open()
        let links = try MappingFixture.newToOld()
        // Streets and address points never carry old codes: every one is derived from the mapping.
        let rows = try db.rows("SELECT new_ward, old_ward FROM place WHERE kind IN (2, 3)", columns: 2)
        expectGreaterThan(rows.count, 15_000)
        for row in rows {
            let newWard = Int(row[0])!, oldWard = Int(row[1])!
            expectTrue(links[newWard]?.contains(oldWard) == true, "old ward \(oldWard) is not linked to new ward \(newWard)")
        }
        // Biên Hòa station: no old codes in the CSV (Đồng Nai), derived within its new ward.
        let station = try unwrap(place(db, key: "poi:node/305327877"))
        expectTrue(links[Int(station["new_ward"]!)!]!.contains(Int(station["old_ward"]!)!))
        expectEqual(station["old_province"], "75")
        // Hoàn Kiếm rows carry only the old district (002): the derived ward lies in it.
        let hanoi = try unwrap(place(db, key: "poi:node/104770283"))
        expectEqual([hanoi["new_ward"], hanoi["old_district"], hanoi["old_province"]], ["70", "2", "1"])
        expectTrue(links[70]!.contains(Int(hanoi["old_ward"]!)!))
    }

    @Test func testFoldedFullTextSearch() throws {
        let db = try SharedDataset.open()
        let cathedral = try unwrap(place(db, key: "poi:way/469809885"))["id"]
        let query = "SELECT rowid FROM place_fts WHERE place_fts MATCH ?"
        for text in ["name:nha tho duc ba", "name:\"nha tho duc ba\"", "name:notre dame", "nha tho duc* AND address:\"ben nghe\"",
                     "name:\"nha tho duc ba\" AND address:\"quan 1\" AND address:\"sai gon\""] {
            expectTrue(try db.rows(query, columns: 1, .text(text)).map { $0[0] }.contains(cathedral!), text)
        }
        // The address column indexes short admin names: "phường"/"thành phố" are in almost every
        // address and would make each multi-word query scan the whole index.
        expectFalse(try db.rows(query, columns: 1, .text("address:\"phuong sai gon\"")).map { $0[0] }.contains(cathedral!))
        // Admin units are searchable by folded full name, both schemes.
        let wards = try db.rows("SELECT p.key FROM place_fts f JOIN place p ON p.id = f.rowid WHERE place_fts MATCH 'name:\"phuong ben thanh\"' AND p.kind = 0", columns: 1)
        expectEqual(Set(wards.map { $0[0] }), ["admin:1:2:26743", "admin:2:2:26743"])
        // Đ folds to d on the indexed side.
        expectFalse(try db.rows(query, columns: 1, .text("name:\"dong khoi\"")).isEmpty)
    }

    @Test func testEthAndCombiningMarksAreCleaned() throws {
        let db = try SharedDataset.open()
        for column in ["name", "street", "hs_num"] {
            expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE instr(\(column), ?) > 0", .text("\u{00D0}")), 0, column)
        }
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM admin_unit WHERE instr(name, ?) > 0", .text("\u{00D0}")), 0)
        // A row spelled with ETH in the CSV: "330 Trần Hưng Ðạo".
        let kfc = try unwrap(place(db, key: "poi:node/729602724"))
        expectEqual(kfc["street"], "Trần Hưng Đạo")
        expectEqual(kfc["street"], kfc["street"]!.precomposedStringWithCanonicalMapping)
        // Every stored name is NFC.
        for row in try db.rows("SELECT name FROM place", columns: 1) where row[0] != row[0].precomposedStringWithCanonicalMapping {
            fail("not NFC: \(row[0])")
        }
    }

    @Test func testPlaceValuesAreWithinTheirRanges() throws {
        let db = try SharedDataset.open()
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE importance < 0 OR importance > 1"), 0)
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 1 AND categories = ''"), 0)
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind != 1 AND categories != ''"), 0)
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 0 AND importance = 1.0"), 34)
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 3 AND (hs_num = '' OR street = '' OR name != hs_num || ' ' || street)"), 0)
        // Streets: unique per (new ward, folded name); key shape as documented.
        // "Ðồng Khởi (ex Catinat)" (ETH in the CSV), old_name "Tự Do", tertiary.
        let street = try db.rows("SELECT key, name, street, importance, id FROM place WHERE kind = 2 AND new_ward = 26740 AND name LIKE 'Đồng Khởi%'", columns: 5)
        expectEqual(street.first?[0], "street:26740:dong khoi ex catinat")
        expectEqual(street.first?[2], "Đồng Khởi (ex Catinat)")
        expectEqual(street.first?[3], "0.5")
        let aliases = try db.rows("SELECT rowid FROM place_fts WHERE place_fts MATCH 'name:\"tu do\"'", columns: 1).map { $0[0] }
        expectTrue(aliases.contains(street.first?[4] ?? "-"), "old_name is searchable")
        // POIs from OSM XML that no CSV had.
        let xmlPOI = try unwrap(place(db, key: "poi:node/3124681590"))
        expectEqual(xmlPOI["name"], "Cục Hải Quan Thành Phố")
        expectEqual(xmlPOI["new_province"], "79")
        expectEqual(xmlPOI["categories"], "9103")
    }

    @Test func testIdsFollowImportanceAndThePlannerHasStatistics() throws {
        let db = try SharedDataset.open()
        expectEqual(try db.scalarInt("SELECT COUNT(*) FROM place a JOIN place b ON b.id = a.id + 1 WHERE b.importance > a.importance"), 0)
        expectEqual(try db.scalarInt("SELECT MIN(id) FROM place"), 1)
        expectEqual(try db.scalarInt("SELECT MAX(id) FROM place"), try db.scalarInt("SELECT COUNT(*) FROM place"))
        expectEqual(try db.rows("SELECT key FROM place WHERE id = 1", columns: 1).first, ["admin:1:0:1"])
        // ANALYZE ran: an FTS join filtered on kind starts from the FTS index.
        expectGreaterThan(try db.scalarInt("SELECT COUNT(*) FROM sqlite_stat1"), 0)
        let started = Date()
        _ = try db.rows("SELECT p.key FROM place_fts f JOIN place p ON p.id = f.rowid WHERE place_fts MATCH 'name:\"phuong\"' AND p.kind = 0 LIMIT 5", columns: 1)
        expectLessThan(Date().timeIntervalSince(started), 0.5)
    }

    @Test func testMetaRecordsVersionFingerprintAndCounts() throws {
        let built = try SharedDataset.get()
        let info = try DatasetInfo.validate(path: built.url.path)
        expectEqual(info.schemaVersion, DatasetSchema.schemaVersion)
        expectEqual(info.sourceFingerprint, built.report.fingerprint)
        expectEqual(info.sourceFingerprint, try DatasetFingerprint.compute(inputs: DefaultData.inputFiles))
        expectNotNil(info.builtAt)
        expectEqual(info.count(DatasetSchema.MetaKey.adminCount(scheme: .old, level: .district)), 696)
        expectEqual(info.count(DatasetSchema.MetaKey.count(.poi)), built.report.placeCounts[.poi])
        expectEqual(info.count(DatasetSchema.MetaKey.oldCodesFromData), 6306 - 12, "see testEveryOrdinaryPlaceKnowsBothAddresses")
    }
}

/// The new→old mapping read straight from the JSON, independently of the importer.
enum MappingFixture {
    static func newToOld() throws -> [Int: Set<Int>] {
        let url = DefaultData.inputFiles.first { $0.lastPathComponent == "mapping_2025_new_to_old.json" }!
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var result: [Int: Set<Int>] = [:]
        for province in json["data"] as! [[String: Any]] {
            for ward in province["level2s"] as! [[String: Any]] {
                let code = Int(ward["level2_id"] as! String)!
                for link in ward["merges"] as! [[String: Any]] { result[code, default: []].insert(Int(link["old_id"] as! String)!) }
            }
        }
        // The importer reconciles the mapping's code for Xã Ba Chẽ (06970) with units_2025 (06978).
        result[6978] = result[6970]
        return result
    }
}
