import Foundation
import MBTiles
import VietMapAPI
import VietMapSimulator
import VietMapWire

/// `vietmap-sim export-tiles`: the map of an area as an MBTiles file plus its style, glyphs and sprite
/// (`MapExport`), for device tests with no server. Bad options are one line and exit 2; an unreadable dataset,
/// an area without data or an unwritable `--out` are one line and exit 1.
enum ExportTilesCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, valued: ["bbox", "area", "zoom", "out", "db", "look", "name"],
                                              boolean: ["help", "all-glyphs"])
        if parsed.has("help") { print(Usage.exportTiles); return 0 }
        guard parsed.positionals.isEmpty else {
            throw CommandLineArguments.UsageError(description: "unexpected argument '\(parsed.positionals[0])'")
        }
        guard let out = parsed.value("out") else {
            throw CommandLineArguments.UsageError(description: "export-tiles needs --out FILE.mbtiles")
        }
        let lookText = parsed.value("look") ?? MapLook.standard.rawValue
        guard let look = MapLook(rawValue: lookText) else {
            throw CommandLineArguments.UsageError(description: "unknown --look '\(lookText.prefix(40))' (tm, lm or dm)")
        }
        let area: MapExportArea
        do {
            let zooms = try MapExportArea.parseZooms(parsed.value("zoom") ?? "10-16")
            switch (parsed.value("bbox"), parsed.value("area")) {
            case (.some, .some):
                throw CommandLineArguments.UsageError(description: "give --bbox or --area, not both")
            case (.some(let box), nil):
                let b = try MapExportArea.parseBox(box)
                area = try MapExportArea(west: b.west, south: b.south, east: b.east, north: b.north, zooms: zooms)
            case (nil, let name):
                let text = name ?? MapExportArea.Name.district1.rawValue
                guard let named = MapExportArea.Name(rawValue: text) else {
                    throw CommandLineArguments.UsageError(description: "unknown --area '\(text.prefix(40))'"
                        + Suggestion.hint(for: text, in: MapExportArea.Name.allCases.map(\.rawValue))
                        + " (areas: \(MapExportArea.Name.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                area = try MapExportArea(named: named, zooms: zooms)
            }
        } catch let error as MapExportError {
            throw CommandLineArguments.UsageError(description: error.description)
        }
        try OutputPath.check(out)
        let path = try SimulatorServer.datasetPath(parsed.value("db"), cacheDirectory: nil)
        let summary: MapExportSummary
        do {
            summary = try MapExport.export(databasePath: path, to: out,
                                           options: MapExportOptions(area: area, look: look, name: parsed.value("name"),
                                                                     allGlyphRanges: parsed.has("all-glyphs")))
        } catch {
            if error.isUsageError { throw CommandLineArguments.UsageError(description: error.description) }
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
