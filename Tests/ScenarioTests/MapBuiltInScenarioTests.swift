import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapWire
import XCTest

/// The built-in map scenarios (`Scenarios/map-*.json`) over real HTTP: each gives exactly its
/// answers to the map requests it names and leaves every other request — the rest of the map
/// screen and the route — with its normal answer. Also: map requests land in the journal under
/// their endpoint names.
final class MapBuiltInScenarioTests: XCTestCase {
    private var server: HTTPServer!
    private var engine: ScenarioEngine!
    /// The engine's time: it moves only when a test advances it.
    private let clock = ManualScenarioClock()

    override func setUpWithError() throws {
        engine = builtInEngine(.init(adminEnabled: true, clock: clock))
        server = try startServer(engine)
    }

    // What one map screen loads, in VietMap's URL generations (a tile inside the default dataset).
    private static let style = "/maps/styles/tm/style.json"
    private static let tileJSON = "/maps/styles/tm/tiles.json"
    private static let vectorTile = "/api/maps/data/sim-x/14/13048/7698.pbf"
    private static let rasterTile = "/api/tm/14/13048/7698@2x.png"
    private static let toneMarks = "/mt/fonts/Roboto%20Regular/7680-7935.pbf"
    private static let basicLatin = "/mt/fonts/Roboto%20Regular/0-255.pbf"
    private static let spriteIndex = "/mt/styles/tm/sprite@2x.json"
    private static let spriteAtlas = "/mt/styles/tm/sprite@2x.png"

    /// `path` with the scenario's key (`?` or `&` as the path needs).
    private func keyed(_ path: String, _ scenario: String) -> String {
        path + (path.contains("?") ? "&" : "?") + "apikey=scenario:\(scenario)"
    }

    /// The keyless resources (glyphs, sprite) with the scenario chosen by header, as for a style's glyph URLs.
    private func keyless(_ path: String, _ scenario: String) throws -> RawHTTPClient.Response {
        try request(server, "GET", path, headers: ["X-VietMap-Sim-Scenario: \(scenario)"])
    }

