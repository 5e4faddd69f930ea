/// The map request a path names, read from every URL generation of reference map-screens §2:
///
/// | | paths |
/// |---|---|
/// | style | S1 `/api/maps/{light,dark,raster,satellite,hybrid,google,google-satellite}/styles.json`, S2 `/maps/styles/{look}/style.json`, S4 `/mt/{look}/style.json` |
/// | TileJSON | S3 `/maps/styles/{look}/tiles.json`, X1 `/api/terrain-tiles/tiles.json` |
/// | vector tile | V1/V2 `/api/maps/data/{dataset}/{z}/{x}/{y}[.pbf]`, traffic `/maps/tiles/tf/{z}/{x}/{y}.pbf` (dataset `tf`) |
/// | raster tile | R1 `/api/{look}/{z}/{x}/{y}[@2x][.png]`, R2 `/{look}/…`, R3 `/maps/tiles/{look,st,tf}/…`, R4 `/api/maps/raster/v3/…`, `/api/tf/…` |
/// | glyphs | G1 `/mt/fonts/{stack}/{range}.pbf`, G2 `/maps/fonts/…`, `/api/fonts/…`, G3 `/api/font/…` |
/// | sprite | P1 `/mt/styles/[{look}/]sprite[@2x].{json,png}`, P2 `/maps/styles/…` |
///
/// `{look}` is `tm`, `lm` or `dm` (`MapLook`). A path of one of these shapes is a map path even
/// when its values are bad: `request` is then the error to answer — 400 for a malformed or
/// impossible z/x/y, scale or glyph range, 404 for a look or style name that does not exist.
/// A path of no such shape is no map path (`init` fails: the front door's 404).
///
/// Bounded: a path longer than `maxPathBytes` is none, at most `maxSegments` segments are split off.
public struct MapPath: Sendable, Equatable {
    public let endpoint: APIEndpoint
    public let request: Result<MapRequest, APIError>

    /// The deepest zoom a tile may have (`x, y < 2^z` then fit in 8 digits).
    public static let maxZoom = 24
    /// More `/`-separated segments than this are no map path.
    static let maxSegments = 8
    /// A longer path is no map path (a font stack of a few names, a dataset id: far less).
    public static let maxPathBytes = 2_048

    public init(endpoint: APIEndpoint, request: Result<MapRequest, APIError>) {
        self.endpoint = endpoint
        self.request = request
    }

    /// Reads `path` (without the query; percent-decoded or raw). Nil when it is no map path.
    public init?(path: String) {
        guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= Self.maxPathBytes,
              let segments = Self.segments(path) else { return nil }
        guard let found = Self.read(segments) else { return nil }
        self = found
    }

