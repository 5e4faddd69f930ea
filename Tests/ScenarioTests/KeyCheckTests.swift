import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// Unknown scenario names, the key check with `--api-key` (no back door through `scenario:`
/// keys), and the bounds on keys and tags — all over real HTTP.
final class KeyCheckTests: XCTestCase {
    private let search = "/api/autocomplete/v4?text=ben&apikey="

    /// The service behind an engine that requires the key "team", as `serve --api-key team`.
    private func strictServer(_ configuration: ScenarioEngine.Configuration = .init(apiKeys: ["team"])) throws
        -> (ScenarioEngine, HTTPServer) {
        let strict = try VietMapService(databasePath: try TestSimulator.databasePath.get(), apiKeys: ["team"])
        let engine = builtInEngine(configuration)
        return (engine, try startServer(engine, inner: strict))
    }

    // MARK: Unknown names

    func testUnknownScenarioKeyIsA401NamingTheLoadedOnes() throws {
        let server = try startServer(builtInEngine())
        let unknown = try get(server, search + "scenario:nope@ci")
        XCTAssertEqual(unknown.status, 401)
        XCTAssertNil(unknown.header("Access-Control-Allow-Origin"), "a 401 carries no CORS header, as live")
        XCTAssertEqual(try unknown.json()["code"], "UNAUTHORIZED")
        let message = try XCTUnwrap(try unknown.json()["message"]?.stringValue)
        XCTAssertTrue(message.hasPrefix("unknown scenario 'nope': not loaded; loaded: autocomplete-500, autocomplete-no-ref-id, "), message)
        XCTAssertTrue(message.contains("in all)"), "more than 12 built-ins: the list is cut and counted: \(message)")

        // The route endpoint answers in its own envelope.
        let route = try get(server, "/api/route/v4?\(TestSimulator.routeQuery)&apikey=scenario:nope")
        XCTAssertEqual(route.status, 401)
        XCTAssertEqual(try route.json()["paths"], .null)
        XCTAssertEqual(try route.json()["code"], "UNAUTHORIZED")
        XCTAssertTrue(try route.json()["messages"]?.stringValue?.contains("unknown scenario 'nope': not loaded") ?? false)

        // Header: 401 too; path prefix: 404 with the same explanation.
        let header = try request(server, "GET", search + "dev", headers: ["X-VietMap-Sim-Scenario: nope"])
        XCTAssertEqual(header.status, 401)
        XCTAssertTrue(try header.json()["message"]?.stringValue?.contains("unknown scenario 'nope': not loaded") ?? false)
        let path = try get(server, "/__scenario/nope/api/autocomplete/v4?apikey=dev&text=ben")
        XCTAssertEqual(path.status, 404)
        XCTAssertEqual(try path.json()["code"], "NOT_FOUND")
        XCTAssertTrue(try path.json()["message"]?.stringValue?.contains("unknown scenario 'nope': not loaded; loaded: ") ?? false)
    }

    func testUnknownNameMessagesAreBounded() throws {
        let server = try startServer(builtInEngine())
        let long = String(repeating: "x", count: 200)
        let response = try get(server, search + "scenario:" + long)
        XCTAssertEqual(response.status, 401)
        let message = try XCTUnwrap(try response.json()["message"]?.stringValue)
        XCTAssertLessThan(message.count, 500, message)
        XCTAssertTrue(message.contains(String(repeating: "x", count: 100) + "…"))
    }

    func testAnEngineWithoutScenariosSaysSo() throws {
        let server = try startServer(ScenarioEngine(library: ScenarioLibrary()))
        let response = try get(server, search + "scenario:empty-route")
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(try response.json()["message"], "unknown scenario 'empty-route': not loaded; no scenarios are loaded")
        XCTAssertEqual(try get(server, search + "dev").status, 200, "ordinary keys are not affected")
    }

    // MARK: Missing or empty keys, without --api-key

