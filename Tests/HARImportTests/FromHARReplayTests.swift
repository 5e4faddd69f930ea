import Foundation
import HTTPServer
import JSON
import JSONSchema
import Scenarios
import SimTesting
import XCTest

/// `vietmap-sim scenarios from-har` end to end: a HAR written to the 1.2 spec with real
/// simulator answers → the CLI → `scenarios validate` → an in-process server running the
/// scenario → requests get the captured statuses, byte-identical bodies, headers, order and delays.
final class FromHARReplayTests: XCTestCase {
    static let live = "https://maps.vietmap.vn"
    static let routeQuery = "point=10.7769,106.7008&point=10.7725,106.6980&vehicle=car"
    static let emptyRouteBody = Data(#"{"license":"vietmap","code":"OK","messages":null,"paths":[]}"#.utf8)
    static let quotaBody = Data(#"{"code":"OVER_DAILY_LIMIT","message":"API key has reached its daily request limit"}"#.utf8)

    func testHARReplaysItsExchangesByteForByteInOrderWithTheirDelays() throws {
        let simulator = try startServer()
        let route = try get(simulator, "/api/route/v4?apikey=k&\(Self.routeQuery)")
        let autocomplete = try get(simulator, "/api/autocomplete/v4?apikey=k&text=b%E1%BA%BFn%20th%C3%A0nh")
        let refId = try XCTUnwrap(JSONParser.parse(autocomplete.body)[0]?["ref_id"]?.stringValue)
        let place = try get(simulator, "/api/place/v4?apikey=k&refid=\(refId)")
        let ben = try get(simulator, "/api/autocomplete/v4?apikey=k&text=ben")
        XCTAssertEqual([route.status, autocomplete.status, place.status, ben.status], [200, 200, 200, 200])

        var har = HARWriter()
        har.add(url: "\(Self.live)/api/route/v4?apikey=SECRET-KEY&\(Self.routeQuery)", status: 200, body: route.body, waitMs: 150)
        har.add(url: "https://tile.openstreetmap.org/15/26050/15370.png", status: 200, headers: [("Content-Type", "image/png")],
                body: Data([0x89, 0x50, 0x4E, 0x47]), storage: .base64)
        har.add(method: "OPTIONS", url: "\(Self.live)/api/route/v4?\(Self.routeQuery)", status: 204)
        har.add(url: "\(Self.live)/api/autocomplete/v4?apikey=SECRET-KEY&text=b%E1%BA%BFn%20th%C3%A0nh", status: 200,
                body: autocomplete.body, storage: .base64, waitMs: 40)
        har.add(url: "\(Self.live)/api/place/v4?apikey=SECRET-KEY&refid=\(refId)", status: 200,
                headers: [("content-type", "application/json; charset=utf-8"), ("content-encoding", "gzip")],
                body: place.body, storage: .gzipBase64)
        har.add(url: "\(Self.live)/api/route/v4?apikey=SECRET-KEY&point=10.7769,106.7008&point=10.80,106.70&vehicle=car",
                status: 200, body: Self.emptyRouteBody, waitMs: 20)
        har.add(url: "\(Self.live)/api/autocomplete/v4?apikey=SECRET-KEY&text=ben", status: 429,
                headers: [("Content-Type", "application/json"), ("Retry-After", "30")], body: Self.quotaBody)
        har.add(url: "\(Self.live)/api/autocomplete/v4?apikey=SECRET-KEY&text=ben", status: 200, body: ben.body, waitMs: 250)
        har.add(url: "\(Self.live)/api/place/v4?apikey=SECRET-KEY&refid=gone", status: 0, headers: [],
                waitMs: -1, error: "net::ERR_CONNECTION_RESET")
        har.add(url: "https://proxy.example.com/vietmap/api/route/v4?\(Self.routeQuery.replacingOccurrences(of: "car", with: "motorcycle"))",
                status: 503, body: Data(#"{"code":"ERROR_UNKNOWN"}"#.utf8))

        let directory = try temporaryDirectory()
        try har.write(to: directory.appendingPathComponent("field bug.har"))
        let made = try runCLI(["scenarios", "from-har", "field bug.har", "--out", "field-42.json", "--name", "field-42",
                               "--host", "maps.vietmap.vn"], in: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stdout, "")
        XCTAssertEqual(made.stderr, "from-har: field bug.har: 7 of 10 entries → 6 rules (1 sequence); skipped: 1 OPTIONS, 1 other host, 1 other path; wrote field-42.json\n")
        let file = directory.appendingPathComponent("field-42.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("SECRET-KEY"), "the captured API key never reaches the scenario")
        XCTAssertEqual(try runCLI(["scenarios", "validate", "field-42.json"], in: directory).stdout, "OK: 1 scenario in 1 file\n")
        // The editors' JSON Schema accepts it too.
        let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/scenario.schema.json")
        let schema = try SchemaValidator(schema: try JSONParser.parse(Data(contentsOf: schemaFile)))
        XCTAssertEqual(schema.validate(try JSONParser.parse(Data(text.utf8))).map(\.description), [])

        let library = ScenarioLibrary.load(files: [file])
        XCTAssertEqual(library.issues.map(\.description), [])
        let engine = ScenarioEngine(library: library, configuration: .init(defaultScenario: "field-42"))
        let replay = try startServer(engine: engine)

        func check(_ target: String, status: Int, body: Data, waitMs: Double = 0, file: StaticString = #filePath, line: UInt = #line) throws -> RawHTTPClient.Response {
            let started = Date()
            let response = try get(replay, target)
            let elapsed = Date().timeIntervalSince(started) * 1000
            XCTAssertEqual(response.status, status, target, file: file, line: line)
            XCTAssertEqual(response.body, body, "\(target): byte-identical body", file: file, line: line)
            XCTAssertGreaterThanOrEqual(elapsed, waitMs - 2, "\(target): delay", file: file, line: line)
            XCTAssertLessThan(elapsed, waitMs + 1500, "\(target): delay", file: file, line: line)
            return response
        }
        // Parameter order and the key do not matter; the values do.
        let replayedRoute = try check("/api/route/v4?vehicle=car&apikey=mine&point=10.7769,106.7008&point=10.7725,106.6980",
                                      status: 200, body: route.body, waitMs: 150)
        XCTAssertEqual(replayedRoute.header("Content-Type"), "application/json; charset=utf-8")
        _ = try check("/api/autocomplete/v4?apikey=mine&text=b%E1%BA%BFn+th%C3%A0nh", status: 200, body: autocomplete.body, waitMs: 40)
        _ = try check("/api/place/v4?refid=\(refId)&apikey=mine", status: 200, body: place.body)
        _ = try check("/api/route/v4?apikey=mine&point=10.7769,106.7008&point=10.80,106.70&vehicle=car", status: 200,
                      body: Self.emptyRouteBody, waitMs: 20)
        let limited = try check("/api/autocomplete/v4?apikey=mine&text=ben", status: 429, body: Self.quotaBody)
        XCTAssertEqual(limited.header("Retry-After"), "30")
        XCTAssertEqual(limited.header("Content-Type"), "application/json")
        _ = try check("/api/autocomplete/v4?apikey=mine&text=ben", status: 200, body: ben.body, waitMs: 250)
        _ = try check("/api/autocomplete/v4?apikey=mine&text=ben", status: 200, body: ben.body, waitMs: 250)  // the last answer repeats
        XCTAssertEqual(engine.journal.entries().last?.rule, "autocomplete (entries 6, 7)")

        let client = try RawHTTPClient(port: replay.port)
        try client.get("/api/place/v4?apikey=mine&refid=gone")
        XCTAssertEqual(client.readToEnd().error, ECONNRESET, "no response in the HAR → connection reset")

        // Not captured: the points reversed, an extra parameter, the other host's entry → the simulator answers.
        for target in ["/api/route/v4?apikey=mine&point=10.7725,106.6980&point=10.7769,106.7008&vehicle=car",
                       "/api/route/v4?apikey=mine&\(Self.routeQuery)&points_encoded=false",
                       "/api/route/v4?apikey=mine&\(Self.routeQuery.replacingOccurrences(of: "car", with: "motorcycle"))"] {
            XCTAssertEqual(try get(replay, target).status, 200, target)
            XCTAssertNil(engine.journal.entries().last?.rule, "\(target) is not a captured request")
        }
    }

    func testStdoutWithoutOutAndNotFoundForUncapturedRequests() throws {
        var har = HARWriter()
        har.add(url: "http://127.0.0.1:8080/__scenario/x/api/place/v4?refid=abc&apikey=dev", status: 200,
                headers: [("Content-Type", "text/html")], body: Data("<html>Bad gateway</html>".utf8), storage: .plain)
        har.add(url: "http://127.0.0.1:8080/api/autocomplete/v4?text=a&apikey=dev", status: 200,
                headers: [("Content-Type", "application/octet-stream")], body: Data([0xFF, 0x00, 0xFE]), storage: .base64)
        let directory = try temporaryDirectory()
        try har.write(to: directory.appendingPathComponent("s.har"))
        let made = try runCLI(["scenarios", "from-har", "s.har", "--unmatched", "not-found", "--timing", "none", "--host", "*"], in: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
        let scenario = try Scenario(json: Data(made.stdout.utf8))
        XCTAssertEqual(scenario.name, "s")
        let engine = ScenarioEngine(library: ScenarioLibrary(scenarios: [scenario]), configuration: .init(defaultScenario: "s"))
        let replay = try startServer(engine: engine)
        let html = try get(replay, "/api/place/v4?refid=abc&apikey=k")
        XCTAssertEqual(html.header("Content-Type"), "text/html")
        XCTAssertEqual(html.body, Data("<html>Bad gateway</html>".utf8))
        let binary = try get(replay, "/api/autocomplete/v4?text=a&apikey=k")
        XCTAssertEqual(binary.body, Data([0xFF, 0x00, 0xFE]))
        XCTAssertEqual(binary.header("Content-Type"), "application/octet-stream")
        let other = try get(replay, "/api/place/v4?refid=zzz&apikey=k")
        XCTAssertEqual(other.status, 404)
        XCTAssertEqual(try JSONParser.parse(other.body)["code"], "NOT_FOUND")
    }

    func testBadHARFilesFailWithOneLineNamingTheEntryAndWriteNothing() throws {
        let directory = try temporaryDirectory()
        func entries(_ json: String) throws -> String {
            let name = "case-\(UUID().uuidString.prefix(6)).har"
            try Data(#"{"log": {"version": "1.2", "entries": \#(json)}}"#.utf8).write(to: directory.appendingPathComponent(name))
            return name
        }
        let good = #"{"request": {"method": "GET", "url": "https://maps.vietmap.vn/api/route/v4?point=1,2&point=3,4"}, "response": {"status": 200, "headers": [], "content": {"text": "{}"}}, "time": 5}"#
        let cases: [(String, String)] = [
            (try entries("[\(good), {\"request\": {\"method\": \"GET\", \"url\": \"https://maps.vietmap.vn/api/place/v4?refid=1\"}, \"response\": {\"status\": 200, \"content\": {\"text\": \"@@@\", \"encoding\": \"base64\"}}}]"),
             "entry 1 (/log/entries/1): response.content.text is not valid base64"),
            (try entries("[{\"request\": {\"method\": \"GET\", \"url\": \"https://maps.vietmap.vn/api/place/v4?refid=1\"}, \"response\": {\"status\": 200, \"content\": {\"text\": \"H4sIAAAAAAAAA6tWSs5PSVWyMjQwqAUAAAD//w==\", \"encoding\": \"base64\"}}}]"),
             "entry 0 (/log/entries/0): the compressed body is"),
            (try entries("[\(good), \(good), {\"request\": {\"method\": \"GET\", \"url\": \"https://maps.vietmap.vn/api/route/v4?point=1,2\"}, \"response\": {\"status\": 200, \"content\": {\"size\": 1200, \"mimeType\": \"application/json\"}}}]"),
             "entry 2 (/log/entries/2): the HAR does not contain the response body"),
            (try entries("[{\"request\": {\"method\": \"GET\", \"url\": \"https://maps.vietmap.vn/api/route/v4?point=1,2\"}, \"response\": {\"status\": 101}}]"),
             "entry 0 (/log/entries/0): response.status 101 cannot be replayed"),
            (try entries("[{\"request\": {\"method\": \"GET\", \"url\": \"https://example.com/x\"}, \"response\": {\"status\": 200}}]"),
             "none of its 1 entries is a GET /api/autocomplete|place|route/v4 on maps.vietmap.vn"),
            (try entries("[{\"request\": {\"method\": \"GET\", \"url\": \"http://127.0.0.1:9999/api/route/v4?point=1,2\"}, \"response\": {\"status\": 200}}]"),
             "VietMap paths were seen on 127.0.0.1:9999 (add --host HOST, or --host '*')"),
            (try entries("{}"), "not a HAR file: no log.entries array"),
        ]
        for (file, expected) in cases {
            let outcome = try runCLI(["scenarios", "from-har", file, "--out", "out.json"], in: directory)
            XCTAssertEqual(outcome.status, 1, file)
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.hasPrefix("vietmap-sim: \(file): "), outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains(expected), "\(outcome.stderr) lacks \(expected)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path), "no half-written output")
        // An existing --out is replaced whole on success and left alone on failure.
        try Data("previous".utf8).write(to: directory.appendingPathComponent("kept.json"))
        XCTAssertEqual(try runCLI(["scenarios", "from-har", cases[0].0, "--out", "kept.json"], in: directory).status, 1)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("kept.json"), encoding: .utf8), "previous")
        let goodFile = try entries("[\(good)]")
        XCTAssertEqual(try runCLI(["scenarios", "from-har", goodFile, "--out", "kept.json"], in: directory).status, 0)
        XCTAssertNoThrow(try Scenario(json: Data(contentsOf: directory.appendingPathComponent("kept.json"))))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("kept.json"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".har") }, [])
        let missing = try runCLI(["scenarios", "from-har", "nope.har"], in: directory)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("nope.har: cannot read the file"), missing.stderr)
        XCTAssertEqual(try runCLI(["scenarios", "from-har", "a.har", "--name", "bad name"], in: directory).status, 64)
        XCTAssertEqual(try runCLI(["scenarios", "from-har", "a.har", "--unmatched", "maybe"], in: directory).status, 64)
    }
}
