import Dataset
import Foundation
import JSON
import MapGlyphs
import MapTiles
import MBTiles
import Routing
import Search
import VietMapWire
import Zlib

/// What `MapExport` writes: which area, which look, how many glyph ranges.
public struct MapExportOptions: Sendable {
    public var area: MapExportArea
    public var look: MapLook
    /// The MBTiles `name` (default: the file's name without `.mbtiles`).
    public var name: String?
    /// Every glyph range 0-255 … 65280-65535 of every stack (what an offline pack holds), instead of only the
    /// ranges the exported names and the style's own label text need, plus 0-255.
    public var allGlyphRanges: Bool

    public init(area: MapExportArea, look: MapLook = .standard, name: String? = nil, allGlyphRanges: Bool = false) {
        self.area = area; self.look = look; self.name = name; self.allGlyphRanges = allGlyphRanges
    }
}

/// What an export wrote.
public struct MapExportSummary: Sendable {
    public var mbtilesPath: String
    public var stylePath: String
    public var assetsPath: String
    /// The box written (the dataset's for `--area dataset`), degrees.
    public var bounds: MBTilesMetadata.Bounds
    /// The zooms tiles were cut at (`MapExportArea.tileZooms`).
    public var tileZooms: ClosedRange<Int>
    /// Tiles stored (those with data) and tiles the box covers at those zooms.
    public var tilesWritten: Int
    public var tilesCovered: Int
    /// Gzipped tile bytes.
    public var tileBytes: Int
    public var glyphFiles: Int
    /// Glyph and sprite bytes.
    public var assetBytes: Int
}

/// Exports the simulator's map of an area for device tests with no server at all (`vietmap-sim export-tiles`):
/// an MBTiles 1.3 file of gzipped MVT tiles in VietMap's schema — metadata `name`, `format` pbf, `bounds`,
/// `center`, `minzoom`, `maxzoom`, `attribution`, `json` with `vector_layers` (their fields and types from the
/// features written) — and beside it the look's vector style pointing at it (`mbtiles:///…`) and at the glyphs
/// and sprite it also writes (`file:///…`, `MapExportAssets`).
///
/// Tiles are cut at `MapExportArea.tileZooms` (at most z15, VietMap's source maxzoom; clients overzoom deeper);
/// only tiles holding features are stored (MapLibre draws a missing tile as empty). Nothing is ever half
/// written: the MBTiles file, the style and the assets folder go to temporary names and are renamed into place
/// once all are complete.
public enum MapExport {
    /// `FILE.style.json` for `FILE.mbtiles` (or for `FILE` without that extension).
    public static func stylePath(for mbtilesPath: String) -> String { stem(mbtilesPath) + ".style.json" }
    /// `FILE.assets` for `FILE.mbtiles`.
    public static func assetsPath(for mbtilesPath: String) -> String { stem(mbtilesPath) + ".assets" }

    private static func stem(_ path: String) -> String {
        path.hasSuffix(".mbtiles") ? String(path.dropLast(".mbtiles".count)) : path
    }

    /// Exports from the dataset at `databasePath` to `path` (its folder must exist).
    public static func export(databasePath: String, to path: String, options: MapExportOptions) throws(MapExportError) -> MapExportSummary {
        let content: MapContent
        do {
            let graph = try RoadGraphStore.load(databasePath: databasePath)
            let search = try PlaceSearch(databasePath: databasePath)
            let shapes = try MapShapeStore.load(databasePath: databasePath)
            content = MapContent(graph: graph, search: search, shapes: shapes)
        } catch {
            throw .file("cannot read the dataset \(databasePath): \(error)")
        }
        return try export(content: content, to: path, options: options)
    }

