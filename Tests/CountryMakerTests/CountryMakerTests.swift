import Dataset
import DefaultData
import Foundation
import OSMReader
import Routing
import HTTPTestSupport
import TestExpectations
import Testing
@testable import CountryMaker

/// `make-country` on real data: the HCMC Q1/Q3 extract (small, so the suite stays fast) at scale
/// 2 — copy 1 is the city in place, copy 2 in Hanoi — written twice, read back with the repo's
/// own reader, imported and routed across.
@Suite final class CountryMakerTests {
    static var city: URL { DefaultData.directory.appendingPathComponent("osm/hcmc_q1_q3_2018.osm") }
    static var provincesCSV: URL { DefaultData.directory.appendingPathComponent("admin/units_2025_centroids_bbox.csv") }

    var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("country-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func make(scale: Int = 2, seed: UInt64 = CountryMaker.defaultSeed, name: String = "country.osm.pbf",
              extraAddresses: Int = CountryMaker.defaultExtraAddresses) throws -> (URL, CountryMaker.Report) {
        let out = folder.appendingPathComponent(name)
        let report = try CountryMaker.make(.init(scale: scale, seed: seed, input: Self.city, provincesCSV: Self.provincesCSV, output: out,
                                                 extraAddresses: extraAddresses))
        return (out, report)
    }

    @Test func testTheImportRelevantKeysAreTheImportersOwn() {
        expectEqual(ImportRelevance.poiKeys, CategoryCodes.poiKeys)
    }

