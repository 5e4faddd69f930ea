import JSON
import MapTiles
import Search
@testable import VietMapAPI
import VietMapWire
import XCTest

/// The generated MapLibre styles: v8, VietMap's source layers and fonts, icons the sprite holds, absolute URLs
/// with the key on tile URLs only, looks that differ — and filters that match the extracted features' types.
final class MapStyleDocumentTests: XCTestCase {
    let urls = try! MapStyleURLs(
        tiles: "http://10.0.2.2:8080/api/maps/data/sim-1/{z}/{x}/{y}.pbf?apikey=KEY123",
        raster: "http://10.0.2.2:8080/api/tm/{z}/{x}/{y}@2x.png?apikey=KEY123",
        glyphs: "http://10.0.2.2:8080/mt/fonts/{fontstack}/{range}.pbf",
        sprite: "http://10.0.2.2:8080/mt/styles/tm/sprite")
    let extent = MapExtent(bounds: WorldBounds(enclosing: [WorldPoint(latitude: 10.35, longitude: 106.35),
                                                          WorldPoint(latitude: 11.17, longitude: 107.05)])!)

    func style(_ flavour: MapStyleFlavour = .vector, _ look: MapLook = .standard) -> JSONValue {
        MapStyleDocument.style(flavour: flavour, look: look, urls: urls, extent: extent)
    }

    func layers(_ style: JSONValue) -> [JSONObject] { style["layers"]?.arrayValue?.compactMap(\.objectValue) ?? [] }

    /// Every string in the document with its JSON path.
    func strings(_ value: JSONValue, path: String = "") -> [(path: String, text: String)] {
        switch value {
        case .string(let s): return [(path, s)]
        case .array(let a): return a.enumerated().flatMap { strings($0.element, path: path + "/\($0.offset)") }
        case .object(let o): return o.flatMap { strings($0.value, path: path + "/" + $0.key) }
        default: return []
        }
    }

    func testVectorStyleIsVersion8WithOneInlineVectorSource() throws {
        for look in MapLook.allCases {
            let style = self.style(.vector, look)
            XCTAssertEqual(style["version"], 8)
            let sources = try XCTUnwrap(style["sources"]?.objectValue)
            XCTAssertEqual(sources.keys, ["vietmap"])
            XCTAssertEqual(sources["vietmap"]?["type"], "vector")
            XCTAssertEqual(sources["vietmap"]?["tiles"], [.string(urls.tiles)])
            XCTAssertEqual(sources["vietmap"]?["maxzoom"], 15)
            XCTAssertEqual(sources["vietmap"]?["attribution"], "© OpenStreetMap contributors")
            XCTAssertEqual(style["sprite"], .string(urls.sprite))
            XCTAssertEqual(style["glyphs"], .string(urls.glyphs))
            let center = try XCTUnwrap(style["center"]?.arrayValue)
            XCTAssertEqual(center[0].doubleValue ?? 0, 106.7, accuracy: 0.01)
            XCTAssertEqual(center[1].doubleValue ?? 0, 10.76, accuracy: 0.01)
            XCTAssertNotNil(style["metadata"]?["vietmap-sim:generator"])
            let ids = layers(style).compactMap { $0["id"]?.stringValue }
            XCTAssertEqual(Set(ids).count, ids.count, "layer ids are unique")
            XCTAssertGreaterThan(ids.count, 50)
            for kept in ["background", "vmroad_7-8", "vmroad_2-3", "vmroad_label_z16_duong_pho", "vmpoi_priority-5", "vm_village", "vm_hanoi"] {
                XCTAssert(ids.contains(kept), kept)
            }
        }
    }

    func testLayersUseTheSchemasSourceLayersFontsAndIcons() throws {
        let style = self.style()
        var fontsUsed = Set<String>()
        var iconsUsed = Set<String>()
        for layer in layers(style) {
            let id = layer["id"]?.stringValue ?? "?"
            if let sourceLayer = layer["source-layer"]?.stringValue {
                XCTAssert(VietMapTileSchema.sourceLayers.contains(sourceLayer), "\(id): \(sourceLayer)")
                XCTAssertEqual(layer["source"], "vietmap", id)
            } else {
                XCTAssertEqual(layer["type"], "background", "\(id) has no source layer")
            }
            if let fonts = layer["layout"]?["text-font"] {
                let stack = try XCTUnwrap(fonts.arrayValue?.compactMap(\.stringValue), id)
                XCTAssertEqual(stack.count, 1, id)
                XCTAssert(VietMapTileSchema.fontStacks.contains(stack[0]), "\(id): \(stack)")
                fontsUsed.formUnion(stack)
            }
            if let icon = layer["layout"]?["icon-image"] {
                switch icon {
                case .string(let name): iconsUsed.insert(name)
                case ["get", "class"]:
                    XCTAssertEqual(layer["source-layer"], .string(VietMapTileSchema.point), id)
                    iconsUsed.formUnion(VietMapTileSchema.pointClasses)
                default: XCTFail("\(id): unexpected icon-image \(icon)")
                }
            }
        }
        XCTAssertEqual(fontsUsed, Set(VietMapTileSchema.fontStacks), "all three of VietMap's stacks")
        XCTAssertEqual(iconsUsed, Set(MapStyleDocument.iconNames), "the sprite holds exactly the icons the style asks for")
        XCTAssertEqual(MapStyleDocument.iconNames, MapStyleDocument.iconNames.sorted())
        for name in ["freeway", "highway", "capital", "province_dark-04", "dot_9", "market", "hospital"] {
            XCTAssert(MapStyleDocument.iconNames.contains(name), name)
        }
    }

