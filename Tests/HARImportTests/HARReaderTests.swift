import Foundation
import HARImport
import JSON
import JSONSchema
import Scenarios
import VietMapWire
import XCTest

/// What `HARImport` takes from a HAR file besides the common case (see `FromHARReplayTests`).
final class HARReaderTests: XCTestCase {
    private func read(_ entries: String, options: HARImport.Options = .init()) throws -> HARImport.Result {
        try HARImport.exchanges(fromHAR: Data(#"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": \#(entries)}}"#.utf8),
                                options: options)
    }

    func testOrderQueryStringFallbackFaultsTimingAndHosts() throws {
        let deflated = gzip(Data("[]".utf8))  // a gzip stream: inflated whatever the header says
        let result = try read(#"""
            [{"startedDateTime": "2026-12-01T10:00:02.500+07:00", "time": 80, "timings": {"wait": -1},
              "request": {"method": "GET", "url": "https://maps.vietmap.vn/api/autocomplete/v4", "queryString": [{"name": "text", "value": "bến"}]},
              "response": {"status": 200, "headers": [], "content": {"text": "\#(deflated.base64EncodedString())", "encoding": "base64"}}},
             {"startedDateTime": "2026-12-01T03:00:01Z", "time": 900, "timings": {"wait": 850.4},
              "request": {"method": "GET", "url": "http://127.0.0.1:8080/api/place/v4/?refid=a%2Bb+c"},
              "response": {"status": 0, "_error": "net::ERR_EMPTY_RESPONSE", "content": {"size": 0}}}]
            """#)
        XCTAssertEqual(result.exchanges.map(\.origin), ["entry 1", "entry 0"], "sorted by startedDateTime")
        XCTAssertEqual(result.exchanges[0].outcome, .emptyReply)
        XCTAssertEqual(result.exchanges[0].query.map { "\($0.name)=\($0.value)" }, ["refid=a+b c"])
        XCTAssertEqual(result.exchanges[0].latencyMilliseconds, 850.4)
        XCTAssertEqual(result.exchanges[1].query.map { "\($0.name)=\($0.value)" }, ["text=bến"], "queryString when the URL has none")
        XCTAssertEqual(result.exchanges[1].latencyMilliseconds, 80, "no wait: the entry's time")
        XCTAssertEqual(result.exchanges[1].outcome, .response(CapturedResponse(status: 200, body: Data("[]".utf8))))

        let onlyLocal = try read(#"""
            [{"request": {"method": "GET", "url": "http://127.0.0.1:8080/api/route/v4?point=1,2"}, "response": {"status": 500}},
             {"request": {"method": "GET", "url": "http://127.0.0.1:9090/api/route/v4?point=1,2"}, "response": {"status": 500}},
             {"request": {"method": "GET", "url": "https://maps.vietmap.vn/api/route/v4?point=1,2"}, "response": {"status": 500}},
             {"_fromCache": "disk", "request": {"method": "GET", "url": "http://127.0.0.1:8080/api/route/v4?point=1,2"}, "response": {"status": 200}},
             {"request": {"method": "HEAD", "url": "http://127.0.0.1:8080/api/route/v4?point=1,2"}, "response": {"status": 200}}]
            """#, options: .init(hosts: ["127.0.0.1:8080"], timing: .total))
        XCTAssertEqual(onlyLocal.exchanges.map(\.origin), ["entry 0"])
        XCTAssertEqual(onlyLocal.skipped, ["other host": 2, "from the browser cache": 1, "HEAD": 1])

        let document = try ReplayScenario.document(for: result.exchanges, options: .init(name: "n", description: "d"))
        let scenario = try Scenario(json: Data(JSONSerializer.bytes(document)))
        XCTAssertEqual(scenario.ruleCount, 2)
        XCTAssertEqual(document["rules"]?[0]?["fault"], "empty")
        XCTAssertEqual(document["rules"]?[0]?["delay"], 850)
        XCTAssertEqual(document["rules"]?[1]?["respond"]?["headers"]?["Content-Type"], .null, "no Content-Type captured: none sent")
        let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/scenario.schema.json")
        let schema = try SchemaValidator(schema: try JSONParser.parse(Data(contentsOf: schemaFile)))
        XCTAssertEqual(schema.validate(document).map(\.description), [], "the editors' JSON Schema accepts faults, nulls and delays")
        let binary = try ReplayScenario.document(for: [CapturedExchange(
            endpoint: .place, query: [("refid", "a"), ("refid", "b")],
            outcome: .response(CapturedResponse(status: 200, body: Data([0xFF]), truncatedAfterBytes: 0)), latencyMilliseconds: 1e9, origin: "x")],
            options: .init(name: "n", description: "d", unmatched: .notFound))
        XCTAssertEqual(schema.validate(binary).map(\.description), [])
        XCTAssertNoThrow(try Scenario(json: Data(JSONSerializer.bytes(binary))))
        XCTAssertEqual(binary["rules"]?[0]?["delay"], 600_000, "at most 10 minutes")
        XCTAssertEqual(binary["rules"]?[0]?["respond"]?["base64"], "/w==")
    }

    func testPrettyPrintedScenariosParseBackToTheSameValue() throws {
        let value = try JSONParser.parse(#"{"a": [1, 2.5, -0.001, "x\n\"y\"", null, true, {}], "b": {"c": [], "d": "\#(String(repeating: "z", count: 120))"}, "é": 1e300}"#)
        let text = JSONPrettyPrinter.string(value, inlineWidth: 20)
        XCTAssertEqual(try JSONParser.parse(text), value)
        XCTAssertTrue(text.contains("\n  \"b\": {\n"), text)
        XCTAssertEqual(JSONPrettyPrinter.string(["k": [1, 2]]), "{\"k\": [1, 2]}\n")
    }
}
