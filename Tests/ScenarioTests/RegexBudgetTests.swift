import Foundation
import HTTPServer
import RegexEngine
import SimTesting
@testable import Scenarios
import XCTest

/// The regex cost bound: `validate` refuses patterns that could not test a 1,000-character value
/// within a request's budget, and at run time a test that would pass what is left of the budget is
/// not run — its rule does not match, and the journal says why.
final class RegexBudgetTests: XCTestCase {
    private func scenario(_ rules: String) -> String {
        #"{"name": "budget", "description": "d", "rules": [\#(rules)]}"#
    }

    /// A pattern that matches at the first character of "a…" but compiles to `size` instructions.
    private func earlyMatching(instructions size: Int) -> String {
        "^a|" + String(repeating: "b", count: size - 5)
    }

    func testValidateRefusesAPatternBeyondTheCostBound() throws {
        // 2,001 + instructions: accepted before (the cap was 20,000), refused now with the bound's reason.
        let pattern = "[a-z]{1000}[0-9]{1000}x"
        XCTAssertThrowsError(try Scenario(json: Data(scenario(#"{"match": {"params": {"text": {"regex": "\#(pattern)"}}}, "respond": {"status": 500}}"#).utf8))) { error in
            let issue = (error as? ScenarioValidationError)?.issues.first
            XCTAssertEqual(issue?.pointer, "/rules/0/match/params/text/regex")
            let reason = issue?.reason ?? ""
            XCTAssertTrue(reason.contains("\(ScenarioLimits.regexStepsPerRequest)") && reason.contains("1000 characters"), reason)
        }
        // At the bound: admitted, and it can test a value of `regexTextCharacters` characters.
        let largest = try LinearRegex(earlyMatching(instructions: ScenarioLimits.regexInstructions))
        XCTAssertEqual(largest.size, ScenarioLimits.regexInstructions)
        XCTAssertLessThanOrEqual(largest.size * ScenarioLimits.regexTextCharacters, ScenarioLimits.regexStepsPerRequest)
    }

    func testATestBeyondTheBudgetIsNotRunAndTheRuleDoesNotMatch() throws {
        let pattern = earlyMatching(instructions: 1_500)
        let engine = try makeEngine(scenario(#"""
            {"name": "big", "match": {"endpoint": "autocomplete", "params": {"text": {"regex": "\#(pattern)"}}}, "respond": {"status": 500}},
            {"name": "fallback", "match": {"endpoint": "autocomplete"}, "respond": {"status": 503}}
            """#))
        let server = try startServer(engine)
        // 1,500 instructions × 900 characters fit: the pattern runs and matches.
        let short = "a" + String(repeating: "x", count: 899)
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:budget&text=\(short)").status, 500)
        XCTAssertNil(engine.journal.entries().last?.note)
        // × 2,000 characters = 3,000,000 steps: not run, although it would match at once.
        let long = "a" + String(repeating: "x", count: 1_999)
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:budget&text=\(long)").status, 503)
        let entry = try XCTUnwrap(engine.journal.entries().last)
        XCTAssertEqual(entry.rule, "fallback")
        let note = entry.note ?? ""
        XCTAssertTrue(note.contains("regex budget") && note.contains("rule 'big'") && note.contains("'text'")
                      && note.contains("the rule does not match"), note)
    }

    func testTheBudgetIsSharedByEveryTestOfARequest() throws {
        // Three rules of 1,000 instructions on a 900-character value: 900,000 steps each, so the
        // third no longer fits in 2,000,000 — however many more such rules the scenario had.
        let miss = "^z|" + String(repeating: "b", count: 995)
        let hit = earlyMatching(instructions: 1_000)
        let value = "a" + String(repeating: "x", count: 899)
        let engine = try makeEngine(scenario(#"""
            {"name": "one", "match": {"params": {"text": {"regex": "\#(miss)"}}}, "respond": {"status": 500}},
            {"name": "two", "match": {"params": {"text": {"regex": "\#(miss)"}}}, "respond": {"status": 501}},
            {"name": "three", "match": {"params": {"text": {"regex": "\#(hit)"}}}, "respond": {"status": 502}},
            {"name": "four", "match": {"params": {"text": {"regex": "\#(hit)"}}}, "respond": {"status": 504}},
            {"name": "fallback", "respond": {"status": 503}}
            """#))
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:budget&text=\(value)").status, 503)
        let note = engine.journal.entries().last?.note ?? ""
        XCTAssertTrue(note.contains("rule 'three'") && note.contains("rule 'four'"), note)
        XCTAssertFalse(note.contains("rule 'one'") || note.contains("rule 'two'"), note)
        // A shorter value leaves room for the third rule, which matches.
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:budget&text=ax").status, 502)
    }

    func testHeavyMatchingIsToldBeforeAnyPatternRuns() throws {
        let engine = try makeEngine(scenario(#"""
            {"match": {"endpoint": "autocomplete", "params": {"text": {"regex": "\#(earlyMatching(instructions: 1_000))"}}}, "respond": {"status": 500}}
            """#))
        func reason(_ text: String, key: String = "scenario:budget") -> String? {
            engine.heavyMatchingReason(for: HTTPRequest(method: "GET", target: "/api/autocomplete/v4?apikey=\(key)&text=\(text)"))
        }
        XCTAssertNil(reason("ben"), "1,000 × 3 steps")
        let heavy = reason(String(repeating: "x", count: 500))
        XCTAssertTrue(heavy?.contains("regexes") ?? false, "1,000 × 500 steps: \(String(describing: heavy))")
        XCTAssertNil(reason(String(repeating: "x", count: 500), key: "plain"), "no scenario selected")
        XCTAssertNil(engine.heavyMatchingReason(for: HTTPRequest(method: "GET", target: "/api/place/v4?apikey=scenario:budget&text=\(String(repeating: "x", count: 500))")),
                     "the rule is for autocomplete only")
    }
}