    func testURLsAreAbsoluteAndTheKeyIsOnTileURLsOnly() {
        for flavour in MapStyleFlavour.allCases {
            let style = self.style(flavour)
            for (path, text) in strings(style) where text.contains("://") {
                XCTAssert(text.hasPrefix("http://") || text.hasPrefix("https://"), "\(path): \(text)")
                if text.contains("apikey") || text.contains("KEY123") {
                    XCTAssert(path.hasPrefix("/sources/") && path.contains("/tiles/"), "key outside a tile URL at \(path)")
                }
            }
            let urlPaths = strings(style).filter { $0.text.contains("://") }.map(\.path)
            XCTAssertFalse(urlPaths.isEmpty)
        }
        XCTAssertThrowsError(try MapStyleURLs(tiles: "/api/maps/data/x/{z}/{x}/{y}.pbf", raster: urls.raster, glyphs: urls.glyphs,
                                              sprite: urls.sprite)) { error in
            XCTAssertEqual(error as? MapStyleError, .relativeURL("tiles", "/api/maps/data/x/{z}/{x}/{y}.pbf"))
        }
        XCTAssertThrowsError(try MapStyleURLs(tiles: urls.tiles, raster: urls.raster, glyphs: "http://h/fonts/{range}.pbf",
                                              sprite: urls.sprite)) { error in
            XCTAssertEqual(error as? MapStyleError, .missingPlaceholder("glyphs", "{fontstack}"))
        }
    }

    func testRasterStyleHasOne256RasterSourceWithThe2xTemplate() throws {
        let style = self.style(.raster, .dark)
        XCTAssertEqual(style["version"], 8)
        let sources = try XCTUnwrap(style["sources"]?.objectValue)
        XCTAssertEqual(sources.count, 1)
        let source = try XCTUnwrap(sources.members.first?.value)
        XCTAssertEqual(source["type"], "raster")
        XCTAssertEqual(source["tileSize"], 256)
        XCTAssertEqual(source["tiles"], [.string(urls.raster)])
        XCTAssert(layers(style).contains { $0["type"] == "raster" && $0["source"] == .string(sources.keys[0]) })
    }

    func testLooksDifferAndDarkIsDark() throws {
        func background(_ look: MapLook) -> String? {
            layers(style(.vector, look)).first { $0["id"] == "background" }?["paint"]?["background-color"]?.stringValue
        }
        let backgrounds = MapLook.allCases.map(background)
        XCTAssertEqual(Set(backgrounds.compactMap { $0 }).count, 3, "\(backgrounds)")
        XCTAssertLessThan(MapPalette.dark.background.luminance, 0.25)
        XCTAssertGreaterThan(MapPalette.standard.background.luminance, 0.8)
        XCTAssertGreaterThan(MapPalette.dark.roadLabel.luminance, MapPalette.dark.background.luminance + 0.4, "light text on dark land")
        XCTAssertNotEqual(MapPalette.light, MapPalette.standard)
        for palette in [MapPalette.standard, .light, .dark] {
            XCTAssertEqual(palette.roadFill.count, 9)
            XCTAssertEqual(palette.roadCasing.count, 9)
        }
        XCTAssertEqual(RGBAColor(rgb: 0x1D2330).css, "#1d2330")
        XCTAssertEqual(RGBAColor(rgb: 0xFFFFFF, alpha: 204).css, "rgba(255, 255, 255, 0.8)")
    }

    func testStyleParsesBackWithTheProjectsParser() throws {
        for flavour in MapStyleFlavour.allCases {
            for look in MapLook.allCases {
                let style = self.style(flavour, look)
                let text = JSONSerializer.string(style)
                // (Whole doubles are written as integers, so compare the texts.)
                XCTAssertEqual(JSONSerializer.string(try JSONParser.parse(text)), text)
                XCTAssertEqual(try JSONParser.parse(text)["layers"]?.arrayValue?.count, style["layers"]?.arrayValue?.count)
            }
        }
    }

