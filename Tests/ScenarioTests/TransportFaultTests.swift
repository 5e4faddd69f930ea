import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// Header-level and framing faults as a raw socket client sees them (reset, truncation and
/// empty replies are in BuiltInScenarioTests).
final class TransportFaultTests: XCTestCase {
    private let target = "/api/autocomplete/v4?apikey=scenario:f&text=ben%20thanh"

    private func serve(_ rule: String) throws -> HTTPServer {
        try startServer(try makeEngine(#"{"name": "f", "description": "d", "rules": [\#(rule)]}"#))
    }

    func testWrongContentLengthLongerThanTheBody() throws {
        let server = try serve(#"{"fault": {"contentLength": {"delta": 100}}}"#)
        let response = try get(server, target)
        let announced = try XCTUnwrap(response.header("Content-Length").flatMap { Int($0) })
        XCTAssertEqual(announced, response.body.count + 100)
        XCTAssertTrue(response.truncated, "the connection closes before the announced length")
    }

    func testWrongContentLengthShorterThanTheBody() throws {
        let server = try serve(#"{"fault": {"contentLength": {"value": 10}}}"#)
        let response = try get(server, target)
        XCTAssertEqual(response.header("Content-Length"), "10")
        XCTAssertEqual(response.body.count, 10)
        XCTAssertThrowsError(try response.json())
    }

    func testWrongContentTypeAndMalformedJSONCombined() throws {
        let server = try serve(#"{"fault": [{"contentType": "text/html; charset=utf-8"}, "malformed-json"]}"#)
        let response = try get(server, target)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertThrowsError(try response.json())
    }

    func testTruncateAtByteCount() throws {
        let server = try serve(#"{"fault": {"truncate": {"bytes": 7}}}"#)
        let response = try get(server, target)
        XCTAssertTrue(response.truncated)
        XCTAssertEqual(response.body.count, 7)
    }

    func testRespondEditsStatusAndHeadersOfTheRealAnswer() throws {
        let server = try serve(#"{"respond": {"status": 203, "headers": {"X-Test": "yes", "Access-Control-Allow-Origin": null}}}"#)
        let response = try get(server, target)
        XCTAssertEqual(response.status, 203)
        XCTAssertEqual(response.header("X-Test"), "yes")
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
        XCTAssertFalse(try response.json().arrayValue?.isEmpty ?? true, "the body is the real answer")
    }

    func testLiteralTextAndJSONBodies() throws {
        let text = try get(try serve(#"{"respond": {"status": 502, "text": "<html>Bad Gateway</html>", "headers": {"Content-Type": "text/html"}}}"#), target)
        XCTAssertEqual(text.status, 502)
        XCTAssertEqual(String(decoding: text.body, as: UTF8.self), "<html>Bad Gateway</html>")
        XCTAssertEqual(text.header("Content-Type"), "text/html")
        let json = try get(try serve(#"{"respond": {"json": {"weird": [1, "two"]}}}"#), target)
        XCTAssertEqual(json.status, 200)
        XCTAssertEqual(try json.json(), ["weird": [1, "two"]])
    }
}
