import Foundation
import HTTPServer
import JSON
import SimTesting
import VietMapWire
@testable import Scenarios
import XCTest

/// The request journal: what an app asked for, when, and what it got.
final class JournalTests: XCTestCase {
    func testCountsFindsAndDebounceGaps() throws {
        let clock = ManualScenarioClock()
        let engine = builtInEngine(.init(clock: clock))
        let server = try startServer(engine)
        var delays: [Int] = []
        for (index, text) in ["b", "be", "ben"].enumerated() {
            if index > 0 { clock.advance(byMilliseconds: 150) }
            let target = "/api/autocomplete/v4?apikey=scenario:slow-autocomplete@typing&text=\(text)&focus=10.77,106.70"
            delays.append(try getDelayed(server, target, engine: engine, clock: clock).delay)
        }
        _ = try get(server, "/api/route/v4?apikey=k&\(TestSimulator.routeQuery)&vehicle=truck")
        let journal = engine.journal
        XCTAssertEqual(journal.count(matching: JournalQuery(endpoint: .route)), 1, "the app asked for the route exactly once")
        XCTAssertEqual(journal.count(matching: JournalQuery(endpoint: .route, parameters: [("vehicle", "truck")])), 1)
        XCTAssertEqual(journal.count(matching: JournalQuery(parameters: [("focus", nil)])), 3)
        let gaps = journal.arrivalGaps(matching: JournalQuery(endpoint: .autocomplete, client: "typing"))
        XCTAssertEqual(gaps.count, 2)
        // Requests are sequential: each arrives 150 ms after the previous answer, which took its delay.
        XCTAssertEqual(gaps, delays.dropLast().map { Double($0 + 150) })
        XCTAssertTrue(gaps.allSatisfy { $0 >= 850 }, "each waits ≥ 700 ms: \(gaps)")
        let entry = try XCTUnwrap(journal.entries(matching: JournalQuery(client: "typing")).first)
        XCTAssertEqual(entry.scenario, "slow-autocomplete")
        XCTAssertEqual(entry.selectedBy, "apikey")
        XCTAssertEqual(entry.rule, "#0")
        XCTAssertEqual(entry.status, 200)
        XCTAssertEqual(entry.latencyMilliseconds, Double(delays[0]))
        XCTAssertEqual(entry.value(of: "text"), "b")
        XCTAssertEqual(journal.entries().last?.value(of: "apikey"), "***")
        XCTAssertNil(journal.entries().last?.scenario)
    }

