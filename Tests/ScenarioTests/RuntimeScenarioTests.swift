import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import XCTest

/// Scenarios added at run time through the admin API (issue #37): the same validation and errors
/// as files, listed, replaced, removed, kept across reloads, saved as a file.
final class RuntimeScenarioTests: XCTestCase {
    private let route = "/api/route/v4?point=10.7725,106.6980&point=10.7798,106.6990&apikey="
    private let document = #"{"name": "live-503", "description": "route answers 503", "rules": [{"match": {"endpoint": "route"}, "respond": {"status": 503, "json": {"code": "BUSY"}}}]}"#

    func testAPostedScenarioAnswersTheNextMatchingRequest() throws {
        let server = try startServer(builtInEngine(.init(adminEnabled: true)))
        XCTAssertEqual(try get(server, route + "scenario:live-503").status, 401, "unknown before it is added")
        let added = try admin(server, "POST", "/__sim/scenarios", body: document)
        XCTAssertEqual(added.status, 201, added.bodyText)
        XCTAssertEqual(try added.json()["name"], "live-503")
        let answer = try get(server, route + "scenario:live-503")
        XCTAssertEqual(answer.status, 503)
        XCTAssertEqual(try answer.json()["code"], "BUSY")
        let list = try get(server, "/__sim/scenarios").json()
        let listed = try XCTUnwrap(list["scenarios"]?.arrayValue?.first { $0["name"] == "live-503" })
        XCTAssertEqual(listed["runtime"], .bool(true))
        XCTAssertEqual(try get(server, "/__sim/scenarios/live-503").json()["description"], "route answers 503")
        // It can be the server-wide default like any other.
        XCTAssertEqual(try admin(server, "POST", "/__sim/activate?scenario=live-503").status, 200)
        XCTAssertEqual(try get(server, route + "dev").status, 503)
    }

    func testAnInvalidDocumentGetsTheFilesErrorsAndLoadsNothing() throws {
        let server = try startServer(builtInEngine(.init(adminEnabled: true)))
        let bad = try admin(server, "POST", "/__sim/scenarios", body: #"{"name": "broken", "rules": [{"respond": {"status": "x"}}]}"#)
        XCTAssertEqual(bad.status, 400, bad.bodyText)
        let errors = try XCTUnwrap(try bad.json()["errors"]?.arrayValue)
        XCTAssertFalse(errors.isEmpty)
        XCTAssertTrue(errors.allSatisfy { $0["path"]?.stringValue?.hasPrefix("/") == true || $0["path"] == "" }, "\(errors)")
        XCTAssertEqual(try get(server, "/__sim/scenarios/broken").status, 404)
        XCTAssertEqual(try admin(server, "POST", "/__sim/scenarios").status, 400, "no body")
        XCTAssertEqual(try admin(server, "PUT", "/__sim/scenarios/other", body: document).status, 400, "name differs from the path")
    }

    func testReplaceRemoveAndAFileScenarioIsLeftAlone() throws {
        let server = try startServer(builtInEngine(.init(adminEnabled: true)))
        XCTAssertEqual(try admin(server, "PUT", "/__sim/scenarios/live-503", body: document).status, 201)
        let replaced = document.replacingOccurrences(of: "503", with: "502").replacingOccurrences(of: "live-502", with: "live-503")
        XCTAssertEqual(try admin(server, "PUT", "/__sim/scenarios/live-503", body: replaced).status, 200)
        XCTAssertEqual(try get(server, route + "scenario:live-503").status, 502)
        XCTAssertEqual(try admin(server, "DELETE", "/__sim/scenarios/live-503").status, 200)
        XCTAssertEqual(try get(server, route + "scenario:live-503").status, 401, "removed")
        XCTAssertEqual(try admin(server, "DELETE", "/__sim/scenarios/live-503").status, 404)
        XCTAssertEqual(try admin(server, "DELETE", "/__sim/scenarios/empty-route").status, 409, "a built-in scenario is not removed")
        XCTAssertEqual(try get(server, route + "scenario:empty-route").status, 200)
    }

    func testRuntimeScenariosSurviveAReloadAndAreSavedAsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = ScenarioEngine(configuration: .init(directory: folder, adminEnabled: true))
        let server = try startServer(engine)
        XCTAssertEqual(try admin(server, "POST", "/__sim/scenarios", body: document).status, 201)
        XCTAssertEqual(try admin(server, "POST", "/__sim/reload").status, 200)
        XCTAssertEqual(try get(server, route + "scenario:live-503").status, 503, "kept across a reload")
        let saved = try admin(server, "POST", "/__sim/scenarios/live-503/save")
        XCTAssertEqual(saved.status, 200, saved.bodyText)
        let file = folder.appendingPathComponent("live-503.json")
        XCTAssertEqual(try saved.json()["file"]?.stringValue, file.path)
        // The file loads as a scenario of its own, the same document.
        let fromFile = ScenarioLibrary.load(directory: folder)
        XCTAssertEqual(fromFile.issues.map(\.description), [])
        XCTAssertEqual(fromFile.scenario(named: "live-503")?.source, try JSONParser.parse(Data(document.utf8)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["live-503.json"], "no temporary file left")
        // Without a folder there is nowhere to save.
        let bare = try startServer(builtInEngine(.init(adminEnabled: true)))
        XCTAssertEqual(try admin(bare, "POST", "/__sim/scenarios", body: document).status, 201)
        XCTAssertEqual(try admin(bare, "POST", "/__sim/scenarios/live-503/save").status, 409)
    }
}