    /// Without `--api-key` a missing or empty key is a 401 on every selection path — never the
    /// scenario's answer — while any non-empty key (a bare `scenario:NAME` too) selects it.
    func testAMissingOrEmptyKeyIsA401OnEveryPath() throws {
        let engine = builtInEngine(.init(defaultScenario: "autocomplete-500"))
        let server = try startServer(engine)
        let route = "/__scenario/route-500/api/route/v4?\(TestSimulator.routeQuery)"
        for key in ["", "&apikey=", "&apikey=&apikey="] {
            let refused = try get(server, route + key)
            XCTAssertEqual(refused.status, 401, "path prefix, key '\(key)'")
            XCTAssertEqual(try refused.json()["code"], "UNAUTHORIZED")
            XCTAssertEqual(try refused.json()["paths"], .null, "in the route envelope")
        }
        XCTAssertEqual(try get(server, route + "&apikey=dev").status, 500, "a key selects the scenario")

        for target in ["/api/autocomplete/v4?text=ben&apikey=", "/api/autocomplete/v4?text=ben"] {
            let header = try request(server, "GET", target, headers: ["X-VietMap-Sim-Scenario: autocomplete-500"])
            XCTAssertEqual(header.status, 401, "header, \(target)")
            XCTAssertNil(header.header("Access-Control-Allow-Origin"))
            XCTAssertEqual(try get(server, target).status, 401, "server default, \(target)")
        }
        XCTAssertEqual(try request(server, "GET", search + "dev", headers: ["X-VietMap-Sim-Scenario: zero-results"]).status, 200)
        XCTAssertEqual(try get(server, search + "dev").status, 500, "the default applies to a keyed request")
        XCTAssertEqual(try get(server, search + "scenario:autocomplete-500").status, 500, "a bare scenario key is a key")

        // A scenario whose purpose is the 401 still answers it, with or without a key.
        try engine.activate("bad-key-401")
        XCTAssertEqual(try get(server, search + "dev").status, 401)
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?text=ben").status, 401)
        XCTAssertEqual(try request(server, "GET", search + "dev", headers: ["X-VietMap-Sim-Scenario: bad-key-401"]).status, 401)
        XCTAssertEqual(try get(server, "/__scenario/bad-key-401/api/autocomplete/v4?text=ben").status, 401)
        XCTAssertEqual(engine.journal.entries().filter { $0.scenario != nil && $0.value(of: "apikey").map(\.isEmpty) ?? true }.count, 0,
                       "no keyless request was answered by a scenario")
    }

    // MARK: No back door with --api-key

    func testABareScenarioKeyDoesNotPassTheKeyCheck() throws {
        let (engine, server) = try strictServer()
        for name in ["autocomplete-500", "zero-results", "slow-autocomplete", "fail-twice-then-succeed"] {
            let response = try get(server, search + "scenario:\(name)")
            XCTAssertEqual(response.status, 401, name)
            XCTAssertTrue(try response.json()["message"]?.stringValue?.contains("apikey=scenario:\(name):KEY") ?? false, name)
        }
        XCTAssertEqual(try get(server, search + "scenario:autocomplete-500:wrong").status, 401, "a wrong embedded key")
        XCTAssertEqual(try get(server, search + "other").status, 401, "other keys are still checked")
        XCTAssertEqual(try get(server, search + "team").status, 200)
        XCTAssertEqual(try request(server, "OPTIONS", search + "scenario:autocomplete-500").status, 204,
                       "a CORS preflight (which cannot carry the header) gets the normal answer")
        XCTAssertEqual(engine.stateCounts.kept, 0, "refused requests leave no state")
    }

    func testScenarioKeyCarryingTheRealKey() throws {
        let (engine, server) = try strictServer()
        let key = search + "scenario:fail-twice-then-succeed@job:7:team"
        XCTAssertEqual(try [get(server, key), get(server, key), get(server, key)].map(\.status), [500, 500, 200],
                       "the inner handler saw 'team' (it accepts no other key)")
        let entry = try XCTUnwrap(engine.journal.entries().first)
        XCTAssertEqual(entry.value(of: "apikey"), "scenario:fail-twice-then-succeed@job:7:***", "the real key is redacted")
        XCTAssertEqual(entry.client, "job:7")
    }

