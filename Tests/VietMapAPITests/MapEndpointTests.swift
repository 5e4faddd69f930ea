import Foundation
import JSON
import MapTiles
import SimTesting
import VietMapAPI
import XCTest
import Zlib

/// The map endpoints as a map SDK sees them, over real HTTP against the shared simulator: styles of every URL
/// generation with absolute inner URLs from the request's `Host`, keys, vector tiles read with `VectorTileReader`
/// (schema, gzip, ETag/304, 204/404/400, overzoom), raster tiles, glyphs and sprites.
final class MapEndpointTests: XCTestCase {
    private let map = MapHTTPClient.shared

    /// Every URL-bearing string of a style or TileJSON, with the JSON key it sits under (`tiles`, `glyphs`, `sprite`).
    private func urls(_ value: JSONValue, key: String = "") -> [(key: String, url: String)] {
        switch value {
        case .string(let s) where s.contains("://"): return [(key, s)]
        case .array(let items): return items.flatMap { urls($0, key: key) }
        case .object(let object): return object.members.flatMap { urls($0.value, key: $0.key) }
        default: return []
        }
    }

    private static let styleTargets = ["/api/maps/light/styles.json", "/api/maps/dark/styles.json", "/api/maps/raster/styles.json",
                                       "/maps/styles/tm/style.json", "/maps/styles/lm/style.json", "/maps/styles/dm/style.json",
                                       "/mt/tm/style.json", "/mt/lm/style.json", "/mt/dm/style.json", "/maps/styles/tm/tiles.json"]

    func testEveryStyleNamesAbsoluteURLsOfTheHostTheCallerReached() throws {
        for path in Self.styleTargets {
            for (keyName, key) in [("apikey", "emu-key"), ("apiKey", "Cap%20Key")] {
                let response = try map.get("\(path)?\(keyName)=\(key)", headers: ["Host": "10.0.2.2:8080"])
                XCTAssertEqual(response.status, 200, path)
                XCTAssertTrue(response.header("Content-Type")?.hasPrefix("application/json") == true, path)
                let found = urls(try MapHTTPClient.json(response))
                XCTAssertTrue(found.contains { $0.key == "tiles" }, "\(path): a tile URL")
                for (jsonKey, url) in found {
                    XCTAssertTrue(url.hasPrefix("http://10.0.2.2:8080/"), "\(path): \(url)")
                    let keyed = url.contains("apikey=") || url.contains("apiKey=")
                    XCTAssertEqual(keyed, jsonKey == "tiles", "\(path): the key on tile URLs only: \(jsonKey) \(url)")
                    if jsonKey == "tiles" {
                        XCTAssertTrue(url.contains(key == "emu-key" ? "emu-key" : "Cap%20Key"), "\(path): the caller's key: \(url)")
                    }
                }
                if path.hasSuffix("style.json") || path.hasSuffix("styles.json") {
                    XCTAssertTrue(found.contains { $0.key == "glyphs" } || path.contains("raster"), "\(path): glyphs")
                }
            }
            let proxied = try map.get("\(path)?apikey=k", headers: ["Host": "maps.vietmap.vn", "X-Forwarded-Proto": "https"])
            XCTAssertEqual(proxied.status, 200, path)
            for (_, url) in urls(try MapHTTPClient.json(proxied)) {
                XCTAssertTrue(url.hasPrefix("https://maps.vietmap.vn/"), "\(path): \(url)")
            }
        }
    }

    private func background(_ path: String) throws -> String? {
        let style = try MapHTTPClient.json(try map.get(path + "?apikey=k"))
        return style["layers"]?.arrayValue?.first { $0["type"]?.stringValue == "background" }?["paint"]?["background-color"]?.stringValue
    }

    func testLightAndDarkBackgroundsDiffer() throws {
        let light = try XCTUnwrap(background("/api/maps/light/styles.json"))
        let dark = try XCTUnwrap(background("/api/maps/dark/styles.json"))
        XCTAssertNotEqual(light, dark)
        XCTAssertNotEqual(try background("/maps/styles/tm/style.json"), try background("/maps/styles/dm/style.json"))
    }

    func testStylesAndTilesNeedAKeyGlyphsAndSpritesDoNot() throws {
        let tile = TilePosition(lat: 10.7769, lng: 106.7008, z: 14)
        let vector = try map.vectorTarget(14, tile.x, tile.y)
        let keyless = String(vector[..<(vector.firstIndex(of: "?") ?? vector.endIndex)])
        for target in Self.styleTargets + [keyless, "/api/tm/14/\(tile.x)/\(tile.y)@2x.png"] {
            let response = try map.get(target)
            XCTAssertEqual(response.status, 401, target)
            XCTAssertEqual(try MapHTTPClient.json(response)["code"]?.stringValue, "UNAUTHORIZED", target)
        }
        for target in ["/mt/fonts/Roboto%20Regular/0-255.pbf", "/mt/styles/tm/sprite.json", "/mt/styles/tm/sprite@2x.png"] {
            XCTAssertEqual(try map.get(target).status, 200, target)
        }
    }

    // MARK: Vector tiles

