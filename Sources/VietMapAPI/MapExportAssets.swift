import Foundation
import JSON
import MapGlyphs
import MapTiles
import VietMapWire

/// The files beside an exported MBTiles file that make it a map with no server: the style `FILE.style.json`
/// (its vector source `mbtiles:///<absolute path>`, glyphs and sprite `file://` URLs into `FILE.assets/`) and
/// `FILE.assets/fonts/{fontstack}/{range}.pbf` plus `FILE.assets/sprite[@2x].{json,png}`.
///
/// Written as MBTilesWriter writes: into temporary names beside the targets (`.FILE.assets.<uuid>.tmp`,
/// `.FILE.style.json.<uuid>.tmp`), moved into place by `commit()` only after the MBTiles file is finished;
/// `discard()` (or a failure) removes them. A reader never sees half a style or half a folder.
struct MapExportAssets {
    /// Where the style and the assets end up.
    let stylePath: String
    let assetsPath: String
    private let temporaryAssets: String
    private let temporaryStyle: String

    init(stylePath: String, assetsPath: String) {
        self.stylePath = stylePath
        self.assetsPath = assetsPath
        let id = UUID().uuidString
        temporaryAssets = Self.hidden(assetsPath, id)
        temporaryStyle = Self.hidden(stylePath, id)
    }

    /// `/dir/.name.<id>.tmp` for `/dir/name`.
    private static func hidden(_ path: String, _ id: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(id).tmp").path
    }

    /// Writes the glyph ranges `ranges` of every stack in `stacks`, the sprite at ratios 1 and 2, and `style`,
    /// all under their temporary names. Returns the number of glyph files and their bytes.
    func write(style: JSONValue, stacks: [String], ranges: [GlyphRange]) throws(MapExportError) -> (glyphFiles: Int, bytes: Int) {
        var files = 0, bytes = 0
        do {
            let fonts = URL(fileURLWithPath: temporaryAssets).appendingPathComponent("fonts")
            for stack in stacks {
                let folder = fonts.appendingPathComponent(stack)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for range in ranges {
                    let pbf = GlyphLibrary.shared.pbf(stack: [stack], range: range)
                    try Data(pbf).write(to: folder.appendingPathComponent("\(range).pbf"))
                    files += 1
                    bytes += pbf.count
                }
            }
            for ratio in [1, 2] {
                let atlas = try SpriteAtlas.build(icons: MapSpriteIcons.icons, pixelRatio: ratio)
                let name = ratio == 1 ? "sprite" : "sprite@2x"
                try Data(atlas.json).write(to: URL(fileURLWithPath: temporaryAssets).appendingPathComponent(name + ".json"))
                try Data(atlas.png).write(to: URL(fileURLWithPath: temporaryAssets).appendingPathComponent(name + ".png"))
                bytes += atlas.json.count + atlas.png.count
            }
            try Data(JSONPrettyPrinter.string(style).utf8).write(to: URL(fileURLWithPath: temporaryStyle))
        } catch {
            discard()
            throw .file("cannot write the style or its assets beside \(stylePath): \(error)")
        }
        return (files, bytes)
    }

    /// Moves the style and the folder into place (an older folder of the same name is replaced).
    func commit() throws(MapExportError) {
        var old: String?
        if FileManager.default.fileExists(atPath: assetsPath) {
            let aside = Self.hidden(assetsPath, "old-" + UUID().uuidString)
            guard rename(assetsPath, aside) == 0 else { throw failure("move the old \(assetsPath) aside") }
            old = aside
        }
        guard rename(temporaryAssets, assetsPath) == 0 else {
            let error = failure("rename \(temporaryAssets) to \(assetsPath)")
            if let old { _ = rename(old, assetsPath) }
            throw error
        }
        if let old { try? FileManager.default.removeItem(atPath: old) }
        guard rename(temporaryStyle, stylePath) == 0 else { throw failure("rename \(temporaryStyle) to \(stylePath)") }
    }

    /// Removes whatever is still under a temporary name.
    func discard() {
        try? FileManager.default.removeItem(atPath: temporaryAssets)
        unlink(temporaryStyle)
    }

    private func failure(_ what: String) -> MapExportError {
        let reason = String(cString: strerror(errno))
        discard()
        return .file("cannot \(what): \(reason)")
    }

    // MARK: The style

    /// The look's vector style with its source read from `mbtilesPath` and its glyphs and sprite from `assetsPath`
    /// (both absolute), opening at `extent`.
    static func style(look: MapLook, mbtilesPath: String, assetsPath: String, extent: MapExtent) throws(MapExportError) -> JSONValue {
        // The style is made with placeholder http URLs, then its source and resource URLs are replaced.
        let placeholder = "http://offline.invalid"
        let urls: MapStyleURLs
        do {
            urls = try MapStyleURLs(tiles: placeholder + "/{z}/{x}/{y}.pbf", raster: placeholder + "/{z}/{x}/{y}.png",
                                    glyphs: placeholder + "/{fontstack}/{range}.pbf", sprite: placeholder + "/sprite")
        } catch {
            throw .file("cannot make the style: \(error)")
        }
        guard case .object(var style) = MapStyleDocument.style(flavour: .vector, look: look, urls: urls, extent: extent) else {
            throw .file("cannot make the style: not an object")
        }
        style["sources"] = .object(JSONObject([(MapStyleDocument.vectorSource, .object(JSONObject([
            ("type", "vector"),
            ("url", .string("mbtiles://" + mbtilesPath)),
            ("attribution", .string(MapStyleDocument.attribution)),
        ])))]))
        let assets = fileURL(assetsPath)
        style["sprite"] = .string(assets + "/sprite")
        style["glyphs"] = .string(assets + "/fonts/{fontstack}/{range}.pbf")
        return .object(style)
    }

    /// `file://` + the absolute path, percent-encoded where a URL path needs it (MapLibre decodes it).
    static func fileURL(_ absolutePath: String) -> String {
        "file://" + (absolutePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolutePath)
    }
}
