import ArrayBlob
@testable import Dataset
import DefaultData
import Foundation
import TestExpectations
import Testing

/// The map shapes (buildings, water, land use, waterways, railways) a dataset keeps from its OSM inputs.
@Suite final class MapShapeTests {
    private func stored() throws -> MapShapes {
        try unwrap(try MapShapeStore.load(databasePath: SharedDataset.get().url.path), "the default dataset has map shapes")
    }

    private var osmInputs: [URL] { DefaultData.inputFiles.filter { $0.pathExtension.lowercased() == "osm" } }

    @Test func testHoanKiemLakeIsAWaterPolygonWithItsIslandsOut() throws {
        let shapes = try stored()
        let water = (0..<shapes.count).filter { shapes.kind($0) == .water && shapes.contains($0, latitude: 21.0288, longitude: 105.8523) }
        expectEqual(water.map { shapes.name($0) }, ["Hồ Hoàn Kiếm"])
        let lake = try unwrap(water.first)
        expectTrue(shapes.isRelation(lake), "the lake is multipolygon 198437")
        expectEqual(shapes.osmID(lake), 198437)
        expectTrue(shapes.isArea(lake))
        expectTrue(shapes.rings(lake).contains { shapes.isInner(ring: $0) }, "its islands are holes")
        expectFalse(shapes.rings(lake).allSatisfy { shapes.isInner(ring: $0) })
        // The lake's shore road and the Old Quarter are not water.
        expectFalse(shapes.contains(lake, latitude: 21.0340, longitude: 105.8500))
        // Ngọc Sơn temple's island (Đền Ngọc Sơn) is a hole of the lake.
        expectFalse(shapes.contains(lake, latitude: 21.03070, longitude: 105.85240))
    }

    @Test func testHoanKiemBuildingsAreKeptWithTheirLevels() throws {
        let shapes = try stored()
        let hoanKiem = shapes.shapes(minLatitude: 21.015, minLongitude: 105.838, maxLatitude: 21.045, maxLongitude: 105.865)
        let buildings = hoanKiem.filter { shapes.kind($0) == .building }
        expectGreaterThanOrEqual(buildings.count, 400)
        expectTrue(buildings.allSatisfy { shapes.isArea($0) && !shapes.rings($0).isEmpty })
        let towers = try unwrap((0..<shapes.count).first { shapes.osmID($0) == 37933626 && !shapes.isRelation($0) })
        expectEqual(shapes.kind(towers), .building)
        expectEqual(shapes.name(towers), "Hanoi Towers")
        expectEqual(shapes.levels(towers), 5)
        expectNil(shapes.heightMetres(towers))
        // Every area ring is closed.
        for i in 0..<shapes.count where shapes.isArea(i) {
            for r in shapes.rings(i) {
                let p = shapes.points(ring: r)
                expectGreaterThanOrEqual(p.count, 4)
                expectEqual(shapes.latE7(point: p.lowerBound), shapes.latE7(point: p.upperBound - 1))
                expectEqual(shapes.lonE7(point: p.lowerBound), shapes.lonE7(point: p.upperBound - 1))
            }
        }
        // Lines: the railway through Hoàn Kiếm (Hà Nội station's line).
        expectTrue((0..<shapes.count).contains { shapes.kind($0) == .rail && !shapes.isArea($0) })
        expectTrue((0..<shapes.count).contains { shapes.kind($0) == .park })
    }

    /// What the dataset stores reads back as the shapes the importer collected, shape for shape.
    @Test func testStoredShapesAreTheImportedOnes() throws {
        let shapes = try stored()
        var source = MapShapeSource()
        for url in osmInputs { try source.read(url) }
        let memory = MapShapes(source.shapes)
        expectEqual(shapes.count, memory.count)
        expectEqual(shapes.pointCount, memory.pointCount)
        for i in 0..<shapes.count { expectEqual(shapes.shape(i), memory.shape(i), "shape \(i)") }
        expectEqual(try MapShapes(serialized: memory.serialized()).serialized(), memory.serialized())
        // Values through the stored form: every field of a written shape comes back.
        let shape = MapShape(kind: .building, isArea: true, osmID: 42, name: "Tòa nhà", levels: 12, heightMetres: 45.5,
                             rings: [.init(latE7: [0, 10, 10, 0], lonE7: [0, 0, 10, 0]),
                                     .init(isInner: true, latE7: [1, 2, 2, 1], lonE7: [1, 1, 2, 1])])
        let line = MapShape(kind: .river, isArea: false, osmID: 7, isRelation: false, rings: [.init(latE7: [5, 6, 7], lonE7: [1, 2, 3])])
        let back = try MapShapes(serialized: MapShapes([line, shape]).serialized())
        expectEqual((0..<back.count).map { back.shape($0) }, [shape, line], "ordered by kind")
        expectEqual(MapShapes().count, 0)
        expectEqual(try MapShapes(serialized: MapShapes().serialized()).count, 0)
    }