    func testHeaderAndPathPrefixNeedTheRealKey() throws {
        let (_, server) = try strictServer()
        let header = "X-VietMap-Sim-Scenario: autocomplete-500@qa"
        XCTAssertEqual(try request(server, "GET", search + "team", headers: [header]).status, 500)
        XCTAssertEqual(try request(server, "GET", search + "wrong", headers: [header]).status, 401)
        XCTAssertEqual(try request(server, "GET", "/api/autocomplete/v4?text=ben", headers: [header]).status, 401)

        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/autocomplete/v4?text=ben&apikey=team").status, 500)
        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/autocomplete/v4?text=ben&apikey=wrong").status, 401)
        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/autocomplete/v4?text=ben&apikey=scenario:autocomplete-500").status,
                       401, "a bare scenario key is not a real key either")
        XCTAssertEqual(try get(server, "/__scenario/autocomplete-500/api/autocomplete/v4?text=ben&apikey=scenario:zero-results:team").status,
                       500, "the path wins; the key only has to carry the real key")
    }

    func testTheDefaultScenarioAppliesOnlyToValidKeys() throws {
        let (_, server) = try strictServer(.init(defaultScenario: "autocomplete-500", apiKeys: ["team"]))
        XCTAssertEqual(try get(server, search + "team").status, 500)
        let wrong = try get(server, search + "wrong")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(try wrong.json()["code"], "UNAUTHORIZED")
    }

    func testWithoutAPIKeysScenarioKeysWorkAlone() throws {
        let engine = builtInEngine()
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, search + "scenario:autocomplete-500").status, 500)
        let key = search + "scenario:fail-twice-then-succeed@job:42"
        XCTAssertEqual(try [get(server, key), get(server, key), get(server, key)].map(\.status), [500, 500, 200])
        XCTAssertEqual(engine.journal.entries().last?.client, "job:42", "a ':' in a tag is part of the tag")
        XCTAssertEqual(try request(server, "GET", search + "dev", headers: ["X-VietMap-Sim-Scenario: autocomplete-500"]).status, 500)
    }

    // MARK: Bounds

    func testLongKeysAndTagsAreRefused() throws {
        let engine = builtInEngine()
        let server = try startServer(engine)
        let atLimit = "scenario:fail-twice-then-succeed@" + String(repeating: "t", count: 64)
        XCTAssertEqual(try get(server, search + atLimit).status, 500, "a 64-byte tag is fine")
        let tooLongTag = try get(server, search + atLimit + "t")
        XCTAssertEqual(tooLongTag.status, 401)
        XCTAssertEqual(try tooLongTag.json()["message"], "scenario tag is longer than 64 bytes")
        let pathTag = try get(server, "/__scenario/autocomplete-500@\(String(repeating: "t", count: 65))/api/autocomplete/v4?apikey=d&text=b")
        XCTAssertEqual(pathTag.status, 400)
        XCTAssertEqual(try pathTag.json()["code"], "INVALID_REQUEST")

        let plain = String(repeating: "k", count: 256)
        XCTAssertEqual(try get(server, search + plain).status, 200, "a 256-byte key is fine")
        let longKey = try get(server, search + plain + "k")
        XCTAssertEqual(longKey.status, 401)
        XCTAssertEqual(try longKey.json()["message"], "apikey is longer than 256 bytes")
        let longScenarioKey = try get(server, search + "scenario:autocomplete-500@" + String(repeating: "x", count: 300))
        XCTAssertEqual(longScenarioKey.status, 401)
        XCTAssertEqual(engine.stateCounts.kept, 1, "only the accepted scenario key has a state")
    }
}
