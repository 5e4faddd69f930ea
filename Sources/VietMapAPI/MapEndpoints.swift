import Dataset
import Foundation
import HTTPServer
import JSON
import MapGlyphs
import MapTiles
import StableHashing
import VietMapWire
import VietMapWireHTTP
import Zlib

/// The one entry point of the map endpoints (`APIFamily.map`: styles, TileJSON, vector and raster tiles, glyphs,
/// sprites), after the front door's checks (method, query, key where required).
///
/// It reads the path (`MapPath`): a malformed or impossible z/x/y, scale or glyph range is a 400, an unknown look or
/// style name a 404, both in the map envelope (VietMap's `{"code","message"}`). Then:
/// - styles and TileJSON are made per request (`MapStyleDocument`, `MapTileJSON`) with absolute inner URLs built
///   from the request's `Host` and key (`MapURLs`); `Cache-Control: no-cache` (they depend on the caller);
/// - vector tiles are cut from the dataset's features (`MapContent`): MVT, gzipped with `Content-Encoding: gzip`
///   when the client accepts it; a tile with nothing in it is a 204, a tile outside the data a 404 (MapLibre shows
///   both as empty); raster tiles are drawn with Cairo in the look's palette (`MapRasterPaint`), 256 px or 512 px
///   (`@2x`); glyph ranges come from the embedded Roboto fonts (`GlyphLibrary`); the sprite is drawn by the
///   project (`MapSpriteIcons`);
/// - tiles, glyphs and sprites carry an `ETag` (a hash of the bytes; `If-None-Match` gets a 304) and
///   `Cache-Control: public, max-age=3600`; every map answer has `Access-Control-Allow-Origin: *`.
struct MapEndpoints: Sendable {
    /// The base URL inner URLs fall back to when a request's `Host` is missing or implausible.
    let listening: MapBaseURL
    private let content: MapContent
    private let cache: MapResourceCache

    init(content: MapContent, listening: MapBaseURL = MapEndpoints.defaultListening,
         cacheBytes: Int = MapResourceCache.defaultBudgetBytes) {
        self.content = content
        self.listening = listening
        cache = MapResourceCache(budgetBytes: cacheBytes)
    }

    /// `http://127.0.0.1:8080`, `serve`'s default address.
    static let defaultListening = MapBaseURL(scheme: "http", authority: "127.0.0.1:8080")!

    /// How long clients may keep a tile, glyph range or sprite before asking again (with `If-None-Match`).
    static let cacheControl = "public, max-age=3600"

    /// The answer to `request`, admitted by the front door for `endpoint` (a map endpoint).
    func respond(to request: HTTPRequest, endpoint: APIEndpoint) -> HTTPResponse {
        guard let parsed = MapPath(path: request.path), parsed.endpoint == endpoint else {
            return APIResponses.error(.notFound("no such map resource: \(request.path.prefix(200))"), for: endpoint)
        }
        switch parsed.request {
        case .failure(let error):
            return APIResponses.error(error, for: endpoint)
        case .success(let mapRequest):
            do throws(APIError) {
                return try produce(mapRequest, request: request)
            } catch {
                return APIResponses.error(error, for: endpoint)
            }
        }
    }

    /// The inner URLs of a style or TileJSON made for `request` (its `Host` and key).
    private func urls(for request: HTTPRequest) -> MapURLs {
        MapURLs(base: MapBaseURL.of(request, listening: listening), key: FrontDoor.presentedKey(request))
    }

    /// The resource `mapRequest` names (styles and TileJSON with inner URLs for `request`).
    private func produce(_ mapRequest: MapRequest, request: HTTPRequest) throws(APIError) -> HTTPResponse {
        switch mapRequest {
        case .style(let style):
            let document = MapStyleDocument.style(flavour: style.flavour, look: style.look,
                                                  urls: try styleURLs(urls(for: request), look: style.look), extent: content.extent)
            return Self.uncachedJSON(document)
        case .tileJSON(.look(let look)):
            return Self.uncachedJSON(MapTileJSON.document(look: look, rasterTemplate: urls(for: request).rasterTiles(look: look),
                                                          extent: content.extent))
        case .tileJSON(.terrain):
            throw .notFound("the simulator has no terrain (raster-dem) data")
        case .vectorTile(let vector):
            return try vectorTile(vector.tile, request: request)
        case .rasterTile(let raster):
            return try rasterTile(raster, request: request)
        case .glyphs(let glyphs):
            return try glyphRange(glyphs, request: request)
        case .sprite(let sprite):
            return try spriteFile(sprite, request: request)
        }
    }

