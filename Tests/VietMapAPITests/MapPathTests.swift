import HTTPServer
import JSON
import VietMapAPI
import VietMapWire
import VietMapWireHTTP
import MapGlyphs
import XCTest

/// The map endpoints in the wire home: every URL generation of map-screens §2 read into its
/// `MapRequest`, the answers the API gives before the producers are wired (400, 404, 401, and no
/// 401 for keyless glyphs and sprites), and the absolute URLs a generated style names.
final class MapPathTests: XCTestCase {
    private func parsed(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> MapRequest? {
        guard let map = MapPath(path: path) else { XCTFail("\(path): no map path", file: file, line: line); return nil }
        XCTAssertEqual(APIEndpoint(path: path), map.endpoint, path, file: file, line: line)
        switch map.request {
        case .success(let request):
            XCTAssertEqual(request.endpoint, map.endpoint, path, file: file, line: line)
            return request
        case .failure(let error):
            XCTFail("\(path): \(error.status) \(error.message)", file: file, line: line)
            return nil
        }
    }

    private func tile(_ z: Int, _ x: Int, _ y: Int) -> MapRequest.Tile { MapRequest.Tile(z: z, x: x, y: y) }

    // MARK: §2's table

    func testStylesOfEveryGeneration() {
        // S1, with the stand-ins for the names the simulator has no imagery or Google style for.
        XCTAssertEqual(parsed("/api/maps/light/styles.json"), .style(.init(flavour: .vector, look: .standard, generation: .apiMaps, name: .light)))
        XCTAssertEqual(parsed("/api/maps/dark/styles.json"), .style(.init(flavour: .vector, look: .dark, generation: .apiMaps, name: .dark)))
        XCTAssertEqual(parsed("/api/maps/raster/styles.json"), .style(.init(flavour: .raster, look: .standard, generation: .apiMaps, name: .raster)))
        XCTAssertEqual(parsed("/api/maps/satellite/styles.json"), .style(.init(flavour: .raster, look: .standard, generation: .apiMaps, name: .satellite)))
        XCTAssertEqual(parsed("/api/maps/google/styles.json"), .style(.init(flavour: .vector, look: .standard, generation: .apiMaps, name: .google)))
        XCTAssertEqual(parsed("/api/maps/google-satellite/styles.json"),
                       .style(.init(flavour: .raster, look: .standard, generation: .apiMaps, name: .googleSatellite)))
        XCTAssertEqual(MapStyleName.allCases.filter(\.isStandIn), [.satellite, .hybrid, .google, .googleSatellite])
        // S2 and S4 name a look.
        XCTAssertEqual(parsed("/maps/styles/tm/style.json"), .style(.init(flavour: .vector, look: .standard, generation: .mapsStyles)))
        XCTAssertEqual(parsed("/maps/styles/lm/style.json"), .style(.init(flavour: .vector, look: .light, generation: .mapsStyles)))
        XCTAssertEqual(parsed("/maps/styles/dm/style.json"), .style(.init(flavour: .vector, look: .dark, generation: .mapsStyles)))
        XCTAssertEqual(parsed("/mt/dm/style.json"), .style(.init(flavour: .vector, look: .dark, generation: .mt)))
        // S3 and X1: TileJSON.
        XCTAssertEqual(parsed("/maps/styles/lm/tiles.json"), .tileJSON(.look(.light)))
        XCTAssertEqual(parsed("/api/terrain-tiles/tiles.json"), .tileJSON(.terrain))
    }

    func testVectorTilesWithAnyDatasetWithOrWithoutExtension() {
        XCTAssertEqual(parsed("/api/maps/data/vlc-vt-sdk-20250122/14/13048/7698.pbf"),
                       .vectorTile(.init(dataset: "vlc-vt-sdk-20250122", tile: tile(14, 13048, 7698))))
        XCTAssertEqual(parsed("/api/maps/data/sim-3f2a/0/0/0"), .vectorTile(.init(dataset: "sim-3f2a", tile: tile(0, 0, 0))))
        XCTAssertEqual(parsed("/maps/tiles/tf/12/3261/1924.pbf"), .vectorTile(.init(dataset: "tf", tile: tile(12, 3261, 1924))))
    }

    func testRasterTilesOfEveryGeneration() {
        // R1: @2x.png, .png, nothing.
        XCTAssertEqual(parsed("/api/tm/16/52198/30801@2x.png"), .rasterTile(.init(layer: .look(.standard), tile: tile(16, 52198, 30801), scale: 2)))
        XCTAssertEqual(parsed("/api/dm/3/6/3.png"), .rasterTile(.init(layer: .look(.dark), tile: tile(3, 6, 3), scale: 1)))
        XCTAssertEqual(parsed("/api/lm/3/6/3"), .rasterTile(.init(layer: .look(.light), tile: tile(3, 6, 3), scale: 1)))
        XCTAssertEqual(parsed("/api/lm/3/6/3@2x"), .rasterTile(.init(layer: .look(.light), tile: tile(3, 6, 3), scale: 2)))
        // R2 (root), R3 (`/maps/tiles/`, satellite `st`), R4 (raster v3, traffic).
        XCTAssertEqual(parsed("/tm/10/815/481@2x.png"), .rasterTile(.init(layer: .look(.standard), tile: tile(10, 815, 481), scale: 2)))
        XCTAssertEqual(parsed("/maps/tiles/dm/10/815/481@2x.png"), .rasterTile(.init(layer: .look(.dark), tile: tile(10, 815, 481), scale: 2)))
        XCTAssertEqual(parsed("/maps/tiles/st/10/815/481.png"), .rasterTile(.init(layer: .satellite, tile: tile(10, 815, 481), scale: 1)))
        XCTAssertEqual(parsed("/api/maps/raster/v3/10/815/481"), .rasterTile(.init(layer: .look(.standard), tile: tile(10, 815, 481), scale: 1)))
        XCTAssertEqual(parsed("/api/tf/10/815/481@2x.png"), .rasterTile(.init(layer: .traffic, tile: tile(10, 815, 481), scale: 2)))
    }

    func testGlyphsKeepTheStackRawForTheGlyphLayer() throws {
        // G1 with MapLibre's lower-case `%2c` between two fonts: kept as sent, split by MapGlyphs' `FontStack`.
        guard case .glyphs(let two)? = parsed("/mt/fonts/Roboto%20Regular%2cRoboto%20Medium/7680-7935.pbf") else { return XCTFail("no glyphs") }
        XCTAssertEqual(two.fontStack, "Roboto%20Regular%2cRoboto%20Medium")
        XCTAssertEqual(two.range, "7680-7935")
        XCTAssertEqual(two.firstCodePoint, 7680)
        XCTAssertEqual(try FontStack(pathSegment: two.fontStack).fonts, ["Roboto Regular", "Roboto Medium"])
        // HTTPRequest.path arrives decoded: the same names.
        let decodedPath = HTTPRequest(method: "GET", target: "/mt/fonts/Roboto%20Regular%2cRoboto%20Medium/0-255.pbf").path
        guard case .glyphs(let decoded)? = parsed(decodedPath) else { return XCTFail("no glyphs") }
        XCTAssertEqual(decoded.fontStack, "Roboto Regular,Roboto Medium")
        XCTAssertEqual(try FontStack(pathSegment: decoded.fontStack).fonts, ["Roboto Regular", "Roboto Medium"])
        // G2 and G3.
        XCTAssertEqual(parsed("/maps/fonts/Roboto%20Medium/256-511.pbf"),
                       .glyphs(.init(fontStack: "Roboto%20Medium", range: "256-511", firstCodePoint: 256)))
        XCTAssertEqual(parsed("/api/fonts/Roboto%20Medium/0-255.pbf"), .glyphs(.init(fontStack: "Roboto%20Medium", range: "0-255", firstCodePoint: 0)))
        XCTAssertEqual(parsed("/api/font/Open%20Sans%20Bold/65280-65535.pbf"),
                       .glyphs(.init(fontStack: "Open%20Sans%20Bold", range: "65280-65535", firstCodePoint: 65280)))
    }

    func testSpritesOfBothGenerations() {
        XCTAssertEqual(parsed("/mt/styles/tm/sprite.json"), .sprite(.init(look: .standard, scale: 1, format: .json)))
        XCTAssertEqual(parsed("/mt/styles/tm/sprite@2x.png"), .sprite(.init(look: .standard, scale: 2, format: .png)))
        XCTAssertEqual(parsed("/maps/styles/dm/sprite@2x.json"), .sprite(.init(look: .dark, scale: 2, format: .json)))
        XCTAssertEqual(parsed("/mt/styles/sprite.png"), .sprite(.init(look: nil, scale: 1, format: .png)))
    }

    func testBadValuesAreErrorsOfTheEndpointAndOtherShapesNoMapPath() throws {
        func failure(_ path: String) -> (APIEndpoint, APIError)? {
            guard let map = MapPath(path: path), case .failure(let error) = map.request else { return nil }
            return (map.endpoint, error)
        }
        // 400: impossible or malformed numbers.
        for path in ["/api/maps/data/x/99/0/0.pbf", "/api/maps/data/x/3/8/0.pbf", "/api/maps/data/x/a/0/0", "/api/maps/data/x/-1/0/0",
                     "/api/tm/3/9/0.png", "/api/tm/3/0/0@3x.png", "/api/tm/1/0/0.jpg", "/api/tm/1/00000000000/0"] {
            let (endpoint, error) = try XCTUnwrap(failure(path), path)
            XCTAssertEqual(error.status, 400, path)
            XCTAssertEqual(endpoint.family, .map, path)
            XCTAssertEqual(APIEndpoint(path: path), endpoint, "\(path): an endpoint, not \"no such endpoint\"")
        }
        XCTAssertEqual(failure("/api/tm/3/9/0.png")?.1.message, "tile 3/9/0 does not exist: x and y must be below 8 at zoom 3")
        for path in ["/mt/fonts/Roboto/0-256.pbf", "/mt/fonts/Roboto/1-256.pbf", "/mt/fonts/Roboto/65536-65791.pbf", "/mt/fonts/Roboto/abc.pbf",
                     "/mt/styles/tm/sprite@3x.png"] {
            XCTAssertEqual(failure(path)?.1.status, 400, path)
        }
        // 404 in the endpoint's envelope: a look or style that does not exist.
        XCTAssertEqual(failure("/maps/styles/xx/style.json")?.1.status, 404)
        XCTAssertEqual(failure("/api/maps/nope/styles.json")?.0, .mapStyle)
        // No map path at all: the front door's 404.
        for path in ["/api/maps/data/x/1/2", "/api/maps/data/x/1/2/3/4.pbf", "/api/maps/data//1/2/3.pbf", "/api/xx/1/2/3.png",
                     "/mt/styles/tm/other.json", "/mt/styles/tm/sprite", "/api/maps", "/", "/api/place/v4",
                     "/" + String(repeating: "a/", count: 10_000), "/mt/fonts/" + String(repeating: "R", count: MapPath.maxPathBytes) + "/0-255.pbf"] {
            XCTAssertNil(MapPath(path: path), String(path.prefix(60)))
        }
        XCTAssertEqual(APIEndpoint(path: "/api/place/v4"), .place, "fixed paths are found as before")
    }

    /// `APIEndpoint(path:)` tells a vector tile by its shape from the bytes, and the reading compares ASCII suffixes by
    /// bytes: both must agree with the whole reading, non-ASCII neighbours included (a combining mark after `.pbf`, a
    /// prepended mark before it, an empty or extra segment, the length limit).
    func testShortcutsAgreeWithTheWholeReading() {
        let paths = ["/api/maps/data/x/1/0/0.pbf", "/api/maps/data/x/1/0/0", "/api/maps/data/x/1/0/0.pbf\u{301}",
                     "/api/maps/data/x/1/0/0\u{600}.pbf", "/api/maps/data/ư/1/0/0.pbf", "/api/maps/data/x/1/0/", "/api/maps/data/x/1//0",
                     "/api/maps/data//1/0/0", "/api/maps/data/x/1/0/0/", "/api/maps/data/x/1/0/0/9", "/api/maps/data/x/1/0",
                     "/api/maps/data/", "/api/maps/datax/1/0/0", "/api/maps/data/" + String(repeating: "d", count: MapPath.maxPathBytes) + "/1/0/0",
                     "/api/tm/1/0/0@2x.png", "/api/tm/1/0/0\u{600}.png", "/api/tm/1/0/0.png\u{301}", "/mt/fonts/Roboto/0-255.pbf",
                     "/mt/fonts/Roboto/0-255\u{600}.pbf", "/mt/styles/tm/sprite@2x.json", "/mt/styles/tm/sprite\u{301}.json",
                     "/mt/styles/tm/sprite.json\u{301}", "/maps/tiles/tf/1/0/0.pbf", "/maps/tiles/tf/1/0/0\u{600}.pbf"]
        for path in paths {
            XCTAssertEqual(APIEndpoint(path: path), MapPath(path: path)?.endpoint, path)
        }
        // A prepended mark joins the `.` of `.pbf` into one character: no suffix, the number fails as the whole segment.
        guard case .failure(let error)? = MapPath(path: "/api/maps/data/x/1/0/0\u{600}.pbf")?.request else { return XCTFail("no failure") }
        XCTAssertTrue(error.message.contains("0\u{600}.pbf"), error.message)
        XCTAssertEqual(parsed("/maps/tiles/tf/3/1/2.pbf"), .vectorTile(MapRequest.VectorTile(dataset: "tf", tile: tile(3, 1, 2))))
    }

    func testPathParametersForScenarioRules() {
        let request = parsed("/api/tm/12/3261/1924@2x.png")
        XCTAssertEqual(request?.pathParameters.map { "\($0.name)=\($0.value)" }, ["look=tm", "z=12", "x=3261", "y=1924", "scale=2"])
    }

    // MARK: The API's answers

    private static let service: VietMapService = {
        let shared = SimulatorHarness.shared.service
        return VietMapService(search: shared.search, roadGraph: shared.roadGraph)
    }()

    private func answer(_ target: String, service: VietMapService = MapPathTests.service) -> (status: Int, body: JSONValue?) {
        let response = service.respond(to: HTTPRequest(method: "GET", target: target))
        return (response.status, try? JSONParser.parse(String(decoding: response.body, as: UTF8.self)))
    }

    func testBadCoordinatesAre400WithABody() {
        for target in ["/api/maps/data/x/99/0/0.pbf?apikey=k", "/api/tm/3/9/0.png?apikey=k", "/mt/fonts/Roboto/5-260.pbf"] {
            let (status, body) = answer(target)
            XCTAssertEqual(status, 400, target)
            XCTAssertEqual(body?["code"]?.stringValue, "INVALID_REQUEST", target)
            XCTAssertFalse(body?["message"]?.stringValue?.isEmpty ?? true, target)
        }
        let unknownLook = answer("/maps/styles/xx/style.json?apikey=k")
        XCTAssertEqual(unknownLook.status, 404)
        XCTAssertEqual(unknownLook.body?["code"]?.stringValue, "NOT_FOUND")
        XCTAssertEqual(answer("/api/maps/data/x/1/2?apikey=k").status, 404, "a malformed tile path is no endpoint")
    }

    func testStylesAndTilesNeedAKeyGlyphsAndSpritesDoNot() {
        for target in ["/api/maps/light/styles.json", "/maps/styles/tm/style.json", "/maps/styles/tm/tiles.json",
                       "/api/maps/data/sim-x/14/13048/7698.pbf", "/api/tm/14/13048/7698@2x.png", "/api/tm/3/9/0.png"] {
            let (status, body) = answer(target)
            XCTAssertEqual(status, 401, target)
            XCTAssertEqual(body?["code"]?.stringValue, "UNAUTHORIZED", target)
            XCTAssertNotEqual(answer(target + "?apiKey=k").status, 401, "\(target): apiKey is a key too")
        }
        let keyed = VietMapService(search: Self.service.search, roadGraph: Self.service.roadGraph, apiKeys: ["team"])
        for target in ["/mt/fonts/Roboto%20Regular/0-255.pbf", "/mt/styles/tm/sprite@2x.json", "/mt/styles/tm/sprite.png",
                       "/mt/fonts/Roboto%20Regular/0-255.pbf?apikey=wrong"] {
            XCTAssertNotEqual(answer(target).status, 401, target)
            XCTAssertNotEqual(answer(target, service: keyed).status, 401, "\(target): a key sent is ignored")
        }
        XCTAssertEqual(answer("/api/tm/1/0/0.png?apikey=wrong", service: keyed).status, 401)
        // With a key, the producers answer (MapEndpointTests covers what).
        let keyedStyle = answer("/maps/styles/tm/style.json?apikey=k")
        XCTAssertEqual(keyedStyle.status, 200)
        XCTAssertEqual(keyedStyle.body?["version"]?.intValue, 8)
    }

    // MARK: URL templates

    func testTemplatesFromTheHostTheCallerReached() throws {
        let listening = try XCTUnwrap(MapBaseURL(scheme: "http", authority: "127.0.0.1:8080"))
        func base(_ headers: HTTPHeaders) -> MapBaseURL {
            MapBaseURL.of(HTTPRequest(method: "GET", target: "/maps/styles/tm/style.json", headers: headers), listening: listening)
        }
        let emulator = MapURLs(base: base(["Host": "10.0.2.2:8080"]), key: "a b&c")
        XCTAssertEqual(emulator.base.description, "http://10.0.2.2:8080")
        XCTAssertEqual(emulator.vectorTiles(datasetID: "3f2a"), "http://10.0.2.2:8080/api/maps/data/sim-3f2a/{z}/{x}/{y}.pbf?apikey=a%20b%26c")
        XCTAssertEqual(emulator.rasterTiles(look: .dark), "http://10.0.2.2:8080/api/dm/{z}/{x}/{y}@2x.png?apikey=a%20b%26c")
        XCTAssertEqual(emulator.glyphs, "http://10.0.2.2:8080/mt/fonts/{fontstack}/{range}.pbf")
        XCTAssertEqual(emulator.sprite(look: .standard), "http://10.0.2.2:8080/mt/styles/tm/sprite")

        let https = try XCTUnwrap(MapBaseURL(scheme: "https", authority: "127.0.0.1:8443"))
        let proxied = MapBaseURL.of(HTTPRequest(method: "GET", target: "/", headers: ["Host": "maps.vietmap.vn"]), listening: https)
        let proxy = MapURLs(base: proxied, key: "a b&c")
        XCTAssertEqual(proxy.vectorTiles(datasetID: "x"), "https://maps.vietmap.vn/api/maps/data/sim-x/{z}/{x}/{y}.pbf?apikey=a%20b%26c")
        XCTAssertEqual(MapURLs(base: proxied, key: nil).rasterTiles(look: .standard), "https://maps.vietmap.vn/api/tm/{z}/{x}/{y}@2x.png")
        // A proxy in front names the host and scheme.
        XCTAssertEqual(base(["Host": "internal:9", "X-Forwarded-Host": "maps.example.org, other", "X-Forwarded-Proto": "https"]),
                       MapBaseURL(scheme: "https", authority: "maps.example.org"))
        XCTAssertEqual(base(["Host": "[::1]:8080"]).description, "http://[::1]:8080")

        // Every URL built reads back as the map request it names.
        let filled = emulator.vectorTiles(datasetID: "3f2a").replacingOccurrences(of: "{z}/{x}/{y}", with: "14/13048/7698")
        let path = String(filled.dropFirst("http://10.0.2.2:8080".count).prefix { $0 != "?" })
        XCTAssertEqual(parsed(path), .vectorTile(.init(dataset: "sim-3f2a", tile: tile(14, 13048, 7698))))
    }

    func testAnImplausibleHostFallsBackToTheListeningAddress() throws {
        let listening = try XCTUnwrap(MapBaseURL(scheme: "http", authority: "127.0.0.1:8080"))
        for host in ["evil.com/x?", "evil.com\r\nSet-Cookie: a=b", "a b", "user@evil.com", "evil.com:99999", "evil.com:", "a..b",
                     ".evil.com", "", "[::1", "evil.com:80:80", String(repeating: "a", count: 300)] {
            XCTAssertEqual(MapBaseURL.resolve(host: host, fallback: listening), listening, host.debugDescription)
            XCTAssertEqual(MapBaseURL.resolve(host: "good.example", forwardedHost: host, fallback: listening) == listening,
                           !host.isEmpty, "a bad X-Forwarded-Host is not echoed either: \(host.debugDescription)")
        }
        XCTAssertEqual(MapBaseURL.resolve(host: nil, fallback: listening), listening)
        XCTAssertEqual(MapBaseURL.resolve(host: "ok.example", forwardedProto: "gopher", fallback: listening).description, "http://ok.example")
        XCTAssertEqual(MapBaseURL.resolve(host: "Maps.VietMap.vn.", fallback: listening).description, "http://maps.vietmap.vn.")
    }

    // MARK: Cost

    func testRasterTilesAreHeavyGlyphRangesMedium() {
        XCTAssertTrue(RequestCost.estimate(endpoint: .rasterTile, path: "/api/tm/1/0/0@2x.png", parameters: []).isHeavy)
        XCTAssertEqual(RequestCost.estimate(endpoint: .glyphs, path: "/mt/fonts/Roboto/0-255.pbf", parameters: []), .medium("a glyph range"))
        XCTAssertEqual(RequestCost.estimate(endpoint: .mapStyle, path: "/maps/styles/tm/style.json", parameters: []), .light)
    }
}
