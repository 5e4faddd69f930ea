import Foundation
import JSON
import MBTiles
import MapTiles
import SimTesting
import SQLiteStore
import TestExpectations
import Testing
import Zlib

/// `vietmap-sim export-tiles` over the shared test dataset: District 1 at z12–14 read back with `MBTilesReader`
/// (every tile of the cover stored — District 1 has roads in each —, TMS rows, gzip, metadata and its
/// `vector_layers`), the style beside it naming the file and its glyphs and sprite, which exist; bad options are
/// one line and exit 64 with nothing written; an area without data is exit 1.
@Suite final class ExportTilesCLITests {
    /// `MapExportArea.Name.district1`'s box.
    static let district1 = (west: 106.6835, south: 10.7615, east: 106.7135, north: 10.7945)

    var binary: URL {
        CLIRunner.executable(besideBundleOf: ExportTilesCLITests.self)
            ?? Bundle(for: ExportTilesCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func export(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, ["export-tiles", "--db", try TestDataset.path()] + arguments)
    }

    @Test func testDistrict1ExportsToMBTilesWithAStyleThatNamesItsFiles() throws {
        let out = folder.appendingPathComponent("d1.mbtiles").path
        let outcome = try export(["--area", "district1", "--zoom", "12-14", "--out", out])
        expectEqual(outcome.status, 0, outcome.stderr)
        expectTrue(outcome.stdout.contains("12 of 12 tiles had data"), outcome.stdout)

        let reader = try MBTilesReader(path: out)
        var covered = 0
        for z in 12...14 {
            let d = Self.district1
            let cover = try TileCover(z: z, west: d.west, south: d.south, east: d.east, north: d.north)
            covered += cover.count
            for tile in cover {
                let data = try unwrap(try reader.tile(z: tile.z, x: tile.x, y: tile.y), "tile \(tile) missing")
                expectEqual(Array(data.prefix(2)), [0x1f, 0x8b], "tile \(tile) is not gzip")
                let mvt = try Inflate.decompress(data, format: .gzip, limit: 64 << 20)
                expectTrue(mvt.range(of: Data("vietmap_network".utf8)) != nil, "tile \(tile) has no roads")
            }
        }
        expectEqual(try reader.tileCount(), covered)

        // TMS rows in the file: row = 2^z − 1 − y.
        let database = try Database(path: out, mode: .readOnly)
        let rows = try database.prepare("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = 14")
        let z14 = try TileCover(z: 14, west: Self.district1.west, south: Self.district1.south, east: Self.district1.east,
                                north: Self.district1.north)
        var stored = Set<[Int]>()
        while try rows.step() { stored.insert([rows.int(0), rows.int(1)]) }
        expectEqual(stored, Set(z14.map { [$0.x, (1 << 14) - 1 - $0.y] }))

        let metadata = try reader.metadata()
        expectEqual(metadata["name"], "d1")
        expectEqual(metadata["format"], "pbf")
        expectEqual(metadata["bounds"], "106.6835,10.7615,106.7135,10.7945")
        expectEqual(metadata["minzoom"], "12")
        expectEqual(metadata["maxzoom"], "14")
        expectEqual(metadata["attribution"], "© OpenStreetMap contributors")
        let center = try unwrap(metadata["center"]).split(separator: ",").compactMap { Double($0) }
        expectEqual(center.count, 3)
        expectTrue((Self.district1.west...Self.district1.east).contains(center[0]))
        let json = try JSONParser.parse(try unwrap(metadata["json"]))
        let layers = try unwrap(json["vector_layers"]?.arrayValue)
        let network = try unwrap(layers.first { $0["id"]?.stringValue == "vietmap_network" })
        expectEqual(network["fields"]?["roadclass"]?.stringValue, "Number")
        expectEqual(network["fields"]?["name"]?.stringValue, "String")
        expectEqual(network["maxzoom"]?.intValue, 14)
        expectTrue(layers.contains { $0["id"]?.stringValue == "vietmap_point" }, "\(layers)")

        // The style beside it.
        let styleText = try String(contentsOfFile: folder.appendingPathComponent("d1.style.json").path, encoding: .utf8)
        let style = try JSONParser.parse(styleText)
        expectEqual(style["sources"]?["vietmap"]?["url"]?.stringValue, "mbtiles://" + out)
        let assets = folder.appendingPathComponent("d1.assets").path
        expectEqual(style["glyphs"]?.stringValue, "file://" + assets + "/fonts/{fontstack}/{range}.pbf")
        expectEqual(style["sprite"]?.stringValue, "file://" + assets + "/sprite")
        expectGreaterThan(style["layers"]?.arrayValue?.count ?? 0, 50)
        for stack in ["Roboto Regular", "Roboto Medium", "Roboto Condensed Italic"] {
            for range in ["0-255", "256-511", "7680-7935"] {  // Vietnamese names need all three
                let file = assets + "/fonts/\(stack)/\(range).pbf"
                expectGreaterThan((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0, 1000, file)
            }
        }
        // The style's own label text: the one-way arrow "→" (U+2192) is in 8448-8703; without that file MapLibre
        // Native fails the render of any view with a one-way street.
        expectTrue(FileManager.default.fileExists(atPath: assets + "/fonts/Roboto Regular/8448-8703.pbf"))
        expectFalse(FileManager.default.fileExists(atPath: assets + "/fonts/Roboto Regular/19968-20223.pbf"),
                       "only the ranges the names need unless --all-glyphs")
        for name in ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"] {
            expectTrue(FileManager.default.fileExists(atPath: assets + "/" + name), name)
        }
        // Nothing else in the folder: no temporary file or folder left behind.
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["d1.assets", "d1.mbtiles", "d1.style.json"])

        // Exporting again over it (another look, one zoom) replaces all three; still nothing left behind.
        let again = try export(["--area", "district1", "--zoom", "13", "--look", "dm", "--out", out])
        expectEqual(again.status, 0, again.stderr)
        expectEqual(try MBTilesReader(path: out).tileCount(), 4)
        let dark = try JSONParser.parse(try String(contentsOfFile: folder.appendingPathComponent("d1.style.json").path, encoding: .utf8))
        expectEqual(dark["metadata"]?["vietmap-sim:look"]?.stringValue, "dm")
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["d1.assets", "d1.mbtiles", "d1.style.json"])
    }

    @Test func testBadOptionsAreOneLineExit64AndWriteNothing() throws {
        let out = folder.appendingPathComponent("bad.mbtiles").path
        let cases: [([String], String)] = [
            (["--bbox", "106.68,10.76,106.71"], "give west,south,east,north"),
            (["--bbox", "106.71,10.76,106.68,10.79"], "inverted box"),
            (["--bbox", "200,10,201,11"], "invalid coordinate"),
            (["--zoom", "16-18"], "tiles stop at z15"),
            (["--zoom", "14-12"], "MIN ≤ MAX"),
            (["--zoom", "12-30"], "zooms go from 0 to 24"),
            (["--area", "district9"], "--area must be district1, hoankiem or dataset, got 'district9'; did you mean 'district1'?"),
            (["--look", "xx"], "--look must be tm, lm or dm, got 'xx'"),
            (["--area", "district1", "--bbox", "106.68,10.76,106.71,10.79"], "not both"),
        ]
        for (arguments, message) in cases {
            let outcome = try export(arguments + ["--out", out])
            expectEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            expectTrue(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
        }
        let noOut = try export(["--area", "district1"])
        expectEqual(noOut.status, 64)
        expectTrue(noOut.stderr.contains("needs --out"), noOut.stderr)
        // Inside the world, outside the data: exit 1, one line, no files.
        let empty = try export(["--bbox", "2.29,48.85,2.30,48.86", "--zoom", "12-13", "--out", out])
        expectEqual(empty.status, 1, empty.stderr)
        expectTrue(empty.stderr.contains("no map features in"), empty.stderr)
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
