import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// The admin API under /__sim/ (only with `adminEnabled`).
final class AdminAPITests: XCTestCase {
    private let search = "/api/autocomplete/v4?text=ben&apikey="

    func testAdminIsOffByDefault() throws {
        let server = try startServer(builtInEngine())
        let response = try get(server, "/__sim/scenarios")
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(try response.json()["code"], "NOT_FOUND", "the inner handler answered")
    }

    func testListActivateDeactivate() throws {
        let server = try startServer(builtInEngine(.init(adminEnabled: true)))
        let list = try get(server, "/__sim/scenarios").json()
        XCTAssertEqual(list["scenarios"]?.arrayValue?.count, TestSimulator.builtIns.scenarios.count)
        XCTAssertEqual(list["scenarios"]?[0]?["name"], "autocomplete-500")
        XCTAssertEqual(list["active"], .null)
        XCTAssertEqual(list["errors"], .array([]))
        XCTAssertEqual(try get(server, "/__sim/scenarios/flaky-503").json()["seed"], 20_250_601)
        XCTAssertEqual(try get(server, "/__sim/scenarios/nope").status, 404)

        XCTAssertEqual(try admin(server, "POST", "/__sim/activate?scenario=autocomplete-500").status, 200)
        XCTAssertEqual(try get(server, "/__sim/active").json()["active"], "autocomplete-500")
        XCTAssertEqual(try get(server, search + "dev").status, 500)
        XCTAssertEqual(try admin(server, "POST", "/__sim/activate", body: #"{"scenario": "bad-key-401"}"#).status, 200)
        XCTAssertEqual(try get(server, search + "dev").status, 401)
        XCTAssertEqual(try admin(server, "POST", "/__sim/activate?scenario=nope").status, 404)
        XCTAssertEqual(try admin(server, "POST", "/__sim/deactivate").status, 200)
        XCTAssertEqual(try get(server, search + "dev").status, 200)
        XCTAssertEqual(try get(server, "/__sim/activate").status, 405)
        XCTAssertEqual(try get(server, "/__sim/frobnicate").status, 404)
    }

    func testResetStateAllOrOne() throws {
        let server = try startServer(builtInEngine(.init(adminEnabled: true)))
        let a = search + "scenario:fail-twice-then-succeed@a", b = search + "scenario:fail-twice-then-succeed@b"
        for target in [a, a, a, b, b, b] { _ = try get(server, target) }
        XCTAssertEqual(try get(server, "/__sim/states").json()["states"]?.arrayValue?.count, 2)
        XCTAssertEqual(try admin(server, "POST", "/__sim/reset?apikey=scenario:fail-twice-then-succeed@a").json()["reset"], 1)
        XCTAssertEqual(try get(server, a).status, 500, "a starts over")
        XCTAssertEqual(try get(server, b).status, 200, "b keeps its state")
        XCTAssertEqual(try admin(server, "POST", "/__sim/reset").json()["reset"], 2)
        XCTAssertEqual(try get(server, b).status, 500)
        XCTAssertEqual(try admin(server, "POST", "/__sim/reset?scenario=fail-twice-then-succeed").json()["reset"], 1)
    }

    func testJournalQueriesCountAndClear() throws {
        let clock = ManualScenarioClock()
        let server = try startServer(builtInEngine(.init(adminEnabled: true, clock: clock)))
        _ = try get(server, "/api/autocomplete/v4?apikey=secret&text=b")
        clock.advance(byMilliseconds: 120)
        _ = try get(server, "/api/autocomplete/v4?apikey=secret&text=be")
        _ = try get(server, "/api/place/v4?apikey=scenario:route-500@ci&refid=auto:x")
        let journal = try get(server, "/__sim/journal?endpoint=autocomplete").json()
        XCTAssertEqual(journal["count"], 2)
        XCTAssertEqual(journal["minGapMs"], 120, "exactly the time the clock was advanced")
        XCTAssertEqual(journal["gapsMs"], [120])
        let first = try XCTUnwrap(journal["entries"]?[0])
        XCTAssertEqual(first["query"], [["name": "apikey", "value": "***"], ["name": "text", "value": "b"]])
        XCTAssertEqual(first["status"], 200)
        XCTAssertEqual(first["latencyMs"], 0, "no time passes on the manual clock while it is answered")
        XCTAssertEqual(first["atMs"], 0)
        XCTAssertEqual(try get(server, "/__sim/journal/count?param.text=be").json()["count"], 1)
        XCTAssertEqual(try get(server, "/__sim/journal/count?param.text=").json()["count"], 2)
        XCTAssertEqual(try get(server, "/__sim/journal/count?client=ci&scenario=route-500&status=404").json()["count"], 1)
        XCTAssertEqual(try get(server, "/__sim/journal?limit=1").json()["entries"]?[0]?["endpoint"], "place")
        XCTAssertEqual(try get(server, "/__sim/journal?bogus=1").status, 400)
        XCTAssertEqual(try admin(server, "DELETE", "/__sim/journal").json()["cleared"], 3)
        XCTAssertEqual(try get(server, "/__sim/journal/count").json()["count"], 0)
        XCTAssertEqual(try get(server, "/__sim/journal/count").json()["count"], 0, "admin requests are not journaled")
    }

    func testReloadThroughTheAPI() throws {
        let directory = try temporaryScenarioDirectory()
        try write(#"{"name": "r", "description": "d", "rules": [{"respond": {"status": 500}}]}"#, to: directory, as: "r.json")
        let server = try startServer(ScenarioEngine(configuration: .init(directory: directory, adminEnabled: true)))
        XCTAssertEqual(try get(server, search + "scenario:r").status, 500)
        try write(#"{"name": "r", "description": "d", "rules": [{"respond": {"status": 503}}]}"#, to: directory, as: "r.json")
        try write("{broken", to: directory, as: "s.json")
        let report = try admin(server, "POST", "/__sim/reload").json()
        XCTAssertEqual(report["scenarios"], 1)
        XCTAssertEqual(report["errors"]?.arrayValue?.count, 1)
        XCTAssertTrue(report["errors"]?[0]?["file"]?.stringValue?.hasSuffix("s.json") ?? false)
        XCTAssertEqual(try get(server, search + "scenario:r").status, 503)
    }
}

extension XCTestCase {
    func temporaryScenarioDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// Writes a file atomically (as editors do), so a poll never sees half of it.
    func write(_ text: String, to directory: URL, as name: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
    }
}