    private func assertNormal(_ response: RawHTTPClient.Response, _ what: String, type: String? = nil,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, 200, "\(what): \(String(decoding: response.body.prefix(200), as: UTF8.self))", file: file, line: line)
        if let type { XCTAssertEqual(response.header("Content-Type")?.hasPrefix(type), true, "\(what): \(response.header("Content-Type") ?? "-")", file: file, line: line) }
        XCTAssertFalse(response.body.isEmpty, what, file: file, line: line)
    }

    /// Every map resource and a route, under `scenario`, except those `skipping` names.
    private func assertUntouched(_ scenario: String, skipping: Set<String>, file: StaticString = #filePath, line: UInt = #line) throws {
        let keyedPaths = [("style", Self.style, "application/json"), ("tilejson", Self.tileJSON, "application/json"),
                          ("vector", Self.vectorTile, nil), ("raster", Self.rasterTile, "image/png")]
        for (what, path, type) in keyedPaths where !skipping.contains(what) {
            assertNormal(try get(server, keyed(path, scenario)), "\(scenario) \(what)", type: type, file: file, line: line)
        }
        let keylessPaths = [("tone marks", Self.toneMarks, "application/x-protobuf"), ("basic latin", Self.basicLatin, "application/x-protobuf"),
                            ("sprite index", Self.spriteIndex, "application/json"), ("sprite atlas", Self.spriteAtlas, "image/png")]
        for (what, path, type) in keylessPaths where !skipping.contains(what) {
            assertNormal(try keyless(path, scenario), "\(scenario) \(what)", type: type, file: file, line: line)
        }
        let route = try get(server, "/api/route/v4?apikey=scenario:\(scenario)&\(TestSimulator.routeQuery)")
        XCTAssertEqual(route.status, 200, "\(scenario) route", file: file, line: line)
        XCTAssertEqual(try route.json()["code"], "OK", file: file, line: line)
        XCTAssertEqual(clock.pendingCount, 0, "\(scenario): nothing else is delayed", file: file, line: line)
    }

    private func assertError(_ response: RawHTTPClient.Response, status: Int, code: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status, status, file: file, line: line)
        let body = try response.json()
        XCTAssertEqual(body.objectValue?.keys, ["code", "message"], "VietMap's {code, message}", file: file, line: line)
        XCTAssertEqual(body["code"], .string(code), file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
    }

    func testTheMapScenariosAreBuiltIn() {
        let names = Set(TestSimulator.builtIns.scenarios.map(\.name))
        for name in ["map-style-401", "map-tiles-429", "map-tiles-slow", "map-glyphs-fail", "map-tiles-404"] {
            XCTAssertTrue(names.contains(name), name)
        }
        XCTAssertTrue(TestSimulator.builtIns.issues.isEmpty, "\(TestSimulator.builtIns.issues)")
    }

    /// The JSON Schema editors validate scenario files with names every endpoint word the engine
    /// accepts (the map ones included), and no other.
    func testTheScenarioSchemaNamesEveryEndpointWord() throws {
        let schema = try JSONParser.parse(Data(contentsOf: TestSimulator.builtInDirectory.appendingPathComponent("scenario.schema.json")))
        var words: Set<String> = []
        func collect(_ value: JSONValue) {
            if let object = value.objectValue {
                if let endpoint = object["endpoint"], let names = endpoint["enum"]?.arrayValue {
                    words.formUnion(names.compactMap(\.stringValue))
                }
                for (_, member) in object.members { collect(member) }
            } else if let array = value.arrayValue {
                array.forEach(collect)
            }
        }
        collect(schema)
        XCTAssertEqual(words, Set(APIEndpoint.words + ["any"]))
    }

    func testStyle401LeavesTheRestOfTheMapAlone() throws {
        for path in [Self.style, "/api/maps/light/styles.json", "/mt/tm/style.json", Self.tileJSON] {
            let response = try get(server, keyed(path, "map-style-401"))
            try assertError(response, status: 401, code: "UNAUTHORIZED")
            XCTAssertNil(response.header("Access-Control-Allow-Origin"), "\(path): a 401 without CORS header, as live")
        }
        try assertUntouched("map-style-401", skipping: ["style", "tilejson"])
    }

    func testTiles429CarryRetryAfterAndLeaveTheRestAlone() throws {
        for path in [Self.vectorTile, Self.rasterTile, "/api/maps/data/sim-x/13/6524/3849", "/maps/tiles/dm/13/6524/3849@2x.png"] {
            let response = try get(server, keyed(path, "map-tiles-429"))
            try assertError(response, status: 429, code: "OVER_DAILY_LIMIT")
            XCTAssertEqual(response.header("Retry-After"), "5", "\(path): MapLibre retries after Retry-After")
        }
        try assertUntouched("map-tiles-429", skipping: ["vector", "raster"])
    }

    func testTiles404AnswerNotFoundAndLeaveTheRestAlone() throws {
        for path in [Self.vectorTile, Self.rasterTile] {
            try assertError(try get(server, keyed(path, "map-tiles-404")), status: 404, code: "NOT_FOUND")
        }
        try assertUntouched("map-tiles-404", skipping: ["vector", "raster"])
    }

    func testSlowTilesWaitOneAndAHalfSecondsWhileTheRestIsFast() throws {
        for path in [Self.vectorTile, Self.rasterTile] {
            let (response, delay) = try getDelayed(server, keyed(path, "map-tiles-slow"), engine: engine, clock: clock)
            XCTAssertEqual(delay, 1500, path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertFalse(response.body.isEmpty, path)
        }
        // Style, TileJSON, glyphs, sprite and the route answer without the clock moving.
        try assertUntouched("map-tiles-slow", skipping: ["vector", "raster"])
    }

    func testOneGlyphRangeFailsTheOthersLoad() throws {
        for stack in ["Roboto%20Regular", "Roboto%20Medium", "Roboto%20Regular%2cRoboto%20Medium"] {
            try assertError(try keyless("/mt/fonts/\(stack)/7680-7935.pbf", "map-glyphs-fail"), status: 500, code: "ERROR_UNKNOWN")
        }
        assertNormal(try keyless("/mt/fonts/Roboto%20Regular/256-511.pbf", "map-glyphs-fail"), "Latin Extended", type: "application/x-protobuf")
        try assertUntouched("map-glyphs-fail", skipping: ["tone marks"])
    }

    func testTheServerDefaultReachesKeylessGlyphs() throws {
        // `serve --scenario map-glyphs-fail`: a style's glyph URLs carry no key and no header.
        let engine = builtInEngine(.init(defaultScenario: "map-glyphs-fail"))
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, Self.toneMarks).status, 500)
        XCTAssertEqual(try get(server, Self.basicLatin).status, 200)
    }

    func testMapRequestsAppearInTheJournalUnderTheirEndpointNames() throws {
        let paths = [keyed(Self.style, "map-tiles-404"), keyed(Self.tileJSON, "map-tiles-404"), keyed(Self.vectorTile, "map-tiles-404"),
                     keyed(Self.rasterTile, "map-tiles-404"), Self.basicLatin, Self.spriteIndex]
        for path in paths { _ = try get(server, path) }
        let entries = engine.journal.entries().suffix(paths.count)
        XCTAssertEqual(entries.map(\.endpoint?.name), ["map-style", "map-tilejson", "vector-tile", "raster-tile", "glyphs", "sprite"])
        XCTAssertEqual(entries.map(\.status), [200, 200, 404, 404, 200, 200])
        // The admin API filters by those names.
        let filtered = try get(server, "/__sim/journal?endpoint=vector-tile").json()
        XCTAssertEqual(filtered["count"], 1)
        XCTAssertEqual(filtered["entries"]?[0]?["endpoint"], "vector-tile")
        XCTAssertEqual(filtered["entries"]?[0]?["rule"], "tiles 404")
    }
}
