import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// The pieces replay scenarios need (`match.exact`, value lists, `respond.base64`) and
/// `GET /__sim/journal/SEQ/scenario`, over real HTTP.
final class ReplayScenarioTests: XCTestCase {
    func testExactMatchAndValueListsAndBase64Bodies() throws {
        let engine = try makeEngine(#"""
            {"name": "x", "description": "d", "rules": [
              {"match": {"endpoint": "route", "exact": true, "params": {"point": ["1,2", "3,4"], "vehicle": "car"}},
               "respond": {"status": 503, "base64": "AP8BAg==", "headers": {"Content-Type": "image/x-test"}}},
              {"match": {"endpoint": "place", "exact": true, "params": {"refid": "a"}}, "respond": {"status": 418, "text": "tea"}}
            ]}
            """#, configuration: .init(defaultScenario: "x"))
        let server = try startServer(engine)
        let hit = try get(server, "/api/route/v4?vehicle=car&apikey=k&point=1,2&point=3,4&focus=")
        XCTAssertEqual(hit.status, 503, "order of names, apikey and empty values do not matter")
        XCTAssertEqual(hit.body, Data([0x00, 0xFF, 0x01, 0x02]))
        XCTAssertEqual(hit.header("Content-Type"), "image/x-test")
        for target in ["/api/route/v4?apikey=k&point=3,4&point=1,2&vehicle=car",          // the points' order matters
                       "/api/route/v4?apikey=k&point=1,2&point=3,4&vehicle=car&alternative=true",  // another parameter
                       "/api/route/v4?apikey=k&point=1,2&vehicle=car"] {
            XCTAssertNotEqual(try get(server, target).status, 503, target)
        }
        XCTAssertEqual(try get(server, "/api/place/v4?refid=a&apikey=k").status, 418)
        XCTAssertNotEqual(try get(server, "/api/place/v4?refid=a&refid=a&apikey=k").status, 418, "repeated, but listed once")

        func issues(_ document: String) -> [String] {
            do {
                _ = try Scenario(json: Data(document.utf8))
                return []
            } catch {
                return error.issues.map { "\($0.pointer): \($0.reason)" }
            }
        }
        XCTAssertEqual(issues(#"{"name": "x", "description": "d", "rules": [{"respond": {"base64": "***"}}]}"#),
                       ["/rules/0/respond/base64: is not valid base64 (RFC 4648, with padding, no line breaks)"])
        XCTAssertEqual(issues(#"{"name": "x", "description": "d", "rules": [{"respond": {"base64": "AA==", "text": "a"}}]}"#),
                       ["/rules/0/respond: give only one of json, text, base64, error (found text, base64)"])
        XCTAssertEqual(issues(#"{"name": "x", "description": "d", "rules": [{"match": {"params": {"point": []}, "exact": 1}}]}"#),
                       ["/rules/0/match/params/point: must not be empty (an array lists the exact values, in order)",
                        "/rules/0/match/exact: must be true or false, found integer 1"])
    }

    func testJournalEntryBecomesAScenarioThatReplaysIt() throws {
        let engine = try makeEngine(#"""
            {"name": "field", "description": "d", "rules": [
              {"match": {"endpoint": "autocomplete"}, "respond": {"error": "OVER_DAILY_LIMIT"}},
              {"match": {"endpoint": "place"}, "fault": {"truncate": {"bytes": 7}}},
              {"match": {"endpoint": "route"}, "fault": "reset"}
            ]}
            """#, configuration: .init(adminEnabled: true))
        let server = try startServer(engine)
        let limited = try get(server, "/api/autocomplete/v4?apikey=scenario:field&text=b%E1%BA%BFn&focus=10.77,106.70")
        XCTAssertEqual(limited.status, 429)
        let limitedSeq = try XCTUnwrap(engine.journal.entries().last?.sequence)
        let placeSeq = limitedSeq + 1
        _ = try? get(server, "/api/place/v4?apikey=scenario:field&refid=abc")
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/route/v4?apikey=scenario:field&\(TestSimulator.routeQuery)")
        _ = client.readToEnd()
        let plainSeq = placeSeq + 2
        let plain = try get(server, "/api/autocomplete/v4?apikey=k&text=ben")

        let made = try get(server, "/__sim/journal/\(limitedSeq)/scenario?name=quota-seen")
        XCTAssertEqual(made.status, 200, String(decoding: made.body, as: UTF8.self))
        let quota = try Scenario(json: made.body)
        XCTAssertEqual(quota.name, "quota-seen")
        let placeScenario = try Scenario(json: try get(server, "/__sim/journal/\(placeSeq)/scenario").body)
        let resetScenario = try Scenario(json: try get(server, "/__sim/journal/\(placeSeq + 1)/scenario").body)
        let plainScenario = try Scenario(json: try get(server, "/__sim/journal/\(plainSeq)/scenario").body)
        XCTAssertEqual([placeScenario.name, plainScenario.name], ["journal-\(placeSeq)", "journal-\(plainSeq)"])

        let replayEngine = ScenarioEngine(library: ScenarioLibrary(scenarios: [quota, placeScenario, resetScenario, plainScenario]))
        let replay = try startServer(replayEngine)
        let again = try get(replay, "/api/autocomplete/v4?focus=10.77,106.70&text=b%E1%BA%BFn&apikey=scenario:quota-seen")
        XCTAssertEqual(again.status, 429)
        XCTAssertEqual(again.body, limited.body)
        XCTAssertEqual(again.header("Retry-After"), limited.header("Retry-After"))
        XCTAssertEqual(try get(replay, "/api/autocomplete/v4?text=b%E1%BA%BFn&apikey=scenario:quota-seen").status, 200,
                       "another request (no focus) is not the journaled one")
        let cut = try get(replay, "/api/place/v4?apikey=scenario:journal-\(placeSeq)&refid=abc")
        XCTAssertTrue(cut.truncated)
        XCTAssertEqual(cut.body.count, 7)
        let resetClient = try RawHTTPClient(port: replay.port)
        try resetClient.get("/api/route/v4?apikey=scenario:journal-\(placeSeq + 1)&\(TestSimulator.routeQuery)")
        XCTAssertEqual(resetClient.readToEnd().error, ECONNRESET)
        let plainAgain = try get(replay, "/api/autocomplete/v4?apikey=scenario:journal-\(plainSeq)&text=ben")
        XCTAssertEqual(plainAgain.body, plain.body)
        XCTAssertEqual(replayEngine.journal.entries().last?.rule, "autocomplete (journal \(plainSeq))")
    }

    func testJournalEntriesThatCannotBeReplayedAreRefusedWithTheReason() throws {
        let long = String(repeating: "a", count: 70_000)
        let engine = try makeEngine(#"{"name": "big", "description": "d", "rules": [{"match": {"endpoint": "place"}, "respond": {"text": "\#(long)"}}]}"#,
                                    configuration: .init(adminEnabled: true, journalBodyBudget: 100_000))
        let server = try startServer(engine)
        _ = try get(server, "/api/place/v4?apikey=scenario:big&refid=x")
        let bigSeq = try XCTUnwrap(engine.journal.entries().last?.sequence)
        _ = try get(server, "/api/place/v4?apikey=k&refid=\(String(repeating: "r", count: 300))")
        _ = try get(server, "/nothing-here")
        _ = try get(server, "/api/autocomplete/v4?apikey=k&text=ben")
        let refusals: [(Int, Int, String)] = [
            (bigSeq, 409, "its body was cut to 65536 of 70000 bytes"),
            (bigSeq + 1, 422, "the journal cut its query"),
            (bigSeq + 2, 422, "is not a request to an API endpoint"),
            (bigSeq + 99, 404, "is not (or no longer) in the journal"),
        ]
        for (sequence, status, reason) in refusals {
            let response = try get(server, "/__sim/journal/\(sequence)/scenario")
            XCTAssertEqual(response.status, status, "\(sequence)")
            let message = try response.json()["error"]?.stringValue ?? ""
            XCTAssertTrue(message.contains(reason), message)
        }
        XCTAssertEqual(try get(server, "/__sim/journal/\(bigSeq + 3)/scenario?name=no%20spaces").status, 400)

        let tight = try makeEngine(#"{"name": "t", "description": "d", "rules": [{}]}"#, configuration: .init(adminEnabled: true, journalBodyBudget: 10))
        let tightServer = try startServer(tight)
        _ = try get(tightServer, "/api/autocomplete/v4?apikey=k&text=ben")
        let dropped = try get(tightServer, "/__sim/journal/\(try XCTUnwrap(tight.journal.entries().last?.sequence))/scenario")
        XCTAssertEqual(dropped.status, 409)
        XCTAssertTrue(try dropped.json()["error"]?.stringValue?.contains("dropped to keep the journal's body budget") ?? false)
    }
}
