import Foundation
import MBTiles
import VietMapAPI
import VietMapSimulator
import VietMapWire

/// `vietmap-sim export-tiles`: the map of an area as an MBTiles file plus its style, glyphs and sprite
/// (`MapExport`), for device tests with no server. Bad options are one line and exit 64; an unreadable dataset,
/// an area without data or an unwritable `--out` are one line and exit 1.
enum ExportTilesCommand {
    static func run(_ parsed: CommandLineArguments) throws -> Int32 {
        let out = parsed.value("out")!  // required
        let look = parsed.value("look").flatMap(MapLook.init(rawValue:)) ?? .standard  // one of the declared choices
        let area: MapExportArea
        do {
            let zooms = try MapExportArea.parseZooms(parsed.value("zoom") ?? "10-16")
            switch (parsed.value("bbox"), parsed.value("area")) {
            case (.some, .some):
                throw UsageError("give --bbox or --area, not both")
            case (.some(let box), nil):
                let b = try MapExportArea.parseBox(box)
                area = try MapExportArea(west: b.west, south: b.south, east: b.east, north: b.north, zooms: zooms)
            case (nil, let name):
                let named = name.flatMap(MapExportArea.Name.init(rawValue:)) ?? .district1  // one of the declared choices
                area = try MapExportArea(named: named, zooms: zooms)
            }
        } catch let error as MapExportError {
            throw UsageError(error.description)
        }
        try OutputPath.check(out)
        let path = try SimulatorServer.datasetPath(parsed.value("db"), cacheDirectory: nil)
        let summary: MapExportSummary
        do {
            summary = try MapExport.export(databasePath: path, to: out,
                                           options: MapExportOptions(area: area, look: look, name: parsed.value("name"),
                                                                     allGlyphRanges: parsed.has("all-glyphs")))
        } catch {
            if error.isUsageError { throw UsageError(error.description) }
            throw CLIError(error.description)
        }
        let deeper = summary.tileZooms.upperBound + 1
        let overzoom = area.zooms.upperBound < deeper ? ""
            : " (z\(deeper)\(area.zooms.upperBound > deeper ? "–\(area.zooms.upperBound)" : ""): overzoomed by the client from z\(deeper - 1))"
        let b = summary.bounds
        print("vietmap-sim: wrote \(summary.mbtilesPath): \(summary.tilesWritten) of \(summary.tilesCovered) tiles had data, "
              + "z\(summary.tileZooms.lowerBound)–\(summary.tileZooms.upperBound)\(overzoom), \(summary.tileBytes) bytes gzipped, "
              + "bounds \(b.west),\(b.south),\(b.east),\(b.north)")
        print("vietmap-sim: wrote \(summary.stylePath) and \(summary.assetsPath)/ (\(summary.glyphFiles) glyph ranges, sprite 1x/2x; \(summary.assetBytes) bytes)")
        return 0
    }
}

extension ExportTilesCommand {
    static let spec = CommandSpec(
        name: "export-tiles",
        summary: "an area's map as MBTiles + style, glyphs, sprite, for device tests with no server",
        positionals: .none,
        discussion: """
            Exports the simulator's map of an area for device tests with no server at all: FILE.mbtiles
            (MBTiles 1.3: gzipped vector tiles in VietMap's schema, TMS rows, metadata with bounds, center,
            zooms, attribution and vector_layers), FILE.style.json (the look's style; its source is
            mbtiles:///<absolute path of FILE.mbtiles>) and FILE.assets/ (fonts/{fontstack}/{range}.pbf and
            sprite[@2x].{json,png}, which the style names by file:// URL). Tiles are cut up to z15,
            VietMap's source maxzoom; deeper zooms are drawn by the client from z15 (overzoom). Only tiles
            with data are stored. Every file is written under a temporary name and renamed once complete.
            See docs/maps.md.
            """,
        options: [
            .option("out", "FILE.mbtiles", required: true, "the MBTiles file to write; the style and assets go beside it"),
            .option("area", "NAME", .choice(MapExportArea.Name.allCases.map(\.rawValue)), "district1 (default: HCMC District 1), hoankiem (Hanoi) or dataset (all of it)"),
            .option("bbox", "W,S,E,N", "a box in degrees instead of --area (west,south,east,north)"),
            .option("zoom", "MIN-MAX", "zooms (default 10-16); tiles are cut from MIN to min(MAX, 15); MIN ≤ 15"),
            .option("look", "tm|lm|dm", .choice(MapLook.allCases.map(\.rawValue)), "tm (default), lm (light) or dm (dark): the style's palette"),
            .option("db", "PATH", "dataset built by `vietmap-sim import` (default: the embedded one)"),
            .option("name", "NAME", "the MBTiles name (default: FILE without .mbtiles)"),
            .flag("all-glyphs", "every glyph range 0-255 … 65280-65535 of the three font stacks (as an offline pack holds); default: 0-255 and the ranges the exported names and the style's own label text (the one-way arrow) need"),
        ],
        run: { try run($0) })
}
