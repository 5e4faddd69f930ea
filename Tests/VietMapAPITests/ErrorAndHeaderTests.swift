import Foundation
import JSON
import VietMapAPI
import HTTPServer
import XCTest

/// Status codes, error bodies and headers of section 8 of the reference.
final class ErrorAndHeaderTests: XCTestCase {
    let sim = SimulatorHarness.shared

    func assertError(_ reply: SimulatorHarness.Reply, status: Int, code: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(reply.status, status, file: file, line: line)
        let body = try reply.json()
        XCTAssertEqual(body.objectValue?.keys, ["code", "message"], file: file, line: line)
        XCTAssertEqual(body["code"], .string(code), file: file, line: line)
        XCTAssertFalse(body["message"]?.stringValue?.isEmpty ?? true, file: file, line: line)
        XCTAssertEqual(reply.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
    }

    func testSuccessHeaders() async throws {
        let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "ben thanh")])
        XCTAssertEqual(reply.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(reply.header("Access-Control-Allow-Origin"), "*")
    }

    func testMissingOrEmptyKeyIs401WithoutCORS() async throws {
        for items in [[("text", "ben thanh")], [("apikey", ""), ("text", "ben thanh")]] {
            let reply = try await sim.get("/api/autocomplete/v4", items)
            try assertError(reply, status: 401, code: "UNAUTHORIZED")
            XCTAssertNil(reply.header("Access-Control-Allow-Origin"))
            // The message says what works here (a newcomer's first 401).
            XCTAssertEqual(try reply.json()["message"]?.stringValue,
                           "apikey is missing: add apikey=ANY-NON-EMPTY-KEY (this simulator accepts any non-empty key)")
        }
        let place = try await sim.get("/api/place/v4", [("refid", "auto:x")])
        try assertError(place, status: 401, code: "UNAUTHORIZED")
    }

    func testConfiguredKeysRejectOthers() throws {
        let service = VietMapService(search: sim.service.search, roadGraph: sim.service.roadGraph, apiKeys: ["team-key"])
        let good = service.respond(to: HTTPRequest(method: "GET", target: "/api/autocomplete/v4?apikey=team-key&text=ben"))
        XCTAssertEqual(good.status, 200)
        let bad = service.respond(to: HTTPRequest(method: "GET", target: "/api/autocomplete/v4?apikey=other&text=ben"))
        XCTAssertEqual(bad.status, 401)
        XCTAssertTrue(String(decoding: bad.body, as: UTF8.self).contains("accepts only the keys it was started with (serve --api-key)"),
                      String(decoding: bad.body, as: UTF8.self))
    }

    func testBadParametersAre400InvalidRequest() async throws {
        let cases: [[(String, String)]] = [
            [],                                                       // no text
            [("text", "   ")],                                        // blank text
            [("text", "ben"), ("focus", "10.7,abc")],
            [("text", "ben"), ("focus", "91,106")],
            [("text", "ben"), ("display_type", "7")],                // 4 is read as 3 (the JS SDK's AS_INPUT_FORMAT)
            [("text", "ben"), ("display_type", "x")],
            [("text", "ben"), ("cityId", "ho chi minh")],
            [("text", "ben"), ("circle_center", "10.77,106.70")],     // radius missing
            [("text", "ben"), ("circle_center", "10.77,106.70"), ("circle_radius", "-5")],
            [("text", "ben"), ("layers", "PLANET")],
        ]
        for extra in cases {
            let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev")] + extra)
            try assertError(reply, status: 400, code: "INVALID_REQUEST")
        }
    }

    func testMalformedPercentEncodingIs400() async throws {
        for query in ["text=%E1%BB", "text=%G1abc", "text=abc%", "text=%FF%FE"] {
            let reply = try sim.rawGet("/api/autocomplete/v4?apikey=dev&\(query)")
            XCTAssertEqual(reply.status, 400, query)
            XCTAssertEqual(try JSONParser.parse(reply.body)["code"], "INVALID_REQUEST", query)
        }
    }

    func testUnknownPathAndMethod() async throws {
        let reply = try await sim.get("/api/nothing/v9", [("apikey", "dev")])
        try assertError(reply, status: 404, code: "NOT_FOUND")
        let post = sim.service.respond(to: HTTPRequest(method: "POST", target: "/api/place/v4?apikey=dev&refid=x"))
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.headers["Allow"], "GET, HEAD, OPTIONS")
    }

    func testCORSPreflight() throws {
        let reply = sim.service.respond(to: HTTPRequest(method: "OPTIONS", target: "/api/autocomplete/v4"))
        XCTAssertEqual(reply.status, 204)
        XCTAssertEqual(reply.headers["Access-Control-Allow-Origin"], "*")
    }

    func testConcurrentRequestsAllSucceed() async throws {
        let queries = ["ben thanh", "nha tho", "le loi", "hoan kiem", "cafe", "pho", "ha noi", "quan 1"]
        let sim = self.sim
        try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<64 {
                group.addTask { try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", queries[i % queries.count])]).status }
            }
            for try await status in group { XCTAssertEqual(status, 200) }
        }
    }
}
