import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// Choosing a scenario per request (API key, path prefix) or server-wide, and keeping each
/// client's state apart.
final class SelectionTests: XCTestCase {
    private let search = "/api/autocomplete/v4?text=ben&apikey="

    func testSelectionByPathPrefix() throws {
        let server = try startServer(builtInEngine())
        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/autocomplete/v4?apikey=dev&text=ben").status, 500)
        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/place/v4?apikey=dev&refid=auto:x").status, 404,
                       "the inner handler sees the path without the prefix")
        let unknown = try get(server, "/__scenario/nope/api/autocomplete/v4?apikey=dev&text=ben")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(try unknown.json()["code"], "NOT_FOUND")
        XCTAssertTrue(try unknown.json()["message"]?.stringValue?.contains("nope") ?? false)
    }

    func testSelectionByAPIKeyAndUnknownNames() throws {
        let server = try startServer(builtInEngine())
        XCTAssertEqual(try get(server, search + "scenario:autocomplete-500").status, 500)
        XCTAssertEqual(try get(server, search + "dev").status, 200)
        let unknown = try get(server, search + "scenario:nope@ci")
        XCTAssertEqual(unknown.status, 401)
        XCTAssertEqual(try unknown.json()["code"], "UNAUTHORIZED")
        XCTAssertTrue(try unknown.json()["message"]?.stringValue?.contains("'nope'") ?? false)
        // The path prefix wins over the key.
        XCTAssertEqual(try get(server, "/__scenario/zero-results/api/autocomplete/v4?apikey=scenario:autocomplete-500&text=ben").status, 200)
    }

    func testServerDefaultScenario() throws {
        let engine = builtInEngine(.init(defaultScenario: "autocomplete-500"))
        let server = try startServer(engine)
        XCTAssertEqual(engine.activeScenario, "autocomplete-500")
        XCTAssertEqual(try get(server, search + "dev").status, 500)
        XCTAssertEqual(try get(server, search + "scenario:zero-results").status, 200, "a scenario key overrides the default")
        try engine.activate("bad-key-401")
        XCTAssertEqual(try get(server, search + "dev").status, 401)
        engine.deactivate()
        XCTAssertEqual(try get(server, search + "dev").status, 200)
        XCTAssertThrowsError(try engine.activate("nope")) { error in
            XCTAssertEqual(error as? ScenarioEngineError, .unknownScenario("nope"))
        }
    }

    func testEachKeyKeepsItsOwnState() throws {
        let server = try startServer(builtInEngine(.init(defaultScenario: "fail-twice-then-succeed")))
        var seen: [String: [Int]] = [:]
        // Interleaved clients: scenario keys with @tags, a plain key under the default, and path prefixes.
        let clients = [search + "scenario:fail-twice-then-succeed@job1", search + "scenario:fail-twice-then-succeed@job2",
                       search + "dev", search + "other",
                       "/__scenario/fail-twice-then-succeed@a/api/autocomplete/v4?text=ben&apikey=dev",
                       "/__scenario/fail-twice-then-succeed/api/autocomplete/v4?text=ben&apikey=dev"]
        for _ in 0..<3 {
            for client in clients { seen[client, default: []].append(try get(server, client).status) }
        }
        for client in clients { XCTAssertEqual(seen[client], [500, 500, 200], client) }
    }

    func testSeededDeterminismAcrossEnginesAndClients() throws {
        let flaky = #"{"name": "coin", "description": "d", "seed": 99, "rules": [{"when": {"probability": 0.5}, "respond": {"status": 503}}]}"#
        func run(_ engine: ScenarioEngine, interleaveOther: Bool) throws -> [Int] {
            let server = try startServer(engine)
            var statuses: [Int] = []
            for _ in 0..<30 {
                statuses.append(try get(server, search + "scenario:coin@me").status)
                if interleaveOther { _ = try get(server, search + "scenario:coin@someone-else") }
            }
            return statuses
        }
        let first = try run(try makeEngine(flaky), interleaveOther: false)
        let second = try run(try makeEngine(flaky), interleaveOther: true)
        XCTAssertEqual(first, second, "same seed and same order for this client: same faults, whatever others do")
        XCTAssertTrue(first.contains(503) && first.contains(200))
        let reseeded = try run(try makeEngine(flaky, configuration: .init(seed: 12345)), interleaveOther: false)
        XCTAssertNotEqual(reseeded, first, "the engine's seed overrides the file's")
    }
}
