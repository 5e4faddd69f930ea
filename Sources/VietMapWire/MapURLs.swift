/// The absolute URLs a generated style names, on the base the caller reached (`MapBaseURL`) and
/// with the caller's key where VietMap's own style carries one (reference map-screens §2, §7:
/// tileserver-gl's lesson — host from the request, key propagated):
///
/// | | template | key |
/// |---|---|---|
/// | vector tiles | `{base}/api/maps/data/sim-{dataset}/{z}/{x}/{y}.pbf?apikey=KEY` | yes |
/// | raster tiles | `{base}/api/{look}/{z}/{x}/{y}@2x.png?apikey=KEY` | yes |
/// | glyphs | `{base}/mt/fonts/{fontstack}/{range}.pbf` | no |
/// | sprite | `{base}/mt/styles/{look}/sprite` | no |
///
/// The key is percent-encoded (everything but RFC 3986's unreserved characters); a missing or
/// empty key adds no `apikey` at all. `{z}`, `{x}`, `{y}`, `{fontstack}`, `{range}` are left for
/// MapLibre to fill. Every URL built here is one `MapPath` reads back.
public struct MapURLs: Sendable, Hashable {
    public let base: MapBaseURL
    /// The caller's key as sent (not yet encoded); nil or empty: none.
    public let key: String?

    public init(base: MapBaseURL, key: String?) {
        self.base = base
        self.key = key
    }

    /// The prefix of the simulator's dataset ids in tile URLs (`sim-<id>`).
    public static let datasetPrefix = "sim-"

    /// Vector tiles of the dataset `datasetID` (the `sim-` prefix is added; the id is percent-encoded).
    public func vectorTiles(datasetID: String) -> String {
        "\(base)/api/maps/data/\(Self.datasetPrefix)\(Self.percentEncoded(datasetID))/{z}/{x}/{y}.pbf" + keyQuery
    }

    /// 512-px raster tiles of `look` (`tileSize` 256 in the style).
    public func rasterTiles(look: MapLook) -> String {
        "\(base)/api/\(look.rawValue)/{z}/{x}/{y}@2x.png" + keyQuery
    }

    /// The glyphs template (no key).
    public var glyphs: String { "\(base)/mt/fonts/{fontstack}/{range}.pbf" }

    /// The sprite base of `look`: MapLibre appends `[@2x].json`/`.png` (no key).
    public func sprite(look: MapLook) -> String { "\(base)/mt/styles/\(look.rawValue)/sprite" }

    /// `?apikey=KEY`, or nothing without a key.
    public var keyQuery: String {
        guard let key, !key.isEmpty else { return "" }
        return "?" + APIParameter.apikey.name + "=" + Self.percentEncoded(key)
    }

    /// `text` with every byte but `A–Z a–z 0–9 - . _ ~` as `%XX` (upper-case hex).
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