    static func export(content: MapContent, to path: String, options: MapExportOptions) throws(MapExportError) -> MapExportSummary {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let built = content.content
        guard let dataBounds = built.dataBounds else { throw .noData("the dataset has no map features") }
        var area = options.area
        if area.isWholeDataset {
            let northWest = WorldPoint(x: dataBounds.minX, y: dataBounds.minY), southEast = WorldPoint(x: dataBounds.maxX, y: dataBounds.maxY)
            // Rounded outwards to 1e-6° (≈ 0.1 m): the metadata reads "106.6835", not "106.68349999999999".
            area.west = (northWest.longitude * 1e6).rounded(.down) / 1e6; area.north = (northWest.latitude * 1e6).rounded(.up) / 1e6
            area.east = (southEast.longitude * 1e6).rounded(.up) / 1e6; area.south = (southEast.latitude * 1e6).rounded(.down) / 1e6
        }
        let box = area.worldBounds
        let zooms = area.tileZooms
        guard !built.index.featureIndices(intersecting: box, zoom: zooms.upperBound).isEmpty, box.intersects(dataBounds) else {
            throw .noData("the dataset has no map features in \(area.west),\(area.south),\(area.east),\(area.north) (its data lies in \(MapExtent(bounds: dataBounds).degrees.map { String(format: "%.4f", $0) }.joined(separator: ",")))")
        }
        // What the tiles hold: the box grown to the edges of its coarsest tiles and their buffer. A client draws every
        // label of a tile it loads (an overzoomed z15 tile reaches past the box), so glyph ranges come from all of it:
        // MapLibre Native fails a render whose glyph file is missing (a file:// miss is an error, not a 404).
        // Tiles at the source's max zoom hold every deeper feature too (`VectorTileBuilder`).
        let deepest = zooms.upperBound >= VietMapTileSchema.maxZoom ? TileID.maxZoom : zooms.upperBound
        let inTiles = built.index.featureIndices(intersecting: try coverBounds(box, zoom: zooms.lowerBound), zoom: deepest)
            .map { built.index.features[$0] }
        let extent = MapExtent(bounds: box, zoom: Double(min(max(zooms.lowerBound, (zooms.lowerBound + zooms.upperBound + 1) / 2), zooms.upperBound)))
        let bounds = MBTilesMetadata.Bounds(west: area.west, south: area.south, east: area.east, north: area.north)
        let metadata = MBTilesMetadata(
            name: options.name ?? URL(fileURLWithPath: stem(absolute)).lastPathComponent, format: .pbf, bounds: bounds,
            center: .init(longitude: (extent.center.longitude * 1e6).rounded() / 1e6, latitude: (extent.center.latitude * 1e6).rounded() / 1e6,
                          zoom: Int(extent.zoom)),
            minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, attribution: MapStyleDocument.attribution,
            description: "VietMap Simulator map (\(options.look.rawValue)) exported by vietmap-sim export-tiles from its OpenStreetMap dataset",
            vectorLayers: vectorLayers(inTiles, zooms: zooms))

        let assets = MapExportAssets(stylePath: stylePath(for: absolute), assetsPath: assetsPath(for: absolute))
        var written = 0, covered = 0, tileBytes = 0
        let writer: MBTilesWriter
        do {
            writer = try MBTilesWriter(path: absolute)
        } catch {
            throw .file(error.description)
        }
        do {
            try writer.setMetadata(metadata)
            // Only tiles with some feature (of any zoom) are walked, and at the next zoom only their children: a
            // box as wide as the dataset (HCMC to Hanoi) costs the tiles of its two cities, not the whole cover.
            var live: [TileID]?
            for z in zooms {
                let cover = try TileCover(z: z, covering: box)
                covered += cover.count
                let candidates: [TileID]
                if let live {
                    candidates = live.flatMap { parent in
                        [(0, 0), (1, 0), (0, 1), (1, 1)].compactMap { TileID(z: z, x: parent.x * 2 + $0.0, y: parent.y * 2 + $0.1) }
                    }.filter { cover.contains($0) }
                } else {
                    guard cover.count <= maxFirstZoomTiles else {
                        throw MapExportError.invalidArea("the box covers \(cover.count) tiles at z\(z) (at most \(maxFirstZoomTiles) at the first zoom): narrow --bbox or start --zoom lower")
                    }
                    candidates = Array(cover)
                }
                var next: [TileID] = []
                for id in candidates where id.worldBounds.intersects(dataBounds) {
                    let margin = Double(built.tiles.buffer) / Double(built.tiles.extent) / Double(id.tilesPerSide)
                    guard !built.index.featureIndices(intersecting: id.worldBounds.expanded(by: margin), zoom: TileID.maxZoom).isEmpty else {
                        continue
                    }
                    next.append(id)
                    let tile = built.tiles.tile(id)
                    guard !tile.isEmpty else { continue }
                    let gzipped = Deflate.compress(tile.data, format: .gzip)
                    try writer.addTile(z: id.z, x: id.x, y: id.y, data: gzipped)
                    written += 1
                    tileBytes += gzipped.count
                }
                live = next
            }
        } catch let error as MapExportError {
            writer.cancel()
            throw error
        } catch {
            writer.cancel()
            throw .file("cannot write \(absolute): \(error)")
        }
        let style = try MapExportAssets.style(look: options.look, mbtilesPath: absolute, assetsPath: assets.assetsPath, extent: extent)
        let ranges = options.allGlyphRanges ? allRanges : glyphRanges(for: inTiles, style: style)
        let files: (glyphFiles: Int, bytes: Int)
        do {
            files = try assets.write(style: style, stacks: MapStyleDocument.fontStacks, ranges: ranges)
        } catch {
            writer.cancel()
            throw error
        }
        do {
            try writer.finish()
        } catch {
            assets.discard()
            throw .file("cannot write \(absolute): \(error)")
        }
        try assets.commit()
        return MapExportSummary(mbtilesPath: absolute, stylePath: assets.stylePath, assetsPath: assets.assetsPath, bounds: bounds,
                                tileZooms: zooms, tilesWritten: written, tilesCovered: covered, tileBytes: tileBytes,
                                glyphFiles: files.glyphFiles, assetBytes: files.bytes)
    }