    @Test func testDamagedShapesAreRejected() throws {
        let bytes = MapShapes([MapShape(kind: .water, isArea: true, osmID: 1, name: "Hồ",
                                        rings: [.init(latE7: [0, 10, 10, 0], lonE7: [0, 0, 10, 0])])]).serialized()
        expectThrowsError(try MapShapes(serialized: Array(bytes.dropLast(9))))
        expectThrowsError(try MapShapes(serialized: Array("VMRG".utf8) + bytes.dropFirst(4)))
        expectThrowsError(try MapShapes(serialized: []))
        // The last array is the name arena's starts ([0, 0, 4] for "" and "Hồ"): a start past the bytes.
        var damaged = bytes
        damaged[damaged.count - 8] = 200
        expectThrowsError(try MapShapes(serialized: damaged)) { error in
            expectTrue("\(error)".contains("map shapes"), "\(error)")
        }
    }

    @Test func testMultipolygonRingsAreJoinedFromTheirWays() {
        // Two halves of a ring (one reversed), a closed way, and a part that closes nothing.
        let rings = MapShapeSource.closedRings([[1, 2, 3], [1, 4, 3], [10, 11, 12, 10], [20, 21]])
        expectEqual(rings.count, 2)
        expectTrue(rings.contains([10, 11, 12, 10]))
        expectTrue(rings.contains([1, 2, 3, 4, 1]))
    }

    @Test func testTagsGiveKinds() {
        expectEqual(MapShapeKind.classify(["building": "yes", "landuse": "military"]), .building)
        expectEqual(MapShapeKind.classify(["natural": "water", "water": "lake"]), .water)
        expectEqual(MapShapeKind.classify(["waterway": "riverbank"]), .water)
        expectEqual(MapShapeKind.classify(["waterway": "canal"]), .canal)
        expectEqual(MapShapeKind.classify(["leisure": "park"]), .park)
        expectEqual(MapShapeKind.classify(["amenity": "parking"]), .parking)
        expectEqual(MapShapeKind.classify(["aeroway": "aerodrome"]), .airport)
        expectEqual(MapShapeKind.classify(["railway": "rail"]), .rail)
        expectNil(MapShapeKind.classify(["building": "no"]))
        expectNil(MapShapeKind.classify(["highway": "residential"]))
        expectNil(MapShapeSource.Details(tags: ["building": "yes"], closed: false), "an open way is no area")
        expectNotNil(MapShapeSource.Details(tags: ["waterway": "river"], closed: false))
        let tower = MapShapeSource.Details(tags: ["building": "yes", "building:levels": "29", "height": "98 m"], closed: true)
        expectEqual(tower?.levels, 29)
        expectEqual(tower?.heightMetres, 98)
    }

    /// The whole city (PBF, not in the default dataset): the Saigon river is water, buildings and lines are kept.
    @Test func testWholeCityPBFShapes() throws {
        let started = Date()
        var source = MapShapeSource()
        try source.read(DefaultData.hcmcPBF)
        let shapes = MapShapes(source.shapes)
        let bytes = shapes.serialized().count
        var counts: [MapShapeKind: Int] = [:]
        for i in 0..<shapes.count { counts[shapes.kind(i)!, default: 0] += 1 }
        print("hcmc_2018.osm.pbf: \(shapes.count) map shapes, \(shapes.ringCount) rings, \(shapes.pointCount) points, \(bytes) bytes, "
              + String(format: "%.2f s: ", Date().timeIntervalSince(started))
              + MapShapeKind.allCases.compactMap { k in counts[k].map { "\(k) \($0)" } }.joined(separator: ", "))
        let river = (0..<shapes.count).filter { shapes.kind($0) == .water && shapes.contains($0, latitude: 10.7740, longitude: 106.7080) }
        print("water at Bạch Đằng: \(river.map { "\(shapes.osmID($0)) \(shapes.isRelation($0)) \(shapes.name($0))" })")
        expectFalse(river.isEmpty, "the Saigon river off Bạch Đằng wharf is water")
        expectGreaterThan(counts[.building] ?? 0, 1000)
        expectGreaterThan(counts[.river] ?? 0, 0)
    }
}
