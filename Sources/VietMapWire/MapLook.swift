/// The three looks VietMap's map styles come in, named by the path segment its URLs use
/// (`/maps/styles/tm/style.json`, `/api/tm/{z}/{x}/{y}@2x.png`): the default look, light and dark.
/// Style, raster tiles and sprites of one look share its palette.
public enum MapLook: String, Sendable, CaseIterable, Hashable {
    /// `tm`: VietMap's default look (`/api/maps/light/styles.json` in the oldest generation is this look too).
    case standard = "tm"
    /// `lm`: light.
    case light = "lm"
    /// `dm`: dark (`/api/maps/dark/styles.json`).
    case dark = "dm"
}

/// What a style document draws its map from: VietMap's vector tiles, or its raster tiles (the
/// `raster` style of `/api/maps/raster/styles.json` and the `tiles.json` URLs used as raster styles).
public enum MapStyleFlavour: String, Sendable, CaseIterable, Hashable {
    case vector
    case raster
}