    /// The tiles at `zoom` covering `box`, as one box grown by the tile builder's buffer (64 of 4096 units).
    static func coverBounds(_ box: WorldBounds, zoom: Int) throws(MapExportError) -> WorldBounds {
        let cover: TileCover
        do { cover = try TileCover(z: zoom, covering: box) } catch { throw .invalidArea("\(error)") }
        let side = 1 / Double(1 << zoom)
        return WorldBounds(minX: Double(cover.columns.lowerBound) * side, minY: Double(cover.rows.lowerBound) * side,
                           maxX: Double(cover.columns.upperBound + 1) * side, maxY: Double(cover.rows.upperBound + 1) * side)
            .expanded(by: side * 64 / 4096)
    }

    /// The most tiles the box may cover at the first zoom (deeper zooms walk only the children of tiles with data).
    public static let maxFirstZoomTiles = 1 << 20

    /// Every range 0-255 … 65280-65535.
    static let allRanges: [GlyphRange] = (0..<256).compactMap { GlyphRange(start: UInt32($0) * 256) }

    /// 0-255, the ranges of the characters the style's `text-field`s write themselves (the one-way arrow "→",
    /// U+2192: 8448-8703) and of every character of every text attribute of `features`: the labels the style can
    /// draw from them.
    static func glyphRanges(for features: [MapFeature], style: JSONValue) -> [GlyphRange] {
        var starts: Set<UInt32> = [0]
        func addText(_ value: JSONValue) {
            switch value {
            case .string(let text): for scalar in text.unicodeScalars { starts.insert(scalar.value & ~0xFF) }
            case .array(let items): items.forEach(addText)
            case .object(let object): for member in object { addText(member.value) }
            default: break
            }
        }
        for layer in style["layers"]?.arrayValue ?? [] {
            if let field = layer["layout"]?["text-field"] { addText(field) }
        }
        for feature in features {
            for property in feature.properties {
                guard case .string(let text) = property.value else { continue }
                for scalar in text.unicodeScalars { starts.insert(scalar.value & ~0xFF) }
            }
        }
        return starts.sorted().compactMap { GlyphRange(start: $0) }
    }

    /// `vector_layers`: each source layer of `features`, its attributes typed as MBTiles names them (`String`,
    /// `Number`, `Boolean`), from its first zoom (not before `zooms`) to the last zoom written.
    static func vectorLayers(_ features: [MapFeature], zooms: ClosedRange<Int>) -> [MBTilesMetadata.VectorLayer] {
        var layers: [String: MBTilesMetadata.VectorLayer] = [:]
        var order: [String] = []
        for feature in features {
            if layers[feature.layer] == nil {
                order.append(feature.layer)
                layers[feature.layer] = .init(id: feature.layer, minZoom: zooms.upperBound, maxZoom: zooms.upperBound)
            }
            layers[feature.layer]!.minZoom = min(layers[feature.layer]!.minZoom, max(feature.minZoom, zooms.lowerBound))
            for property in feature.properties where layers[feature.layer]!.fields[property.key] == nil {
                let type: String
                switch property.value {
                case .string: type = "String"
                case .int, .double: type = "Number"
                case .bool: type = "Boolean"
                }
                layers[feature.layer]!.fields[property.key] = type
            }
        }
        return order.map { layers[$0]! }
    }
}
