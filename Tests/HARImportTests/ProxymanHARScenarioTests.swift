import Foundation
import HARImport
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import VietMapClient
import XCTest

/// A HAR 1.2 file becomes a scenario that validates and reproduces its VietMap exchanges.
final class ProxymanHARScenarioTests: XCTestCase {
    static let failingRoute = #"{"license":"vietmap","code":"OK","messages":null,"paths":[{"distance":"1334.6","time":961000}]}"#
    static let route500 = #"{"license":"vietmap","code":"ERROR_UNKNOWN","messages":"internal error","paths":null}"#
    static let placeBody = #"{"display":"Chợ Bến Thành","name":"Chợ Bến Thành","hs_num":"","street":"","address":"","city_id":79,"city":"Hồ Chí Minh","district_id":0,"district":"","ward_id":26743,"ward":"Bến Thành","lat":10.7725,"lng":106.698}"#
    static let routeURL = "https://maps.vietmap.vn/api/route/v4?apikey=FIELD-KEY&vehicle=car&points_encoded=true&point=10.772500,106.698000&point=10.776900,106.700900"

    static func entry(_ url: String, status: Int, text: String?, encoding: String? = nil, mime: String = "application/json", wait: Double = 5) -> JSONValue {
        var content: [(String, JSONValue)] = [("size", .integer(text?.utf8.count ?? 0)), ("mimeType", .string(mime)), ("compression", .integer(200))]
        if let text { content.append(("text", .string(text))) }
        if let encoding { content.append(("encoding", .string(encoding))) }
        return .object(JSONObject([
            ("startedDateTime", "2026-11-30T08:00:00.000+07:00"), ("time", .number(wait + 20)),
            ("request", .object(JSONObject([("method", "GET"), ("url", .string(url)), ("httpVersion", "HTTP/2"),
                                            ("headers", [["name": "accept-encoding", "value": "gzip"]]), ("queryString", []), ("cookies", []),
                                            ("headersSize", -1), ("bodySize", 0)]))),
            ("response", .object(JSONObject([("status", .integer(status)), ("statusText", ""), ("httpVersion", "HTTP/2"),
                                             ("headers", [["name": "content-type", "value": .string(mime + "; charset=utf-8")],
                                                          ["name": "content-encoding", "value": "gzip"]]),
                                             ("cookies", []), ("content", .object(JSONObject(content))), ("redirectURL", ""),
                                             ("headersSize", -1), ("bodySize", -1)]))),
            ("cache", [:]), ("timings", ["send": 1, "wait": .number(wait), "receive": 2]),
        ]))
    }

