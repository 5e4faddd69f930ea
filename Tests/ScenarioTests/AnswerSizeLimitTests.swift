import Foundation
import HTTPServer
import JSON
import SimTesting
@testable import Scenarios
import XCTest

/// Answers bounded by construction: validate refuses patches and literals that can explode,
/// and the engine stops a mutation before it passes the answer-size limit.
final class AnswerSizeLimitTests: XCTestCase {
    private func doubling(_ count: Int) -> String {
        let operations = Array(repeating: #"{"op":"copy","from":"","path":"/-"}"#, count: count).joined(separator: ",")
        return #"{"name": "boom", "description": "d", "rules": [{"patch": [\#(operations)]}]}"#
    }

    private func issues(_ document: String) -> [ScenarioIssue] {
        do {
            _ = try Scenario(json: Data(document.utf8), file: "t.json")
            return []
        } catch {
            return error.issues
        }
    }

    func testCopyDoublingIsRefusedAtValidation() {
        let found = issues(doubling(16))
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first?.pointer, "/rules/0/patch")
        XCTAssertTrue(found.first?.reason.contains("65536-fold") ?? false, "\(found)")
        XCTAssertEqual(issues(doubling(6)).count, 0, "64-fold is still allowed")
        XCTAssertEqual(issues(doubling(7)).count, 1)
        let tooMany = Array(repeating: #"{"op":"remove","path":"/a"}"#, count: 65).joined(separator: ",")
        XCTAssertTrue(issues(#"{"name": "x", "description": "d", "rules": [{"patch": [\#(tooMany)]}]}"#)
            .contains { $0.reason.contains("at most 64") })
    }

    func testWildcardAddOfALargeValueIsRefused() {
        let big = String(repeating: "x", count: 1_000)
        let document = #"{"name": "x", "description": "d", "rules": [{"patch": [{"op":"add","path":"/*/k","value":"\#(big)"}]}]}"#
        XCTAssertTrue(issues(document).contains { $0.reason.contains("-fold") }, "\(issues(document))")
        // The built-in wildcard replacements of polylines stay allowed.
        XCTAssertEqual(TestSimulator.builtIns.issues, [])
    }

    func testLiteralBodiesAreCapped() {
        let big = String(repeating: "x", count: ScenarioLimits.literalBodyBytes + 1)
        let text = #"{"name": "x", "description": "d", "rules": [{"respond": {"text": "\#(big)"}}]}"#
        XCTAssertTrue(issues(text).contains { $0.pointer == "/rules/0/respond/text" && $0.reason.contains("too large") })
        let json = #"{"name": "x", "description": "d", "rules": [{"respond": {"json": ["\#(big)"]}}]}"#
        XCTAssertTrue(issues(json).contains { $0.pointer == "/rules/0/respond/json" && $0.reason.contains("too large") })
    }

    func testSizeEstimateStopsAtTheLimit() {
        let value: JSONValue = .array(Array(repeating: .string("abcdefgh"), count: 1_000))
        XCTAssertEqual(JSONSizeEstimate.bytes(of: value), JSONSerializer.bytes(value).count)
        XCTAssertEqual(JSONSizeEstimate.bytes(of: value, limit: 100), 101)
        XCTAssertEqual(JSONSizeEstimate.bytes(of: ["a": [1, -20, true, nil]]), JSONSerializer.bytes(["a": [1, -20, true, nil]]).count)
    }

    func testPatchStopsBeforePassingTheLimit() throws {
        let operations = Array(repeating: JSONPatch.Operation.copy(from: JSONPointer(tokens: []), path: try JSONPointer(parsing: "/-")),
                               count: 30)
        let document: JSONValue = .array([.string(String(repeating: "y", count: 1_000))])
        XCTAssertThrowsError(try JSONPatch(operations).apply(to: document, inputBytes: 1_006, sizeLimit: 1 << 20)) { error in
            let patchError = error as? JSONPatchError
            XCTAssertEqual(patchError?.exceedsSizeLimit, true)
            // 2^10 copies of 1 KB pass 1 MiB: the 11th doubling is refused, before it is made.
            XCTAssertEqual(patchError?.operationIndex, 10)
        }
    }

    func testEngineAnswersA500NamingTheRule() throws {
        // 6 doublings (64-fold) validate; a 1 KiB limit makes any real answer pass it.
        let operations = Array(repeating: #"{"op":"copy","from":"","path":"/-"}"#, count: 6).joined(separator: ",")
        var configuration = ScenarioEngine.Configuration()
        configuration.answerSizeLimit = 1_024
        let engine = try makeEngine(#"""
            {"name": "grow", "description": "d",
             "rules": [{"name": "doubler", "match": {"endpoint": "autocomplete"}, "patch": [\#(operations)]}]}
            """#, configuration: configuration)
        let server = try startServer(engine)
        let response = try get(server, "/api/autocomplete/v4?apikey=scenario:grow&text=ben%20thanh")
        XCTAssertEqual(response.status, 500)
        let body = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(body.contains("doubler") && body.contains("answer-size limit"), body)
        XCTAssertTrue(engine.journal.entries().last?.note?.contains("answer-size limit") ?? false)
    }
}