    /// Bến Thành at z14 and z16.
    private let centre = (lat: 10.7725, lng: 106.6980)

    func testAVectorTileHasVietMapsLayersAndTypedProperties() throws {
        let at = TilePosition(lat: centre.lat, lng: centre.lng, z: 14)
        let tile = try map.vectorTile(14, at.x, at.y)
        let names = Set(tile.layers.map(\.name))
        for layer in ["vietmap_network", "vietmap_network_name", "vietmap_point"] {
            XCTAssertTrue(names.contains(layer), "\(layer) in \(names.sorted())")
        }
        XCTAssertTrue(names.isSubset(of: Set(VietMapTileSchema.sourceLayers + [VietMapTileSchema.railway, VietMapTileSchema.hydroCenterline])),
                      "\(names.sorted())")
        for layer in tile.layers {
            XCTAssertEqual(layer.version, 2)
            XCTAssertEqual(layer.extent, 4096)
            XCTAssertFalse(layer.features.isEmpty, layer.name)
        }
        let network = try XCTUnwrap(tile[layer: "vietmap_network"])
        var classes = Set<Int64>()
        for feature in network.features {
            XCTAssertEqual(feature.type, .lineString)
            guard case .int(let roadclass)? = feature["roadclass"] else { XCTFail("roadclass \(String(describing: feature["roadclass"]))"); continue }
            XCTAssertTrue((1...9).contains(roadclass), "roadclass \(roadclass)")
            classes.insert(roadclass)
        }
        XCTAssertGreaterThan(classes.count, 1, "several road classes in central HCMC")
        let names2 = (tile[layer: "vietmap_network_name"]?.features ?? []).compactMap { f -> String? in
            if case .string(let s)? = f["name"] { return s } else { return nil }
        }
        XCTAssertTrue(names2.contains { $0.unicodeScalars.contains { $0.value > 0x7F } }, "Vietnamese diacritics in \(names2.prefix(5))")
        let points = try XCTUnwrap(tile[layer: "vietmap_point"])
        XCTAssertTrue(points.features.allSatisfy { $0.type == .point })
        XCTAssertTrue(points.features.contains { if case .string(let s)? = $0["name"] { s.contains("ế") || s.contains("ờ") || s.contains("ư") } else { false } })
    }