    func testAHARBecomesAScenarioThatReproducesTheExchanges() async throws {
        let autocompleteBody = #"[{"ref_id":"auto:x","address":"Hồ Chí Minh","name":"Bến Thành","display":"Bến Thành Hồ Chí Minh"}]"#
        let har: JSONValue = ["log": ["version": "1.2", "creator": ["name": "Proxyman", "version": "5"], "entries": .array([
            Self.entry("https://maps.vietmap.vn/api/autocomplete/v4?apikey=FIELD-KEY&text=ben%20thanh&focus=", status: 200, text: autocompleteBody, wait: 150),
            Self.entry(Self.routeURL, status: 500, text: Self.route500),
            Self.entry("https://other.example.com/api/route/v4?point=1,2&point=3,4", status: 200, text: "{}"),
            Self.entry("https://maps.vietmap.vn/tiles/1/2/3.png", status: 200, text: "iVBORw0KGgo=", encoding: "base64", mime: "image/png"),
            Self.entry(Self.routeURL.replacingOccurrences(of: "apikey=FIELD-KEY&", with: ""), status: 200, text: Self.failingRoute),
            Self.entry("https://maps.vietmap.vn/api/place/v4?apikey=FIELD-KEY&refid=auto:abc", status: 200,
                       text: Data(Self.placeBody.utf8).base64EncodedString(), encoding: "base64"),
        ])]]
        let result = try HARImport.exchanges(fromHAR: Data(JSONSerializer.bytes(har)), options: .init(hosts: HARImport.defaultHosts))
        XCTAssertEqual(result.exchanges.count, 4)
        XCTAssertEqual(result.skipped, ["other host": 1, "other path": 1], "another host and a non-endpoint path")
        XCTAssertEqual(result.otherHosts, ["other.example.com"])
        let document = try ReplayScenario.document(for: result.exchanges, options: .init(name: "field-route", description: "from session.har"))
        let text = JSONPrettyPrinter.string(document)
        XCTAssertFalse(text.contains("FIELD-KEY"), "the key is not copied")

        // It validates with the engine's loader…
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(text.utf8).write(to: directory.appendingPathComponent("field-route.json"))
        let library = ScenarioLibrary.load(directory: directory)
        XCTAssertEqual(library.issues.map(\.description), [])
        XCTAssertEqual(library.scenarios.map(\.name), ["field-route"])

        // …and reproduces the exchanges for any client, over HTTP.
        let service = try VietMapService(databasePath: try TestDataset.path())
        let engine = ScenarioEngine(library: library)
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4), responder: engine.wrap(service))
        try server.start()
        defer { server.stop() }
        func get(_ target: String) throws -> (status: Int, body: String, contentType: String?) {
            let client = try RawHTTPClient(port: server.port, receiveTimeout: 10)
            try client.get(target)
            let response = try client.readResponse()
            return (response.status, String(decoding: response.body, as: UTF8.self), response.header("Content-Type"))
        }
        let key = "apikey=scenario:field-route"
        let started = Date()
        let autocomplete = try get("/api/autocomplete/v4?\(key)&text=ben%20thanh")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.15, "the recorded server time")
        XCTAssertEqual(autocomplete.status, 200)
        XCTAssertEqual(autocomplete.body, autocompleteBody, "byte-identical")
        XCTAssertEqual(autocomplete.contentType, "application/json; charset=utf-8")
        let routeTarget = "/api/route/v4?\(key)&point=10.772500,106.698000&point=10.776900,106.700900&vehicle=car&points_encoded=true"
        let routes = try (0..<3).map { _ in try get(routeTarget) }
        XCTAssertEqual(routes.map(\.status), [500, 200, 200], "in the recorded order, then the last")
        XCTAssertEqual(routes.map(\.body), [Self.route500, Self.failingRoute, Self.failingRoute])
        XCTAssertEqual(try get("/api/place/v4?\(key)&refid=auto:abc").body, Self.placeBody)
        // A request the HAR does not hold gets the normal answer.
        XCTAssertNotEqual(try get("/api/autocomplete/v4?\(key)&text=pho").body, autocompleteBody)

        // The reference client fails on the replay exactly as on the field answer.
        let field = RecordedVietMapProvider(recordings: [VMRecording(
            request: try VMRequest.route(points: [VMCoordinate(latitude: 10.7725, longitude: 106.698), VMCoordinate(latitude: 10.7769, longitude: 106.7009)]),
            response: VMRawResponse(status: 200, headers: ["content-type": "application/json"], body: Data(Self.failingRoute.utf8)))])
        let replayed = HTTPVietMapProvider.simulator(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, apiKey: "scenario:field-route@client")
        func failure(_ provider: any VietMapProvider) async -> String {
            do {
                _ = try await provider.route(points: [VMCoordinate(latitude: 10.7725, longitude: 106.698), VMCoordinate(latitude: 10.7769, longitude: 106.7009)])
                return "no error"
            } catch {
                return String(describing: error)
            }
        }
        _ = await failure(replayed)  // the recorded 500 comes first
        let fieldFailure = await failure(field)
        XCTAssertNotEqual(fieldFailure, "no error")
        let replayFailure = await failure(replayed)
        XCTAssertEqual(replayFailure, fieldFailure)
    }

    func testNotAHAROrNothingFromVietMapIsAClearError() throws {
        XCTAssertThrowsError(try HARImport.exchanges(fromHAR: Data("{}".utf8))) { error in
            XCTAssertTrue("\(error)".contains("no log.entries"), "\(error)")
        }
        let other: JSONValue = ["log": ["entries": [Self.entry("https://example.com/api/route/v4?point=1,2", status: 200, text: "{}")]]]
        let result = try HARImport.exchanges(fromHAR: Data(JSONSerializer.bytes(other)), options: .init(hosts: HARImport.defaultHosts))
        XCTAssertTrue(result.exchanges.isEmpty)
        XCTAssertEqual(result.otherHosts, ["example.com"])
    }
}