    func testTheQueryIsKeptExactlyInItsPackedForm() throws {
        let engine = builtInEngine()
        let server = try startServer(engine)
        // Empty, one byte, lengths around the 127/128 boundary of the packed lengths, Vietnamese,
        // repeated names, an empty name.
        let values = ["", "x", String(repeating: "b", count: 127), String(repeating: "c", count: 128), "Bến Thành đ", "200"]
        let query = values.map { "text=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }.joined(separator: "&")
        _ = try get(server, "/api/autocomplete/v4?apikey=k&\(query)&=v&cats=1002-1")
        let entry = try XCTUnwrap(engine.journal.entries().last)
        XCTAssertEqual(entry.query.map(\.name), ["apikey"] + Array(repeating: "text", count: values.count) + ["", "cats"])
        XCTAssertEqual(entry.query.map(\.value), ["***"] + values + ["v", "1002-1"])
        XCTAssertEqual(entry.value(of: "cats"), "1002-1")
        XCTAssertEqual(entry.path, "/api/autocomplete/v4")
        XCTAssertFalse(entry.queryCut)
        XCTAssertNil(entry.scenario)
        XCTAssertNil(entry.fault)
    }

    func testHugeRequestsAreJournalledCut() throws {
        let engine = builtInEngine()
        let server = try startServer(engine)
        let long = String(repeating: "a", count: 5_000)
        _ = try get(server, "/api/autocomplete/v4?apikey=k&text=\(long)&\(long)=1")
        let entry = try XCTUnwrap(engine.journal.entries().last)
        XCTAssertEqual(entry.value(of: "text")?.count, 256)
        XCTAssertTrue(entry.query.allSatisfy { $0.name.count <= 256 && $0.value.count <= 256 })

        // Many parameters: kept while their total stays within 2 KB.
        let many = (0..<60).map { "p\($0)=" + String(repeating: "v", count: 200) }.joined(separator: "&")
        _ = try get(server, "/api/autocomplete/v4?apikey=k&text=ben&" + many)
        let crowded = try XCTUnwrap(engine.journal.entries().last)
        let kept = crowded.query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        XCTAssertLessThanOrEqual(kept, 2_048)
        XCTAssertEqual(crowded.query.prefix(2).map(\.name), ["apikey", "text"], "the first parameters are kept")
        XCTAssertGreaterThan(crowded.query.count, 5)
    }

    func testMultiByteValuesAreCutAtCharactersAndKeptExactly() throws {
        let engine = builtInEngine()
        let server = try startServer(engine)
        // 3-byte letters, and letters of 3 scalars (5 bytes): cut at 256 characters, whole ones,
        // so the packed lengths are 768 and 1,280 bytes (two length bytes each).
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        for letter in ["ệ", "e\u{302}\u{323}"] {
            let name = String(repeating: "đ", count: 300), value = String(repeating: letter, count: 300)
            _ = try get(server, "/api/autocomplete/v4?apikey=k&\(encode(name))=\(encode(value))&cats=1")
            let entry = try XCTUnwrap(engine.journal.entries().last)
            XCTAssertEqual(entry.query.map(\.name), ["apikey", String(repeating: "đ", count: 256), "cats"])
            XCTAssertEqual(entry.query[1].value, String(repeating: letter, count: 256))
            XCTAssertEqual(entry.value(of: "cats"), "1", "the parameter after the long one is read back whole")
            XCTAssertTrue(entry.queryCut)
        }
    }

    func testSmallBodiesKeepTheBodyBookkeepingBounded() throws {
        // Bodies far below the 16 MiB budget: nothing is ever dropped for the budget, yet the
        // bookkeeping must not grow by one number per answer.
        let engine = builtInEngine(.init(journalCapacity: 4))
        let server = try startServer(engine)
        for index in 0..<60 { _ = try get(server, "/api/autocomplete/v4?apikey=scenario:zero-results&text=x\(index)") }
        XCTAssertEqual(engine.journal.entries().count, 4)
        XCTAssertLessThanOrEqual(engine.journal.bodyOrderCount, 2 * 4 + 1)
        XCTAssertTrue(engine.journal.entries().allSatisfy { $0.responseBody?.isEmpty == false }, "the kept entries keep their bodies")
    }

    func testRingBufferKeepsTheNewestEntries() throws {
        let engine = builtInEngine(.init(journalCapacity: 5))
        let server = try startServer(engine)
        for index in 0..<8 { _ = try get(server, "/api/autocomplete/v4?apikey=k&text=x\(index)") }
        let entries = engine.journal.entries()
        XCTAssertEqual(entries.map(\.sequence), [4, 5, 6, 7, 8])
        XCTAssertEqual(entries.map { $0.value(of: "text") }, ["x3", "x4", "x5", "x6", "x7"])
        XCTAssertTrue(entries.allSatisfy { $0.status == 200 }, "completions found their entries after wrapping")
        XCTAssertEqual(engine.journal.clear(), 5)
        _ = try get(server, "/api/autocomplete/v4?apikey=k&text=y")
        XCTAssertEqual(engine.journal.entries().map(\.sequence), [9])
    }

    func testPatchThatCannotApplyLeavesTheAnswerAndSaysWhy() throws {
        let scenario = #"{"name": "p", "description": "d", "rules": [{"patch": [{"op": "replace", "path": "/paths", "value": []}]}]}"#
        let engine = try makeEngine(scenario)
        let server = try startServer(engine)
        let response = try get(server, "/api/autocomplete/v4?apikey=scenario:p&text=ben")
        XCTAssertEqual(response.status, 200)
        XCTAssertNotNil(try response.json().arrayValue, "the real (array) answer is sent unchanged")
        let note = try XCTUnwrap(engine.journal.entries().last?.note)
        XCTAssertTrue(note.contains("patch not applied") && note.contains("/paths"), note)
    }

    func testResponseBodiesAreKeptBoundedAndServedByTheAdminAPI() throws {
        let long = String(repeating: "é", count: 40_000)  // 80,000 bytes
        let scenario = #"{"name": "big", "description": "d", "rules": [{"match": {"endpoint": "place"}, "respond": {"text": "\#(long)"}}]}"#
        let engine = try makeEngine(scenario, configuration: .init(adminEnabled: true, journalBodyBudget: 66_000))
        let server = try startServer(engine)
        let answer = try get(server, "/api/autocomplete/v4?apikey=k&text=ben")
        let firstSeq = try XCTUnwrap(engine.journal.entries().last?.sequence)
        let detail = try get(server, "/__sim/journal/\(firstSeq)").json()
        XCTAssertEqual(detail["response"]?["body"]?.stringValue, String(decoding: answer.body, as: UTF8.self))
        XCTAssertEqual(detail["response"]?["bytes"]?.intValue, answer.body.count)
        XCTAssertEqual(detail["response"]?["contentType"], "application/json; charset=utf-8")
        XCTAssertEqual(detail["query"]?[1]?["value"], "ben")

        let big = try get(server, "/api/place/v4?apikey=scenario:big&refid=x")
        XCTAssertEqual(big.body.count, 80_000)
        let bigDetail = try get(server, "/__sim/journal/\(firstSeq + 1)").json()
        XCTAssertEqual(bigDetail["response"]?["bytes"]?.intValue, 80_000)
        XCTAssertEqual(bigDetail["response"]?["kept"]?.intValue, RequestJournal.bodyLimit)
        XCTAssertEqual(bigDetail["response"]?["body"]?.stringValue?.count, RequestJournal.bodyLimit / 2, "cut at a whole character")
        XCTAssertNil(try get(server, "/__sim/journal/\(firstSeq)").json()["response"]?["body"]?.stringValue,
                     "the budget (66,000 bytes) dropped the oldest body")
        XCTAssertEqual(try get(server, "/__sim/journal/\(firstSeq + 99)").status, 404)
        XCTAssertNotNil(engine.journal.entry(sequence: firstSeq + 1)?.responseBody)
    }
}