    func testGzipOnlyWhenAcceptedAndETagGives304() throws {
        let at = TilePosition(lat: centre.lat, lng: centre.lng, z: 15)
        let target = try map.vectorTarget(15, at.x, at.y)
        let plain = try map.get(target)
        XCTAssertEqual(plain.status, 200)
        XCTAssertNil(plain.header("Content-Encoding"))
        XCTAssertEqual(plain.header("Content-Type"), "application/vnd.mapbox-vector-tile")
        let zipped = try map.get(target, headers: ["Accept-Encoding": "gzip, deflate"])
        XCTAssertEqual(zipped.status, 200)
        XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
        XCTAssertEqual(Array(zipped.body.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(try Inflate.decompress(zipped.body, format: .gzip, limit: 64 << 20), plain.body)
        XCTAssertLessThan(zipped.body.count, plain.body.count)
        for (response, headers) in [(plain, [String: String]()), (zipped, ["Accept-Encoding": "gzip"])] {
            let tag = try XCTUnwrap(response.header("ETag"))
            var conditional = headers
            conditional["If-None-Match"] = tag
            let again = try map.get(target, headers: conditional)
            XCTAssertEqual(again.status, 304, tag)
            XCTAssertTrue(again.body.isEmpty)
            conditional["If-None-Match"] = "\"other\""
            XCTAssertEqual(try map.get(target, headers: conditional).status, 200)
        }
        XCTAssertNotEqual(plain.header("ETag"), zipped.header("ETag"), "a gzipped body has its own tag")
        XCTAssertEqual(plain.header("Vary"), "Accept-Encoding")
        XCTAssertEqual(plain.header("Access-Control-Allow-Origin"), "*")
        for refusal in ["gzip;q=0", "gzip; q=0.000", "gzip;q=0, *", "*;q=0", "identity", "br, deflate"] {
            XCTAssertNil(try map.get(target, headers: ["Accept-Encoding": refusal]).header("Content-Encoding"), refusal)
        }
        for acceptance in ["gzip;q=0.5", "*", "br;q=1, gzip;q=0.1", "x-gzip", "br, *;q=0.2", "GZIP"] {
            XCTAssertEqual(try map.get(target, headers: ["Accept-Encoding": acceptance]).header("Content-Encoding"), "gzip", acceptance)
        }
    }

    func testOutsideEmptyImpossibleAndOverzoomedTiles() throws {
        // Far outside the data: mid-Pacific.
        let pacific = TilePosition(lat: 0, lng: -150, z: 10)
        XCTAssertEqual(try map.get(try map.vectorTarget(10, pacific.x, pacific.y)).status, 404)
        // Impossible: x ≥ 2^z.
        let impossible = try map.get("/api/maps/data/x/3/9/0.pbf?apikey=k")
        XCTAssertEqual(impossible.status, 400)
        XCTAssertEqual(try MapHTTPClient.json(impossible)["code"]?.stringValue, "INVALID_REQUEST")
        // Past the source maxzoom (15): still cut, from the full geometry.
        for z in [16, 18] {
            let deep = TilePosition(lat: centre.lat, lng: centre.lng, z: z)
            let overzoomed = try map.get(try map.vectorTarget(z, deep.x, deep.y))
            XCTAssertEqual(overzoomed.status, 200, "z\(z)")
            XCTAssertNotNil(try VectorTileReader(overzoomed.body)[layer: "vietmap_network"], "z\(z)")
        }
        // Empty inside the data's box: sea and mountains between the two cities, at z16.
        let candidates = [(15.0, 106.2), (12.0, 106.0), (18.0, 106.5), (11.5, 106.6), (20.0, 106.1), (16.5, 106.3)]
        var statuses: [Int] = []
        for (lat, lng) in candidates {
            let p = TilePosition(lat: lat, lng: lng, z: 16)
            let response = try map.get(try map.vectorTarget(16, p.x, p.y))
            statuses.append(response.status)
            if response.status == 204 {
                XCTAssertTrue(response.body.isEmpty)
                XCTAssertEqual(response.header("Vary"), "Accept-Encoding", "an empty tile's tag depends on the encoding too")
                XCTAssertNil(response.header("Content-Encoding"))
                break
            }
        }
        print("map-endpoints: empty-tile candidates answered \(statuses)")
        XCTAssertTrue(statuses.contains(204), "an empty tile inside the data's box: \(statuses)")
    }

    // MARK: Raster tiles, glyphs, sprites

    func testRasterTilesAtBothScalesAndLooks() throws {
        let at = TilePosition(lat: centre.lat, lng: centre.lng, z: 16)
        let retina = try map.get("/api/tm/16/\(at.x)/\(at.y)@2x.png?apikey=k")
        XCTAssertEqual(retina.status, 200)
        XCTAssertEqual(retina.header("Content-Type"), "image/png")
        let big = try PNGImage(decoding: [UInt8](retina.body))
        XCTAssertEqual([big.width, big.height], [512, 512])
        let standard = try map.get("/api/tm/16/\(at.x)/\(at.y).png?apikey=k")
        let small = try PNGImage(decoding: [UInt8](standard.body))
        XCTAssertEqual([small.width, small.height], [256, 256])
        let dark = try map.get("/api/dm/16/\(at.x)/\(at.y).png?apikey=k")
        XCTAssertEqual(dark.status, 200)
        let darkImage = try PNGImage(decoding: [UInt8](dark.body))
        XCTAssertNotEqual(darkImage.rgba, small.rgba)
        for bad in ["/api/tm/16/\(at.x)/\(at.y)@3x.png?apikey=k", "/api/tm/3/9/0.png?apikey=k", "/api/tm/16/\(at.x)/70000.png?apikey=k"] {
            let response = try map.get(bad)
            XCTAssertEqual(response.status, 400, bad)
        }
    }

    func testGlyphRanges() throws {
        let vietnamese = try map.get("/mt/fonts/Roboto%20Regular%2cRoboto%20Medium/7680-7935.pbf")
        XCTAssertEqual(vietnamese.status, 200)
        XCTAssertGreaterThan(vietnamese.body.count, 1000, "Latin Extended Additional holds Vietnamese letters")
        let privateUse = try map.get("/mt/fonts/Roboto%20Regular/57344-57599.pbf")
        XCTAssertEqual(privateUse.status, 200)
    }

    func testSpritesListTheSchemasIconsAtBothScales() throws {
        let spriteURL = try XCTUnwrap(map.style()["sprite"]?.stringValue)
        let base = try XCTUnwrap(MapHTTPClient.target(of: spriteURL))
        let one = try MapHTTPClient.json(try map.get(base + ".json")).objectValue
        let two = try MapHTTPClient.json(try map.get(base + "@2x.json")).objectValue
        XCTAssertEqual(one?.keys.sorted(), VietMapTileSchema.iconNames.sorted())
        XCTAssertEqual(two?.keys.sorted(), VietMapTileSchema.iconNames.sorted())
        for name in VietMapTileSchema.iconNames {
            let a = one?[name], b = two?[name]
            XCTAssertEqual(b?["width"]?.intValue, a?["width"]?.intValue.map { $0 * 2 }, name)
            XCTAssertEqual(b?["height"]?.intValue, a?["height"]?.intValue.map { $0 * 2 }, name)
            XCTAssertEqual(b?["pixelRatio"]?.intValue, 2, name)
        }
        for (suffix, json) in [(".png", one), ("@2x.png", two)] {
            let png = try map.get(base + suffix)
            XCTAssertEqual(png.status, 200)
            let image = try PNGImage(decoding: [UInt8](png.body))
            let right = json?.members.compactMap { m in m.value["x"]?.intValue.flatMap { x in m.value["width"]?.intValue.map { x + $0 } } }.max() ?? 0
            XCTAssertGreaterThanOrEqual(image.width, right, "every icon inside the atlas")
        }
    }
}