    /// Whether `path` has the shape of a V1/V2 vector tile, `/api/maps/data/{dataset}/{z}/{x}/{y}[.pbf]` (seven
    /// segments, none empty): `init(path:)` then always names `.vectorTile`, whatever the values. Read from the bytes
    /// without making segments: a tile request's endpoint is asked several times (front door, scenarios, cost), and
    /// the whole reading is left to the map endpoint. The words are ASCII, so comparing bytes is exact.
    static func hasVectorTileShape(_ path: String) -> Bool {
        let prefix: StaticString = "/api/maps/data/"
        let prefixCount = prefix.utf8CodeUnitCount
        var path = path
        path.makeContiguousUTF8()
        let utf8 = path.utf8
        guard utf8.count > prefixCount, utf8.count <= maxPathBytes else { return false }
        return utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard prefix.withUTF8Buffer({ bytes.starts(with: $0) }) else { return false }
            var slashes = 0, previous = prefixCount - 1
            for index in prefixCount..<bytes.count where bytes[index] == UInt8(ascii: "/") {
                guard index != previous + 1 else { return false }
                slashes += 1
                previous = index
            }
            return slashes == 3 && previous != bytes.count - 1
        } ?? false
    }

    /// The `/`-separated segments after the leading `/`; nil when there are more than `maxSegments` or one is
    /// empty. One pass over the bytes (every request's endpoint is read from its path, several times): slashes found
    /// in the contiguous bytes, the segments made from String indices at their offsets (O(1) in a native string).
    /// A request's path is a native string, so `makeContiguousUTF8` costs nothing; a bridged one is copied once.
    private static func segments(_ path: String) -> [Substring]? {
        var path = path
        path.makeContiguousUTF8()
        let utf8 = path.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> [Substring]? in
            var segments: [Substring] = []
            segments.reserveCapacity(maxSegments)
            var start = 1
            for end in 1...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                guard end != start, segments.count < maxSegments else { return nil }
                let lower = utf8.index(utf8.startIndex, offsetBy: start)
                segments.append(Substring(utf8[lower..<utf8.index(lower, offsetBy: end - start)]))
                start = end + 1
            }
            return segments
        } ?? nil
    }

    // MARK: Shapes

    private static func read(_ s: [Substring]) -> MapPath? {
        switch s[0] {
        case "api": return readAPI(s)
        case "maps": return readMaps(s)
        case "mt": return readMT(s)
        default:
            // R2 `/{look}/{z}/{x}/{y}@2x.png`.
            guard s.count == 4, let look = MapLook(rawValue: String(s[0])) else { return nil }
            return raster(.look(look), s[1], s[2], s[3])
        }
    }

    private static func readAPI(_ s: [Substring]) -> MapPath? {
        guard s.count >= 3 else { return nil }
        switch s[1] {
        case "maps":
            if s.count == 4, s[3] == "styles.json" {
                guard let name = MapStyleName(rawValue: String(s[2])) else {
                    return MapPath(endpoint: .mapStyle, request: .failure(.notFound(
                        "no map style '\(s[2].prefix(40))'; styles: \(MapStyleName.allCases.map(\.rawValue).joined(separator: ", "))")))
                }
                let style = MapRequest.Style(flavour: name.flavour, look: name.look, generation: .apiMaps, name: name)
                return MapPath(endpoint: .mapStyle, request: .success(.style(style)))
            }
            if s.count == 7, s[2] == "data" { return vector(dataset: s[3], s[4], s[5], s[6]) }
            if s.count == 7, s[2] == "raster", s[3] == "v3" { return raster(.look(.standard), s[4], s[5], s[6]) }
            return nil
        case "fonts", "font":
            return s.count == 4 ? glyphs(s[2], s[3]) : nil
        case "terrain-tiles":
            return s.count == 3 && s[2] == "tiles.json" ? MapPath(endpoint: .mapTileJSON, request: .success(.tileJSON(.terrain))) : nil
        case "tf":
            return s.count == 5 ? raster(.traffic, s[2], s[3], s[4]) : nil
        default:
            guard s.count == 5, let look = MapLook(rawValue: String(s[1])) else { return nil }
            return raster(.look(look), s[2], s[3], s[4])
        }
    }

    private static func readMaps(_ s: [Substring]) -> MapPath? {
        guard s.count >= 3 else { return nil }
        switch s[1] {
        case "styles":
            if s.count == 3 { return sprite(look: nil, file: s[2]) }
            guard s.count == 4 else { return nil }
            switch s[3] {
            case "style.json":
                return lookPath(.mapStyle, s[2]) { .style(MapRequest.Style(flavour: .vector, look: $0, generation: .mapsStyles)) }
            case "tiles.json":
                return lookPath(.mapTileJSON, s[2]) { .tileJSON(.look($0)) }
            default:
                guard isSpriteFile(s[3]) else { return nil }
                guard let look = MapLook(rawValue: String(s[2])) else { return unknownLook(.sprite, s[2]) }
                return sprite(look: look, file: s[3])
            }
        case "fonts":
            return s.count == 4 ? glyphs(s[2], s[3]) : nil
        case "tiles":
            guard s.count == 6 else { return nil }
            switch s[2] {
            case "st": return raster(.satellite, s[3], s[4], s[5])
            case "tf": return s[5].hasASCIISuffix(".pbf") ? vector(dataset: "tf", s[3], s[4], s[5]) : raster(.traffic, s[3], s[4], s[5])
            default:
                guard let look = MapLook(rawValue: String(s[2])) else { return unknownLook(.rasterTile, s[2]) }
                return raster(.look(look), s[3], s[4], s[5])
            }
        default:
            return nil
        }
    }

    private static func readMT(_ s: [Substring]) -> MapPath? {
        guard s.count >= 3 else { return nil }
        switch s[1] {
        case "fonts":
            return s.count == 4 ? glyphs(s[2], s[3]) : nil
        case "styles":
            if s.count == 3 { return sprite(look: nil, file: s[2]) }
            guard s.count == 4, isSpriteFile(s[3]) else { return nil }
            guard let look = MapLook(rawValue: String(s[2])) else { return unknownLook(.sprite, s[2]) }
            return sprite(look: look, file: s[3])
        default:
            // S4 `/mt/{look}/style.json`.
            guard s.count == 3, s[2] == "style.json" else { return nil }
            return lookPath(.mapStyle, s[1]) { .style(MapRequest.Style(flavour: .vector, look: $0, generation: .mt)) }
        }
    }

    // MARK: Values

    private static func lookPath(_ endpoint: APIEndpoint, _ segment: Substring, _ make: (MapLook) -> MapRequest) -> MapPath {
        guard let look = MapLook(rawValue: String(segment)) else { return unknownLook(endpoint, segment) }
        return MapPath(endpoint: endpoint, request: .success(make(look)))
    }

    private static func unknownLook(_ endpoint: APIEndpoint, _ segment: Substring) -> MapPath {
        MapPath(endpoint: endpoint, request: .failure(.notFound(
            "no map look '\(segment.prefix(40))'; looks: \(MapLook.allCases.map(\.rawValue).joined(separator: ", "))")))
    }

    private static func vector(dataset: Substring, _ z: Substring, _ x: Substring, _ y: Substring) -> MapPath {
        var y = y
        if let base = y.droppingASCIISuffix(".pbf") { y = base }
        let request = tile(z, x, y).map { MapRequest.vectorTile(MapRequest.VectorTile(dataset: String(dataset), tile: $0)) }
        return MapPath(endpoint: .vectorTile, request: request)
    }

    private static func raster(_ layer: MapRequest.RasterTile.Layer, _ z: Substring, _ x: Substring, _ y: Substring) -> MapPath {
        var y = y
        if let base = y.droppingASCIISuffix(".png") { y = base }
        var scale = 1
        if let at = y.lastIndex(of: "@") {
            let suffix = y[y.index(after: at)...]
            switch suffix {
            case "1x": scale = 1
            case "2x": scale = 2
            default:
                return MapPath(endpoint: .rasterTile, request: .failure(.invalidRequest(
                    "raster tile scale '@\(suffix.prefix(20))' is not served; use @2x (512 px) or none (256 px)")))
            }
            y = y[..<at]
        }
        let request = tile(z, x, y).map { MapRequest.rasterTile(MapRequest.RasterTile(layer: layer, tile: $0, scale: scale)) }
        return MapPath(endpoint: .rasterTile, request: request)
    }

    /// z/x/y as non-negative decimal numbers (digits only), z ≤ `maxZoom`, x and y below 2^z.
    private static func tile(_ z: Substring, _ x: Substring, _ y: Substring) -> Result<MapRequest.Tile, APIError> {
        guard let zoom = number(z, digits: 2), let column = number(x, digits: 8), let row = number(y, digits: 8) else {
            return .failure(.invalidRequest("tile '\(z.prefix(12))/\(x.prefix(12))/\(y.prefix(12))' is not z/x/y in decimal digits"))
        }
        guard zoom <= maxZoom else {
            return .failure(.invalidRequest("tile zoom \(zoom) is beyond the deepest, \(maxZoom)"))
        }
        let side = 1 << zoom
        guard column < side, row < side else {
            return .failure(.invalidRequest("tile \(zoom)/\(column)/\(row) does not exist: x and y must be below \(side) at zoom \(zoom)"))
        }
        return .success(MapRequest.Tile(z: zoom, x: column, y: row))
    }

    /// A decimal number of at most `digits` digits (no sign, no spaces), nil otherwise.
    private static func number(_ text: Substring, digits: Int) -> Int? {
        guard !text.isEmpty, text.utf8.count <= digits else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func glyphs(_ stack: Substring, _ rangeSegment: Substring) -> MapPath {
        let range = rangeSegment.droppingASCIISuffix(".pbf") ?? rangeSegment
        let bounds = range.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = number(bounds[0], digits: 5), let last = number(bounds[1], digits: 5),
              first % 256 == 0, last == first + 255, last <= 65_535 else {
            return MapPath(endpoint: .glyphs, request: .failure(.invalidRequest(
                "glyph range '\(range.prefix(24))' is not N-(N+255) with N a multiple of 256 below 65536 (e.g. 0-255.pbf)")))
        }
        let glyphs = MapRequest.Glyphs(fontStack: String(stack), range: String(range), firstCodePoint: first)
        return MapPath(endpoint: .glyphs, request: .success(.glyphs(glyphs)))
    }

    private static func isSpriteFile(_ file: Substring) -> Bool {
        file.hasASCIIPrefix("sprite") && (file.hasASCIISuffix(".json") || file.hasASCIISuffix(".png"))
    }

    /// `sprite[@Nx].{json,png}`; nil for another file name (no map path), an error for a scale but 1 or 2.
    private static func sprite(look: MapLook?, file: Substring) -> MapPath? {
        guard isSpriteFile(file) else { return nil }
        let format: MapRequest.Sprite.Format = file.hasASCIISuffix(".json") ? .json : .png
        let variant = file.dropFirst("sprite".count).dropLast(format == .json ? 5 : 4)
        let scale: Int
        switch variant {
        case "", "@1x": scale = 1
        case "@2x": scale = 2
        default:
            guard variant.hasPrefix("@") else { return nil }
            return MapPath(endpoint: .sprite, request: .failure(.invalidRequest(
                "sprite scale '\(variant.prefix(20))' is not served; use sprite or sprite@2x")))
        }
        return MapPath(endpoint: .sprite, request: .success(.sprite(MapRequest.Sprite(look: look, scale: scale, format: format))))
    }
}