    func testTileJSONDescribesTheRasterTiles() throws {
        let document = MapTileJSON.document(look: .light, rasterTemplate: urls.raster, extent: extent)
        XCTAssertEqual(document["tilejson"], "3.0.0")
        XCTAssertEqual(document["tiles"], [.string(urls.raster)])
        let bounds = try XCTUnwrap(document["bounds"]?.arrayValue?.compactMap(\.doubleValue))
        XCTAssertEqual(bounds.count, 4)
        XCTAssertEqual(bounds[0], 106.35, accuracy: 1e-6)
        XCTAssertEqual(bounds[1], 10.35, accuracy: 1e-6)
        XCTAssertEqual(bounds[2], 107.05, accuracy: 1e-6)
        XCTAssertEqual(bounds[3], 11.17, accuracy: 1e-6)
        let text = JSONSerializer.string(document)
        XCTAssertEqual(JSONSerializer.string(try JSONParser.parse(text)), text)
    }

    /// The filters compare with the types the features carry: layers that must have data in a city find it.
    func testFiltersMatchTheExtractedFeatures() throws {
        let (_, search, roads) = try MapLayerExtractionTests.dataset()
        let features = roads + MapLayerExtraction.points(search) + MapLayerExtraction.adminPoints(search.admin)
        var bySourceLayer: [String: [MapFeature]] = [:]
        for feature in features { bySourceLayer[feature.layer, default: []].append(feature) }
        var matched: [String: Int] = [:]
        for layer in layers(style()) {
            guard let id = layer["id"]?.stringValue, let sourceLayer = layer["source-layer"]?.stringValue else { continue }
            let candidates = bySourceLayer[sourceLayer] ?? []
            let filter = layer["filter"]
            matched[id] = candidates.filter { feature in filter.map { LegacyFilter.matches($0, feature) } ?? true }.count
        }

        for id in ["vmroad_2-3", "vmroad_4", "vmroad_5", "vmroad_6", "vmroad_7-8", "vmroad_9", "vmroad_7-8_border", "vmBridge_2-3",
                   "vmroad_oneway", "vmroad_label_z12_duong_pho", "vmroad_label_z16_duong_pho", "vmroad_label_z16_", "vmroad_label_z14_cau",
                   "vmpoi_priority-2", "vmpoi_priority-3", "vmpoi_priority-4", "vmpoi_priority-5", "vmpoi_priority-all",
                   "vm_village", "vm_city", "vm_big_city-HP-8", "vm_hanoi"] {
            XCTAssertGreaterThan(matched[id] ?? 0, 0, "\(id) matches no feature")
        }
        // Every POI is drawn by some tier, and no surface road by two fill layers.
        let pointLayers = layers(style()).filter { $0["source-layer"] == .string(VietMapTileSchema.point) }
        for point in bySourceLayer[VietMapTileSchema.point] ?? [] {
            XCTAssert(pointLayers.contains { LegacyFilter.matches($0["filter"]!, point) }, "\(point.properties)")
        }
        let fills = Set(MapStyleDocument.roadGroups.map(\.fillID))
        let fillLayers = layers(style()).filter { fills.contains($0["id"]?.stringValue ?? "") }
        for road in (bySourceLayer[VietMapTileSchema.network] ?? []).prefix(5_000) where road.intValue("structure") == 0 {
            XCTAssertEqual(fillLayers.filter { LegacyFilter.matches($0["filter"]!, road) }.count, 1, "\(road.properties)")
        }
    }
}

/// MapLibre's legacy filter syntax, as far as the generated styles use it (typed equality as MapLibre's:
/// `1` never equals `"1"`).
enum LegacyFilter {
    static func matches(_ filter: JSONValue, _ feature: MapFeature) -> Bool {
        guard let items = filter.arrayValue, let op = items.first?.stringValue else { return false }
        let key = items.count > 1 ? items[1].stringValue ?? "" : ""
        let value: JSONValue? = key == "$type" ? typeName(feature) : feature[key].map(json)
        switch op {
        case "all": return items.dropFirst().allSatisfy { matches($0, feature) }
        case "any": return items.dropFirst().contains { matches($0, feature) }
        case "has": return value != nil
        case "!has": return value == nil
        case "==": return value != nil && value == items[2]
        case "!=": return value == nil || value != items[2]
        case "in": return value != nil && items.dropFirst(2).contains(value!)
        case "!in": return value == nil || !items.dropFirst(2).contains(value!)
        case "<", "<=", ">", ">=":
            guard let value else { return false }
            if let a = value.doubleValue, case .integer = value, let b = items[2].doubleValue, case .integer = items[2] {
                return compare(op, a < b, a == b)
            }
            if let a = value.stringValue, let b = items[2].stringValue { return compare(op, a < b, a == b) }
            return false
        default: return false
        }
    }

    static func compare(_ op: String, _ less: Bool, _ equal: Bool) -> Bool {
        switch op {
        case "<": return less
        case "<=": return less || equal
        case ">": return !less && !equal
        default: return !less
        }
    }

    static func json(_ value: MapValue) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .int(let i): return .integer(Int(i))
        case .double(let d): return .number(d)
        case .bool(let b): return .bool(b)
        }
    }

    static func typeName(_ feature: MapFeature) -> JSONValue {
        switch feature.geometry {
        case .points: return "Point"
        case .lines: return "LineString"
        case .polygons: return "Polygon"
        }
    }
}
