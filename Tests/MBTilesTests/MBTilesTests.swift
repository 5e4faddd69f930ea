import Foundation
import TestExpectations
import Testing
import MapTiles
import SQLiteStore
@testable import MBTiles

@Suite final class MBTilesTests {
    private var directory: URL!

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("MBTilesTests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func directoryListing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// The simulator's HCMC box, as the exporter will describe it.
    private let hcmc = MBTilesMetadata(
        name: "vietmap-sim HCMC", format: .pbf,
        bounds: .init(west: 106.35, south: 10.35, east: 107.05, north: 11.17),
        center: .init(longitude: 106.7009, latitude: 10.7769, zoom: 12), minZoom: 10, maxZoom: 12,
        attribution: "© OpenStreetMap contributors",
        vectorLayers: [.init(id: "transportation", fields: ["class": "String", "oneway": "Number"], minZoom: 10, maxZoom: 12),
                       .init(id: "place \"quoted\"", minZoom: 10, maxZoom: 12)])

    private func payload(_ tile: TileID) -> [UInt8] {
        // Distinct bytes per tile, with a gzip magic so it looks like what MapLibre inflates.
        [0x1f, 0x8b] + Array("\(tile.z)/\(tile.x)/\(tile.y)".utf8)
    }

    @Test func testWriteThenReadBackTheHCMCCover() throws {
        let target = path("hcmc.mbtiles")
        let covers = try TileCover.covers(west: 106.35, south: 10.35, east: 107.05, north: 11.17, zooms: 10...12)
        expectEqual(covers.map(\.count), [9, 20, 80])
        let writer = try MBTilesWriter(path: target, batchSize: 16)  // several batches
        try writer.setMetadata(hcmc)
        for cover in covers { for tile in cover { try writer.addTile(z: tile.z, x: tile.x, y: tile.y, data: payload(tile)) } }
        expectEqual(writer.tileCount, 109)
        expectFalse(FileManager.default.fileExists(atPath: target), "nothing at the target before finish()")
        try writer.finish()
        expectEqual(try directoryListing(), ["hcmc.mbtiles"], "the temporary file was renamed, not copied")

        let reader = try MBTilesReader(path: target)
        expectEqual(try reader.tileCount(), 109)
        for cover in covers { for tile in cover { expectEqual(try reader.tile(z: tile.z, x: tile.x, y: tile.y), payload(tile)) } }
        expectNil(try reader.tile(z: 12, x: 0, y: 0))
        expectNil(try reader.tile(z: 13, x: 6524, y: 3849))

        let metadata = try reader.metadata()
        expectEqual(metadata["name"], "vietmap-sim HCMC")
        expectEqual(metadata["format"], "pbf")
        expectEqual(metadata["bounds"], "106.35,10.35,107.05,11.17")
        expectEqual(metadata["center"], "106.7009,10.7769,12")
        expectEqual(metadata["minzoom"], "10")
        expectEqual(metadata["maxzoom"], "12")
        expectEqual(metadata["attribution"], "© OpenStreetMap contributors")
        let json = try unwrap(JSONSerialization.jsonObject(with: Data(unwrap(metadata["json"]).utf8)) as? [String: Any])
        let layers = try unwrap(json["vector_layers"] as? [[String: Any]])
        expectEqual(layers.map { $0["id"] as? String }, ["transportation", "place \"quoted\""])
        expectEqual(layers[0]["fields"] as? [String: String], ["class": "String", "oneway": "Number"])
        expectEqual(layers[0]["minzoom"] as? Int, 10)
        expectEqual(layers[1]["maxzoom"] as? Int, 12)

        // The spec's application id, read by plain SQLite.
        let database = try Database(path: target)
        let id = try database.prepare("PRAGMA application_id")
        expectTrue(try id.step())
        expectEqual(id.int(0), 0x4d50_4258)
    }

    @Test func testRowsAreStoredTMSAndReadBackXYZ() throws {
        let target = path("flip.mbtiles")
        try MBTilesWriter.write(to: target) { writer in
            try writer.setMetadata(MBTilesMetadata(name: "flip", format: .png))
            try writer.addTile(z: 1, x: 0, y: 0, data: [1])              // north-west at z1
            try writer.addTile(z: 14, x: 13048, y: 7698, data: [2])      // Bến Thành
            try writer.addTile(z: 0, x: 0, y: 0, data: [3])
        }
        let database = try Database(path: target)
        let rows = try database.prepare("SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level")
        var stored: [[Int]] = []
        while try rows.step() { stored.append([rows.int(0), rows.int(1), rows.int(2)]) }
        expectEqual(stored, [[0, 0, 0], [1, 0, 1], [14, 13048, 16383 - 7698]])
        expectEqual(MBTilesSchema.tmsRow(z: 14, y: 7698), TileID(z: 14, x: 13048, y: 7698)!.tmsRow)

        let reader = try MBTilesReader(path: target)
        expectEqual(try reader.tile(z: 1, x: 0, y: 0), [1])
        expectNil(try reader.tile(z: 1, x: 0, y: 1), "the TMS row is not an XYZ row")
        expectEqual(try reader.tile(z: 14, x: 13048, y: 7698), [2])
    }

    @Test func testAWriterWhoseCallerThrowsLeavesNoFile() throws {
        struct ExportFailed: Error {}
        let target = path("failed.mbtiles")
        let cover = try TileCover(z: 14, west: 106.35, south: 10.35, east: 107.05, north: 11.17)
        expectEqual(cover.count, 1_248)
        var added = 0
        expectThrowsError(try MBTilesWriter.write(to: target, batchSize: 100) { writer in
            try writer.setMetadata(MBTilesMetadata(name: "failing", format: .png))
            for tile in cover {
                if added == 1_000 { throw ExportFailed() }  // ten batches already committed
                try writer.addTile(z: tile.z, x: tile.x, y: tile.y, data: payload(tile))
                added += 1
            }
        }) { expectTrue($0 is ExportFailed) }
        expectEqual(added, 1_000)
        expectEqual(try directoryListing(), [], "no target, no temporary file left behind")

        // A writer simply dropped (the caller threw past it) cleans up too.
        do {
            let writer = try MBTilesWriter(path: target)
            try writer.setMetadata(MBTilesMetadata(name: "dropped", format: .png))
            try writer.addTile(z: 0, x: 0, y: 0, data: [0])
            expectTrue(FileManager.default.fileExists(atPath: writer.temporaryPath))
        }
        expectEqual(try directoryListing(), [])
    }

    @Test func testAFailedWriteKeepsThePreviousFileAndAFinishedOneReplacesIt() throws {
        let target = path("replace.mbtiles")
        try MBTilesWriter.write(to: target) { writer in
            try writer.setMetadata(MBTilesMetadata(name: "first", format: .png))
            try writer.addTile(z: 0, x: 0, y: 0, data: [1])
        }
        expectThrowsError(try MBTilesWriter.write(to: target) { writer in
            try writer.setMetadata(MBTilesMetadata(name: "second", format: .png))
            try writer.addTile(z: 0, x: 0, y: 0, data: [2])
            try writer.addTile(z: 0, x: 0, y: 7, data: [2])  // invalidTile
        })
        expectEqual(try MBTilesReader(path: target).metadata()["name"], "first")
        expectEqual(try directoryListing(), ["replace.mbtiles"])

        try MBTilesWriter.write(to: target) { writer in
            try writer.setMetadata(MBTilesMetadata(name: "second", format: .png))
            try writer.addTile(z: 0, x: 0, y: 0, data: [2])
        }
        let reader = try MBTilesReader(path: target)
        expectEqual(try reader.metadata()["name"], "second")
        expectEqual(try reader.tile(z: 0, x: 0, y: 0), [2])
    }

    @Test func testRequiredMetadataIsCheckedAtFinish() throws {
        let target = path("meta.mbtiles")
        let writer = try MBTilesWriter(path: target)
        expectThrowsError(try writer.finish()) { expectEqual(($0 as? MBTilesError)?.description, MBTilesError.missingMetadata("name").description) }
        try writer.setMetadata("name", "no layers")
        try writer.setMetadata("format", "pbf")
        expectThrowsError(try writer.finish()) {
            guard case .missingMetadata("json") = $0 as? MBTilesError else { return fail("\($0)") }
        }
        expectFalse(FileManager.default.fileExists(atPath: target))
        try writer.setMetadata("json", MBTilesMetadata(name: "x", format: .pbf).json)
        try writer.setMetadata("name", "renamed")  // a later value replaces the earlier one
        try writer.finish()
        let metadata = try MBTilesReader(path: target).metadata()
        expectEqual(metadata["json"], "{\"vector_layers\":[]}")
        expectEqual(metadata["name"], "renamed")
        expectThrowsError(try writer.addTile(z: 0, x: 0, y: 0, data: [])) {
            guard case .writerClosed = $0 as? MBTilesError else { return fail("\($0)") }
        }
    }

    @Test func testDuplicateAndImpossibleTilesAreTypedErrors() throws {
        let target = path("dup.mbtiles")
        // One tile a batch: the refused duplicate is the first insert of a batch.
        let writer = try MBTilesWriter(path: target, batchSize: 1)
        try writer.setMetadata(MBTilesMetadata(name: "dup", format: .png))
        try writer.addTile(z: 3, x: 1, y: 2, data: [1])
        expectThrowsError(try writer.addTile(z: 3, x: 1, y: 2, data: [9])) {
            guard case .duplicateTile(3, 1, 2) = $0 as? MBTilesError else { return fail("\($0)") }
        }
        try writer.addTile(z: 3, x: 2, y: 2, data: [2])  // still usable after a duplicate
        expectEqual(writer.tileCount, 2)
        for (z, x, y) in [(-1, 0, 0), (31, 0, 0), (3, 8, 0), (3, 0, -1)] {
            expectThrowsError(try writer.addTile(z: z, x: x, y: y, data: [])) {
                guard case .invalidTile = $0 as? MBTilesError else { return fail("\($0)") }
            }
        }
        try writer.finish()
        let reader = try MBTilesReader(path: target)
        expectEqual(try reader.tile(z: 3, x: 1, y: 2), [1], "the first tile was kept")
        expectEqual(try reader.tileCount(), 2)
        expectThrowsError(try reader.tile(z: 3, x: 8, y: 0)) {
            guard case .invalidTile = $0 as? MBTilesError else { return fail("\($0)") }
        }
    }

    @Test func testReaderRefusesFilesThatAreNotMBTiles() throws {
        let text = path("notes.mbtiles")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        expectThrowsError(try MBTilesReader(path: text)) {
            guard case .notMBTiles = $0 as? MBTilesError else { return fail("\($0)") }
        }
        let other = path("other.sqlite")
        try Database(path: other, mode: .create).execute("CREATE TABLE tiles (x INTEGER)")
        expectThrowsError(try MBTilesReader(path: other)) {
            guard case .notMBTiles = $0 as? MBTilesError else { return fail("\($0)") }
        }
        expectThrowsError(try MBTilesReader(path: path("missing.mbtiles"))) {
            guard case .sqlite = $0 as? MBTilesError else { return fail("\($0)") }
        }
        expectThrowsError(try MBTilesWriter(path: path("no/such/dir.mbtiles"))) {
            guard case .file = $0 as? MBTilesError else { return fail("\($0)") }
        }
    }
}