extension Substring {
    /// `hasSuffix(suffix)` for an ASCII `suffix`, comparing bytes: `Substring.hasSuffix` takes a generic path that
    /// cost more than the rest of reading a tile path. The same answer: when the byte before the suffix is ASCII
    /// (or there is none), a character boundary lies there; otherwise the Unicode comparison decides.
    fileprivate func hasASCIISuffix(_ suffix: StaticString) -> Bool {
        let bytes = utf8, count = suffix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = bytes.index(bytes.endIndex, offsetBy: -count)
        let same = suffix.withUTF8Buffer { bytes[start...].elementsEqual($0) }
        guard same, start != bytes.startIndex, bytes[bytes.index(before: start)] >= 0x80 else { return same }
        return hasSuffix(String(decoding: UnsafeBufferPointer(start: suffix.utf8Start, count: count), as: UTF8.self))
    }

    /// What is left of the text before an ASCII `suffix` it ends with (`dropLast` of its characters), nil when it
    /// does not end with it. Cut at the byte offset when the byte before is ASCII (a character boundary).
    fileprivate func droppingASCIISuffix(_ suffix: StaticString) -> Substring? {
        guard hasASCIISuffix(suffix) else { return nil }
        let bytes = utf8, count = suffix.utf8CodeUnitCount
        let start = bytes.index(bytes.endIndex, offsetBy: -count)
        guard start == bytes.startIndex || bytes[bytes.index(before: start)] < 0x80 else { return dropLast(count) }
        return Substring(bytes[..<start])
    }

    /// `hasPrefix(prefix)` for an ASCII `prefix`, comparing bytes (see `hasASCIISuffix`).
    fileprivate func hasASCIIPrefix(_ prefix: StaticString) -> Bool {
        let bytes = utf8, count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let end = bytes.index(bytes.startIndex, offsetBy: count)
        let same = prefix.withUTF8Buffer { bytes[..<end].elementsEqual($0) }
        guard same, end != bytes.endIndex, bytes[end] >= 0x80 else { return same }
        return hasPrefix(String(decoding: UnsafeBufferPointer(start: prefix.utf8Start, count: count), as: UTF8.self))
    }
}
