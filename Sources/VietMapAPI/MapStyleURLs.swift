/// The absolute URL templates a generated style points at, built by the caller from the request's `Host` and
/// key (VietMap's styles carry the key on tile URLs only; glyphs and sprite go without — reference §2, §4).
/// The style writes them as given.
public struct MapStyleURLs: Sendable, Equatable {
    /// Vector tiles: `…/{z}/{x}/{y}.pbf?apikey=…`.
    public var tiles: String
    /// Raster tiles of the look: `…/{z}/{x}/{y}@2x.png?apikey=…`.
    public var raster: String
    /// `…/{fontstack}/{range}.pbf`.
    public var glyphs: String
    /// The sprite's base URL (MapLibre appends `[@2x].json` / `.png`).
    public var sprite: String

    /// Refuses relative URLs (GL JS rejects relative sprites; the style spec wants absolute glyph URLs) and
    /// templates without their placeholders.
    public init(tiles: String, raster: String, glyphs: String, sprite: String) throws(MapStyleError) {
        for (what, url) in [("tiles", tiles), ("raster", raster), ("glyphs", glyphs), ("sprite", sprite)] {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw .relativeURL(what, url) }
        }
        for (what, url, placeholders) in [("tiles", tiles, ["{z}", "{x}", "{y}"]), ("raster", raster, ["{z}", "{x}", "{y}"]),
                                          ("glyphs", glyphs, ["{fontstack}", "{range}"])] {
            for placeholder in placeholders where !url.contains(placeholder) { throw .missingPlaceholder(what, placeholder) }
        }
        self.tiles = tiles; self.raster = raster; self.glyphs = glyphs; self.sprite = sprite
    }
}
