import Dataset
import DefaultData
import Foundation
import SQLiteStore
import TestExpectations
import Testing

/// Input detection and failures: one-line errors, nothing half-written, outputs untouched.
@Suite final class DatasetImportErrorTests {
    private func input(_ name: String) -> URL {
        (DefaultData.inputFiles + [DefaultData.hcmcPBF]).first { $0.lastPathComponent == name }
            ?? DefaultData.directory.appendingPathComponent("missing/\(name)")
    }

    private func assertFails(_ inputs: [URL], in directory: URL, output name: String = "out.sqlite",
                             _ expected: String, filePath: String = #filePath, line: Int = #line) {
        let output = directory.appendingPathComponent(name)
        expectThrowsError(try DatasetBuilder().build(inputs: inputs, output: output), filePath: filePath, line: line) { error in
            let text = "\(error)"
            expectEqual(text, expected, filePath: filePath, line: line)
            expectFalse(text.contains("\n"), "one line", filePath: filePath, line: line)
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        expectFalse(leftovers.contains { $0.hasPrefix(".") || $0.hasSuffix(".tmp") }, "temp files left: \(leftovers)", filePath: filePath, line: line)
    }

    /// The real POI header and the first rows of the HCMC POI CSV, with `edit` applied to the data lines.
    private func poiCSV(_ directory: URL, name: String = "bad_pois.csv", rows: Int = 3, edit: (inout [String]) -> Void) throws -> URL {
        let text = try String(contentsOf: input("hcmc_pois_osm2018.csv"), encoding: .utf8)
        // The seed CSVs use CRLF (one Character in Swift, so split on the string "\r\n").
        var lines = Array(text.components(separatedBy: "\r\n").prefix(rows + 1))
        var data = Array(lines.dropFirst())
        edit(&data)
        lines = [lines[0]] + data
        let url = directory.appendingPathComponent(name)
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func testMissingFile() throws {
        let directory = try SharedDataset.scratch("missing")
        let missing = directory.appendingPathComponent("nope.csv")
        assertFails([missing], in: directory, "\(missing.path): no such file")
    }

    @Test func testRowWithTooFewColumnsNamesFileAndRow() throws {
        let directory = try SharedDataset.scratch("columns")
        let bad = try poiCSV(directory) { rows in
            rows[1] = rows[1].split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",")
        }
        assertFails([bad], in: directory, "bad_pois.csv: row 2 (line 3): expected 25 columns, found 24")
    }

    @Test func testNonNumericLatitude() throws {
        let directory = try SharedDataset.scratch("lat")
        let bad = try poiCSV(directory) { rows in
            var fields = rows[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[6] = "10.7x"
            rows[2] = fields.joined(separator: ",")
        }
        assertFails([bad], in: directory, "bad_pois.csv: row 3 (line 4): lat is not a number: '10.7x'")
    }

    @Test func testFailureLeavesAnExistingOutputUntouched() throws {
        let directory = try SharedDataset.scratch("untouched")
        let output = directory.appendingPathComponent("existing.sqlite")
        try Data("precious".utf8).write(to: output)
        let bad = try poiCSV(directory) { rows in rows[0] = "node,1,x" }
        assertFails([input("units_2025.json"), bad], in: directory, output: "existing.sqlite",
                    "bad_pois.csv: row 1 (line 2): expected 25 columns, found 3")
        expectEqual(try Data(contentsOf: output), Data("precious".utf8))
    }

    @Test func testUnrecognisedInput() throws {
        let directory = try SharedDataset.scratch("unknown")
        let url = directory.appendingPathComponent("notes.csv")
        try "just,some,columns\n1,2,3\n".write(to: url, atomically: true, encoding: .utf8)
        assertFails([url], in: directory,
                    "notes.csv: unrecognised input: not a POI/street/address/centroid CSV, an admin-unit or mapping JSON, or OSM XML/PBF")
    }

    @Test func testBrokenJSONAndXML() throws {
        let directory = try SharedDataset.scratch("broken")
        let json = directory.appendingPathComponent("units.json")
        try "[{\"Code\": \"01\", \"Name\": \"Hà Nội\", \"FullName\": \"Thành phố Hà Nội\", \"Wards\": [{\"Code\": 4,".write(to: json, atomically: true, encoding: .utf8)
        expectThrowsError(try DatasetBuilder().build(inputs: [json], output: directory.appendingPathComponent("o.sqlite"))) { error in
            expectTrue("\(error)".hasPrefix("units.json: invalid JSON"), "\(error)")
            expectFalse("\(error)".contains("\n"))
        }
        let typed = directory.appendingPathComponent("typed.json")
        try "[{\"Code\": \"01\", \"Name\": \"Hà Nội\", \"FullName\": \"Thành phố Hà Nội\", \"Wards\": [{\"Code\": 4, \"Name\": \"x\", \"FullName\": \"Xã x\"}]}]".write(to: typed, atomically: true, encoding: .utf8)
        assertFails([typed], in: directory, "typed.json: at [0].Wards[0].Code: expected String")

        let xml = directory.appendingPathComponent("clip.osm")
        try "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n <node id=\"1\" lat=\"10.77\" lon=\"106.70\">\n  <tag k=\"name\" v=\"x\"/>\n </way>\n</osm>\n"
            .write(to: xml, atomically: true, encoding: .utf8)
        expectThrowsError(try DatasetBuilder().build(inputs: [xml], output: directory.appendingPathComponent("o.sqlite"))) { error in
            expectTrue("\(error)".hasPrefix("clip.osm: line 5: malformed XML"), "\(error)")
        }
        let badNode = directory.appendingPathComponent("badnode.osm")
        try "<osm version=\"0.6\">\n<node id=\"7\" lat=\"north\" lon=\"106.70\"/>\n</osm>\n".write(to: badNode, atomically: true, encoding: .utf8)
        expectThrowsError(try DatasetBuilder().build(inputs: [badNode], output: directory.appendingPathComponent("o.sqlite"))) { error in
            expectTrue("\(error)".hasPrefix("badnode.osm: line 2: malformed XML"), "\(error)")
            expectFalse("\(error)".contains("\n"))
        }
    }

    @Test func testKindIsDetectedFromContentNotName() throws {
        let directory = try SharedDataset.scratch("detect")
        let expectations: [(String, InputKind)] = [
            ("hcmc_pois_osm2018.csv", .poiCSV), ("hcmc_streets_osm2018.csv", .streetCSV),
            ("hcmc_address_points_osm2018.csv", .addressCSV), ("units_2025_centroids_bbox.csv", .centroidCSV),
            ("units_2025.json", .units2025JSON), ("units_pre2025.json", .unitsPre2025JSON),
            ("mapping_2025_old_to_new.json", .mappingOldToNewJSON), ("mapping_2025_new_to_old.json", .mappingNewToOldJSON),
            ("hanoi_hoankiem_2019.osm", .osmXML), ("hcmc_2018.osm.pbf", .osmPBF),
        ]
        for (index, (name, kind)) in expectations.enumerated() {
            let renamed = directory.appendingPathComponent("input\(index).dat")
            try FileManager.default.copyItem(at: input(name), to: renamed)
            expectEqual(try InputKind.detect(renamed), kind, name)
        }
    }

    @Test func testDirectoryInputUsesItsRecognisableFiles() throws {
        let directory = try SharedDataset.scratch("dir")
        let inputs = directory.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: input("units_2025.json"), to: inputs.appendingPathComponent("a.json"))
        try "# notes\n".write(to: inputs.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let report = try DatasetBuilder().build(inputs: [inputs], output: directory.appendingPathComponent("d.sqlite"))
        expectEqual(report.inputs.map(\.kind), [.units2025JSON])
        expectEqual(report.placeCounts[.admin], 34 + 3321)
        expectTrue(report.notes.contains("1 unrecognised files in input directories skipped"), "\(report.notes)")
    }

    @Test func testSmallBuildFromRenamedInputsWithWholeCityRoadsFromPBF() throws {
        let directory = try SharedDataset.scratch("small")
        let pois = try poiCSV(directory, name: "some.txt", rows: 5) { _ in }
        let output = directory.appendingPathComponent("small.sqlite")
        var builder = DatasetBuilder()
        builder.contractionHierarchies = false  // (whole-city hierarchies: ContractionHierarchyTests; minutes in debug)
        let report = try builder.build(inputs: [input("units_2025.json"), input("units_2025_centroids_bbox.csv"), pois, input("hcmc_2018.osm.pbf")],
                                       output: output)
        // The PBF gives the city's named POIs and areas, streets and house numbers too (a searchable
        // city from an OSM extract alone), besides the CSV's five rows.
        expectGreaterThan(report.placeCounts[.poi] ?? 0, 5 + 7_000)
        expectGreaterThan(report.placeCounts[.street] ?? 0, 9_000)
        expectGreaterThan(report.placeCounts[.address] ?? 0, 7_000)
        expectEqual(report.adminCounts.newWards, 3321)
        expectTrue(report.notes.contains { $0.contains("hcmc_2018.osm.pbf") && $0.contains("road ways") }, "\(report.notes)")
        expectTrue(report.notes.contains { $0.contains("hcmc_2018.osm.pbf") && $0.contains("named POI nodes and areas") }, "\(report.notes)")
        let db = try Database(path: output.path, mode: .readOnly)
        expectEqual(try db.rows("SELECT name FROM place WHERE key = 'poi:way/39598493'", columns: 1).first, ["Dinh Độc Lập"])
        expectGreaterThan(try db.scalarInt("SELECT COUNT(*) FROM place WHERE kind = 2 AND name = 'Cách Mạng Tháng Tám'"), 5)
        expectTrue(try db.rows("SELECT alias_key FROM place WHERE kind = 2 AND name = 'Lê Văn Sỹ'", columns: 1)
            .contains { $0[0].contains("le van si") })
        expectGreaterThan(report.roadNodes, 50_000, "the whole city's junctions")
        expectTrue(FileManager.default.fileExists(atPath: output.path))
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["small.sqlite", "some.txt"])
    }
}