    @Test func testScaleTwoTwiceIsByteIdenticalAndTheSeedMatters() throws {
        let (first, _) = try make(name: "a.osm.pbf")
        let (second, _) = try make(name: "b.osm.pbf")
        let (reseeded, _) = try make(seed: 7, name: "c.osm.pbf")
        let a = try Data(contentsOf: first)
        expectEqual(a, try Data(contentsOf: second))
        expectNotEqual(a, try Data(contentsOf: reseeded))
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["a.osm.pbf", "b.osm.pbf", "c.osm.pbf"],
                       "no temporary file left")
    }

    struct Collector: OSMHandler {
        var bounds: OSMBounds?
        var nodes: [Int64: (Double, Double)] = [:]
        var duplicateNodes = 0, duplicateWays = 0, duplicateRelations = 0
        var ways: [OSMWay] = []
        var wayIDs = Set<Int64>(), relationIDs = Set<Int64>()
        var lastKind = 0
        var outOfOrder = 0
        var names = Set<String>()

        mutating func bounds(_ bounds: OSMBounds) { self.bounds = bounds }
        mutating func node(_ node: OSMNode) {
            if nodes.updateValue((node.lat, node.lon), forKey: node.id) != nil { duplicateNodes += 1 }
            if let name = node.tags["name"] { names.insert(name) }
            if lastKind > 0 { outOfOrder += 1 }
        }
        mutating func way(_ way: OSMWay) {
            if !wayIDs.insert(way.id).inserted { duplicateWays += 1 }
            ways.append(way)
            if lastKind > 1 { outOfOrder += 1 }
            lastKind = 1
        }
        mutating func relation(_ relation: OSMRelation) {
            if !relationIDs.insert(relation.id).inserted { duplicateRelations += 1 }
            lastKind = 2
        }
    }

    @Test func testTheFileReadsBackWithTheExpectedCountsUniqueIdsInsideVietnam() throws {
        let (out, report) = try make()
        let city = try CityExtract(reading: Self.city)
        var collector = Collector()
        try OSMReader.read(out, handler: &collector)

        expectEqual(report.copies.count, 2)
        expectEqual(report.copies.map(\.provinceCode), ["79", "01"], "the city in place, then Hanoi")
        expectEqual(report.copies[0].dLat, 0)
        expectEqual(report.copies[0].dLng, 0)
        expectGreaterThanOrEqual(report.stitchRoads, 1)
        expectGreaterThan(report.stitchKm, 1000, "HCMC to Hanoi")
        expectEqual(report.addedAddresses, CountryMaker.defaultExtraAddresses, accuracy: 1, "added to the second copy only")
        expectEqual(collector.nodes.count, 2 * city.nodeIDs.count + report.addedAddresses + report.stitchNodes)
        expectEqual(collector.ways.count, 2 * city.ways.count + report.stitchRoads)
        expectEqual(collector.relationIDs.count, 2 * city.relations.count)
        expectEqual([report.nodes, report.ways, report.relations],
                       [collector.nodes.count, collector.ways.count, collector.relationIDs.count])
        expectEqual([collector.duplicateNodes, collector.duplicateWays, collector.duplicateRelations, collector.outOfOrder], [0, 0, 0, 0])
        for way in collector.ways {
            for ref in way.nodeIDs { expectNotNil(collector.nodes[ref], "way \(way.id) → node \(ref)") }
        }

        let provinces = try Provinces(csv: Self.provincesCSV)
        for (id, (lat, lng)) in collector.nodes {
            expectTrue((provinces.minLat ... provinces.maxLat).contains(lat) && (provinces.minLng ... provinces.maxLng).contains(lng),
                          "node \(id) at \(lat),\(lng) is outside Vietnam's bbox")
        }
        let bounds = try unwrap(collector.bounds)
        expectLessThanOrEqual(bounds.minLat, collector.nodes.values.map(\.0).min()!)
        expectGreaterThanOrEqual(bounds.maxLat, collector.nodes.values.map(\.0).max()!)
        expectLessThanOrEqual(bounds.minLon, collector.nodes.values.map(\.1).min()!)
        expectGreaterThanOrEqual(bounds.maxLon, collector.nodes.values.map(\.1).max()!)

        // The second copy is the first, translated: same geometry, Hanoi's latitude.
        let copy = report.copies[1]
        expectGreaterThan(copy.dLat, 9)
        let n = Int64(city.nodeIDs.count)
        for i in Swift.stride(from: Int64(0), to: n, by: 997) {
            let a = try unwrap(collector.nodes[report.copies[0].firstNodeID + i])
            let b = try unwrap(collector.nodes[copy.firstNodeID + i])
            expectEqual(b.0 - a.0, copy.dLat, accuracy: 1e-6)
            expectEqual(b.1 - a.1, copy.dLng, accuracy: 1e-6)
        }
        expectTrue(collector.names.contains { $0.hasSuffix(" Hà Nội") }, "some places of the Hanoi copy carry its name")
        let stitch = collector.ways.filter { $0.tags["highway"] == "trunk" && $0.tags["ref"] != nil && $0.id > Int64(2) * CountryMaker.stride(city.ways.count) }
        expectEqual(stitch.count, report.stitchRoads)
        expectEqual(stitch.first?.tags["name"], "Quốc lộ 1A")
    }

    @Test func testTheImportedScaleTwoRoutesFromOneCopyToTheOther() throws {
        let (out, report) = try make(extraAddresses: 1000)
        let db = folder.appendingPathComponent("country.sqlite")
        // The 2025 units and their centroids address the places; the old scheme is not needed here.
        let units = DefaultData.adminFiles.filter { ["units_2025.json", "units_2025_centroids_bbox.csv"].contains($0.lastPathComponent) }
        expectEqual(units.count, 2)
        // The route is the point, not its speed: the A* alone (contracting both copies for five
        // vehicles took most of this test's time in a debug build; hierarchies: ContractionHierarchyTests).
        var builder = DatasetBuilder()
        builder.contractionHierarchies = false
        let build = try builder.build(inputs: [out] + units, output: db)
        expectGreaterThan(build.roadNodes, 2 * 5000)
        let graph = try unwrap(try RoadGraphStore.load(databasePath: db.path))
        // Nhà thờ Đức Bà in copy 1, and the same corner of copy 2 (in Hanoi).
        let start = (lat: 10.7798, lon: 106.6990)
        let end = (lat: start.lat + report.copies[1].dLat, lon: start.lon + report.copies[1].dLng)
        let route = try Router.route(graph, points: [start, end], vehicle: .car)
        expectGreaterThan(route.distance, 1_100_000)
        expectLessThan(route.distance, 2_500_000)
        expectTrue(route.instructions.contains { $0.streetName == "Quốc lộ 1A" }, "the stitch road is driven")
        let back = try Router.route(graph, points: [end, start], vehicle: .car)
        expectEqual(back.distance, route.distance, accuracy: route.distance * 0.05)
        // Both copies' POIs (the Hanoi copy's under their varied names) and the added house numbers are places.
        let city = try CityExtract(reading: Self.city)
        let poiNodes = city.taggedNodes.filter { $0.placeName }.count
        expectGreaterThanOrEqual(build.placeCounts[.poi] ?? 0, 2 * poiNodes * 9 / 10, "\(build.placeCounts)")
        expectGreaterThanOrEqual(build.placeCounts[.address] ?? 0, report.addedAddresses, "\(build.placeCounts)")
    }

    @Test func testBadInputIsOneLineAndLeavesNothing() throws {
        for scale in [0, -1, 513] {
            expectThrowsError(try make(scale: scale)) { error in
                expectTrue("\(error)".contains("--scale"), "\(error)")
            }
        }
        let missing = folder.appendingPathComponent("missing.osm.pbf")
        expectThrowsError(try CountryMaker.make(.init(scale: 1, input: missing, provincesCSV: Self.provincesCSV,
                                                         output: folder.appendingPathComponent("x.osm.pbf")))) { error in
            expectTrue("\(error)".hasPrefix("cannot read \(missing.path)"), "\(error)")
            expectFalse("\(error)".contains("\n"))
        }
        let unwritable = folder.appendingPathComponent("no/such/folder/x.osm.pbf")
        expectThrowsError(try CountryMaker.make(.init(scale: 1, input: Self.city, provincesCSV: Self.provincesCSV, output: unwritable))) { error in
            expectTrue("\(error)".hasPrefix("cannot write \(unwritable.path)"), "\(error)")
        }
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    @Test func testTheCommandLineRefusesBadInputWithOneLine() throws {
        guard let binary = CLIRunner.executable(besideBundleOf: CountryMakerTests.self) else {
            throw TestFailure("vietmap-sim is not built beside the test bundle")
        }
        let notAFolder = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: notAFolder)
        let out = folder.appendingPathComponent("c.osm.pbf").path
        let cases: [([String], Int32)] = [
            (["make-country", "--scale", "0", "--out", out], 64),
            (["make-country", "--scale", "513", "--out", out], 64),
            (["make-country", "--scale", "x", "--out", out], 64),
            (["make-country", "--out", out], 64),
            (["make-country", "--scale", "2"], 64),
            (["make-country", "--scale", "2", "--seed", "-1", "--out", out], 64),
            (["make-country", "--scale", "2", "--out", notAFolder.path + "/c.osm.pbf"], 1),
            (["make-country", "--scale", "2", "--out", folder.path], 1),
            (["make-country", "--scale", "2", "--out", out, "--from", folder.appendingPathComponent("none.pbf").path], 1),
            (["make-country", "--scale", "2", "--out", out, "--from", notAFolder.path], 1),
        ]
        for (arguments, status) in cases {
            let outcome = try CLIRunner.run(binary, arguments)
            expectEqual(outcome.status, status, "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): \(outcome.stderr)")
            expectTrue(outcome.stderr.hasPrefix("vietmap-sim: "), outcome.stderr)
        }
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["file"])
        let help = try CLIRunner.run(binary, ["make-country", "--help"])
        expectEqual(help.status, 0)
        expectTrue(help.stdout.contains("--scale") && help.stdout.contains("ODbL"))
    }
}