    private func styleURLs(_ urls: MapURLs, look: MapLook) throws(APIError) -> MapStyleURLs {
        do {
            return try MapStyleURLs(tiles: urls.vectorTiles(datasetID: content.datasetID), raster: urls.rasterTiles(look: look),
                                    glyphs: urls.glyphs, sprite: urls.sprite(look: look))
        } catch {
            throw .internalFailure(error)
        }
    }

    // MARK: Tiles

    private func tileID(_ tile: MapRequest.Tile) throws(APIError) -> TileID {
        guard let id = TileID(z: tile.z, x: tile.x, y: tile.y) else {
            throw .invalidRequest("no tile \(tile.z)/\(tile.x)/\(tile.y): x and y must be below 2^z, z at most \(TileID.maxZoom)")
        }
        return id
    }

    private func vectorTile(_ tile: MapRequest.Tile, request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let id = try tileID(tile)
        let built = content.content
        guard let data = built.dataBounds, id.worldBounds.intersects(data) else {
            throw .notFound("tile \(id) is outside the simulator's data")
        }
        let gzip = Self.acceptsGzip(request)
        let key = (gzip ? "vz/" : "v/") + id.description
        let entry = cache.entry(key) {
            let tile = built.tiles.tile(id)
            let tag = Self.entityTag(tile.data)
            // Level 1: the fastest; ~6% larger than level 6 on the city's tiles, and ~2–3× faster (the level-6
            // deflate was half of an uncached z14 tile's time: Scripts/bench --maps).
            let body = tile.isEmpty ? Data() : gzip ? Deflate.compressedData(tile.data, format: .gzip, level: 1) : tile.data
            return MapResourceCache.Entry(body: body, entityTag: gzip ? String(tag.dropLast()) + "-gz\"" : tag)
        }
        if entry.body.isEmpty {
            var empty = Self.resource(Data(), status: 204, entityTag: entry.entityTag, contentType: nil, request: request)
            empty.headers.set("Vary", "Accept-Encoding")  // its tag depends on the encoding asked for
            return empty
        }
        var response = Self.resource(entry.body, entityTag: entry.entityTag, contentType: "application/vnd.mapbox-vector-tile", request: request)
        if gzip, response.status == 200 { response.headers.set("Content-Encoding", "gzip") }
        response.headers.set("Vary", "Accept-Encoding")
        return response
    }

    private func rasterTile(_ raster: MapRequest.RasterTile, request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let id = try tileID(raster.tile)
        let paint: RasterPaint
        let name: String
        switch raster.layer {
        case .look(let look): paint = MapRasterPaint.of(look); name = look.rawValue
        case .satellite: paint = MapRasterPaint.of(.standard); name = "st"  // stand-in: the default look (docs/maps.md)
        case .traffic: paint = MapRasterPaint.traffic; name = "tf"  // no traffic data: transparent tiles
        }
        let key = "r/\(name)/\(raster.scale)/\(id)"
        let entry: MapResourceCache.Entry
        do {
            entry = try cache.entry(key) { () throws(RasterTileError) -> MapResourceCache.Entry in
                let buffer = 16.0 / 256  // labels and wide roads whose centre lies just outside
                let png = try RasterTileRenderer().render(tile: id, features: content.features(in: id, buffer: buffer), paint: paint,
                                                          scale: raster.scale)
                return MapResourceCache.Entry(body: Data(png), entityTag: Self.entityTag(png))
            }
        } catch {
            throw .internalFailure(error)
        }
        return Self.resource(entry.body, entityTag: entry.entityTag, contentType: "image/png", request: request)
    }

    // MARK: Glyphs and sprites

    private func glyphRange(_ glyphs: MapRequest.Glyphs, request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let stack: FontStack
        let range: GlyphRange
        do {
            stack = try FontStack(pathSegment: glyphs.fontStack)
        } catch {
            throw .invalidRequest("font stack \(glyphs.fontStack.prefix(100)): \(error)")
        }
        do {
            range = try GlyphRange(parsing: glyphs.range)
        } catch {
            throw .invalidRequest("glyph range \(glyphs.range.prefix(40)): \(error)")
        }
        // Kept with its tag, so a repeated range costs no hashing (the library caches the bytes only).
        let entry = cache.entry("g/\(stack.name)/\(range)") {
            let pbf = GlyphLibrary.shared.pbf(stack: stack, range: range)
            return MapResourceCache.Entry(body: Data(pbf), entityTag: Self.entityTag(pbf))
        }
        return Self.resource(entry.body, entityTag: entry.entityTag, contentType: "application/x-protobuf", request: request)
    }

