import Foundation
import HTTPServer
import JSON
@testable import Scenarios
import VietMapWire
import XCTest

/// The rule index picks the same first rule as a scan of every rule.
final class RuleIndexTests: XCTestCase {
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11 ^ state
        }
    }

    private let names = ["text", "point", "vehicle", "focus"]
    private let values = ["a", "b", "c", "é", "e\u{301}"]
    private let endpoints = ["route", "autocomplete", "search", "any"]

    private func randomRule(_ random: inout Generator, index: Int) -> String {
        var params: [String] = []
        for name in names.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
            let value = values.randomElement(using: &random)!
            switch Int.random(in: 0..<8, using: &random) {
            case 0: params.append(#""\#(name)": {"prefix": "\#(value)"}"#)
            case 1: params.append(#""\#(name)": {"present": true}"#)
            case 2: params.append(#""\#(name)": ["\#(value)", "\#(values.randomElement(using: &random)!)"]"#)
            case 3: params.append(#""\#(name)": {"equals": "\#(value)", "ignoreCase": true}"#)
            default: params.append(#""\#(name)": "\#(value)""#)
            }
        }
        let exact = Int.random(in: 0..<4, using: &random) > 0
        let endpoint = endpoints.randomElement(using: &random)!
        return #"{"name": "r\#(index)", "match": {"endpoint": "\#(endpoint)", "exact": \#(exact), "params": {\#(params.joined(separator: ","))}}, "pass": true}"#
    }

    private func randomQuery(_ random: inout Generator) -> QueryParameters {
        var items: [(name: String, value: String)] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let value = Int.random(in: 0..<6, using: &random) == 0 ? "" : values.randomElement(using: &random)!
            items.append((names.randomElement(using: &random)!, value))
        }
        if Bool.random(using: &random) { items.append(("apikey", "k")) }
        return QueryParameters(items)
    }

    func testIndexedLookupPicksTheSameRuleAsTheLinearScan() throws {
        var random = Generator(state: 42)
        var compared = 0
        var matched = 0
        for round in 0..<60 {
            let rules = (0..<Int.random(in: 1...40, using: &random)).map { randomRule(&random, index: $0) }
            let document = #"{"name": "s\#(round)", "description": "d", "rules": [\#(rules.joined(separator: ","))]}"#
            let scenario = try Scenario(json: Data(document.utf8))
            for _ in 0..<200 {
                let query = randomQuery(&random)
                let endpoint = [APIEndpoint.route, .autocomplete, .search, .reverse, nil].randomElement(using: &random)!
                let linear = scenario.rules.firstIndex { $0.match.matches(endpoint: endpoint, query: query) }
                let candidates = scenario.index.candidates(endpoint: endpoint, query: query)
                XCTAssertEqual(candidates, candidates.sorted())
                let indexed = candidates.first { scenario.rules[$0].match.matches(endpoint: endpoint, query: query) }
                XCTAssertEqual(indexed, linear, "\(document) \(query.items) \(String(describing: endpoint))")
                compared += 1
                if linear != nil { matched += 1 }
            }
        }
        XCTAssertGreaterThan(matched, compared / 20, "the random rule sets match often enough to test something")
    }

    func testLargeReplayScenarioAnswersQuickly() throws {
        // 20k rules keep the debug parse short; Scripts/stress-scenarios serves 100k through the release binary.
        let count = 20_000
        var rules: [String] = []
        rules.reserveCapacity(count + 1)
        for index in 0..<count {
            rules.append(#"{"match": {"endpoint": "autocomplete", "exact": true, "params": {"text": "q\#(index)", "focus": "10,106"}}, "respond": {"status": 200, "json": {"n": \#(index)}}}"#)
        }
        rules.append(#"{"name": "not captured", "match": {"endpoint": "autocomplete"}, "respond": {"error": "NOT_FOUND"}}"#)
        let document = #"{"name": "big", "description": "d", "rules": [\#(rules.joined(separator: ","))]}"#
        let scenario = try Scenario(json: Data(document.utf8))
        XCTAssertEqual(scenario.index.exactCount, count)
        let state = ScenarioState(scenario: scenario, seed: 0)
        let started = Date()
        let lookups = 2_000
        for round in 0..<lookups {
            let index = (round * 7919) % count
            let query = QueryParameters([("focus", "10,106"), ("apikey", "k"), ("text", "q\(index)")])
            let decision = state.decide(endpoint: .autocomplete, query: query, apiKey: "k", now: 0)
            XCTAssertEqual(decision.ruleLabel, "#\(index)")
        }
        let unmatched = state.decide(endpoint: .autocomplete, query: QueryParameters([("text", "zzz")]), apiKey: "k", now: 0)
        XCTAssertEqual(unmatched.ruleLabel, "not captured")
        let perLookup = Date().timeIntervalSince(started) / Double(lookups)
        print("RuleIndex: \(count)-rule scenario, \(String(format: "%.1f", perLookup * 1e6)) µs per decision")
        XCTAssertLessThan(perLookup, 0.005, "generous bound; a linear scan costs tens of ms")
    }
}
