import JSON
import MapTiles
import VietMapWire

/// The TileJSON document of a look's raster tiles: what `/maps/styles/{tm|lm|dm}/tiles.json` answers (S3 in the
/// reference; VietMap's plugins hand that URL to the map as a raster source). The simulator's choice, since the
/// live body is unseen: TileJSON 3.0.0 with the `@2x` raster template (512-px PNGs on the 256 grid), z0–20,
/// the dataset's bounds and centre.
public enum MapTileJSON {
    public static let version = "3.0.0"

    /// The TileJSON of `look`'s raster tiles at `rasterTemplate` (absolute, key included) over `extent`.
    public static func document(look: MapLook, rasterTemplate: String, extent: MapExtent) -> JSONValue {
        let center = extent.center
        func rounded(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
        return .object(JSONObject([
            ("tilejson", .string(version)),
            ("name", .string("VietMap Simulator \(MapStyleDocument.lookName(look)) (\(look.rawValue)) raster")),
            ("description", "Raster tiles drawn by the offline VietMap simulator from its OpenStreetMap dataset."),
            ("version", "1.0.0"),
            ("attribution", .string(MapStyleDocument.attribution)),
            ("scheme", "xyz"),
            ("tiles", .array([.string(rasterTemplate)])),
            ("minzoom", 0),
            ("maxzoom", .integer(MapStyleDocument.rasterMaxZoom)),
            ("bounds", .array(extent.degrees.map { .number(rounded($0)) })),
            ("center", .array([.number(rounded(center.longitude)), .number(rounded(center.latitude)), .number(extent.zoom)])),
        ]))
    }
}