    private func spriteFile(_ sprite: MapRequest.Sprite, request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let key = "s/\(sprite.scale)/\(sprite.format.rawValue)"
        let entry: MapResourceCache.Entry
        do {
            entry = try cache.entry(key) { () throws(SpriteAtlasError) -> MapResourceCache.Entry in
                let atlas = try SpriteAtlas.build(icons: MapSpriteIcons.icons, pixelRatio: sprite.scale)
                let bytes = sprite.format == .json ? atlas.json : atlas.png
                return MapResourceCache.Entry(body: Data(bytes), entityTag: Self.entityTag(bytes))
            }
        } catch {
            throw .internalFailure(error)
        }
        let type = sprite.format == .json ? "application/json; charset=utf-8" : "image/png"
        return Self.resource(entry.body, entityTag: entry.entityTag, contentType: type, request: request)
    }

    // MARK: Responses

    /// A strong entity tag of `bytes`: their FNV-1a 64 (the dataset fingerprint's hash), quoted.
    static func entityTag(_ bytes: some ContiguousBytes) -> String {
        var hash = FNV1a64()
        bytes.withUnsafeBytes { hash.update($0) }
        return "\"" + hash.hex + "\""
    }

    /// A JSON document made for this caller: not to be reused for another (`no-cache`).
    private static func uncachedJSON(_ document: JSONValue) -> HTTPResponse {
        var response = APIResponses.json(document, status: 200)
        response.headers.set("Cache-Control", "no-cache")
        return response
    }

    /// A cacheable resource: 304 when `If-None-Match` names its tag, else `body` with `status`.
    private static func resource(_ body: Data, status: Int = 200, entityTag: String, contentType: String?,
                                 request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("ETag", entityTag)
        headers.set("Cache-Control", cacheControl)
        APIResponses.applyCORS(to: &headers, status: status)
        if request.ifNoneMatchHolds(entityTag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        if let contentType { headers.set("Content-Type", contentType) }
        return HTTPResponse(status: status, headers: headers, body: status == 204 ? Data() : body)
    }

    /// Whether `Accept-Encoding` accepts gzip: `gzip` (or `x-gzip`) with a non-zero q, or else `*` with a non-zero q.
    /// A coding named explicitly takes precedence over `*` (RFC 9110 §12.5.3): `gzip;q=0, *` refuses gzip.
    static func acceptsGzip(_ request: HTTPRequest) -> Bool {
        guard let accept = request.headers["Accept-Encoding"] else { return false }
        if let plain = plainCodingsAcceptGzip(accept) { return plain }
        var gzip: Bool?, any: Bool?
        for item in accept.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=") }
                .map { $0.replacingOccurrences(of: " ", with: "").dropFirst(2) }
            let accepted = quality.map { Double($0).map { $0 > 0 } ?? false } ?? true
            switch coding {
            case "gzip", "x-gzip": gzip = (gzip ?? false) || accepted
            case "*": any = (any ?? false) || accepted
            default: continue
            }
        }
        return gzip ?? any ?? false
    }

    /// `acceptsGzip` for the usual header, ASCII codings without parameters (`gzip, deflate, br`), read from its
    /// bytes without Foundation (the general reading cost more than the rest of a cached tile's answer); nil for any
    /// other value (a `;`, a byte beyond ASCII), which the general reading decides.
    private static func plainCodingsAcceptGzip(_ accept: String) -> Bool? {
        var gzip = false, any = false
        let plain = accept.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") {
                    if bytes[end] >= 0x80 || bytes[end] == UInt8(ascii: ";") { return false }
                    end += 1
                }
                var first = start, last = end  // the item without surrounding spaces and tabs
                while first < last, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
                while last > first, bytes[last - 1] == UInt8(ascii: " ") || bytes[last - 1] == UInt8(ascii: "\t") { last -= 1 }
                let item = UnsafeBufferPointer(rebasing: bytes[first..<last])
                if Self.equalsIgnoringASCIICase(item, "gzip") || Self.equalsIgnoringASCIICase(item, "x-gzip") {
                    gzip = true
                } else if item.count == 1, item[0] == UInt8(ascii: "*") {
                    any = true
                }
                start = end + 1
            }
            return true
        }
        // nil also for a string without contiguous bytes (bridged; the server's headers never are).
        return plain == true ? (gzip || any) : nil
    }

    private static func equalsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { letters in
            zip(bytes, letters).allSatisfy { pair in
                let lower = pair.0 >= UInt8(ascii: "A") && pair.0 <= UInt8(ascii: "Z") ? pair.0 | 0x20 : pair.0
                return lower == pair.1
            }
        }
    }
}
