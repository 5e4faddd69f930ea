import Foundation
import HTTPServer
import Platform
import Scenarios
import SimTesting
import XCTest

/// The folder watcher: edits apply without a restart, bad edits keep the last good version.
final class HotReloadTests: XCTestCase {
    private let search = "/api/autocomplete/v4?text=ben&apikey="

    /// Polls `condition` for up to `timeout` seconds.
    private func eventually(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    func testWatcherAppliesEditsAndKeepsTheLastGoodVersion() throws {
        let directory = try temporaryScenarioDirectory()
        try write(#"{"name": "hot", "description": "d", "rules": [{"respond": {"status": 500}}]}"#, to: directory, as: "hot.json")
        let engine = ScenarioEngine(configuration: .init(directory: directory))
        engine.startWatching(interval: 0.1)
        addTeardownBlock { engine.stopWatching() }
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, search + "scenario:hot").status, 500)

        try write(#"{"name": "hot", "description": "d", "rules": [{"respond": {"status": 503}}]}"#, to: directory, as: "hot.json")
        XCTAssertTrue(try eventually { try get(server, search + "scenario:hot").status == 503 }, "edit picked up")

        try write(#"{"name": "hot", "description": "d", "rules": [{"respond": {"status": "x"}}]}"#, to: directory, as: "hot.json")
        XCTAssertTrue(eventually { !engine.library.issues.isEmpty }, "the bad edit is reported")
        XCTAssertTrue(engine.library.issues.contains { $0.pointer == "/rules/0/respond/status" })
        XCTAssertEqual(try get(server, search + "scenario:hot").status, 503, "the last good version stays")

        try write(#"{"name": "new", "description": "d", "rules": [{"respond": {"status": 502}}]}"#, to: directory, as: "new.json")
        XCTAssertTrue(try eventually { try get(server, search + "scenario:new").status == 502 }, "new file picked up")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("new.json"))
        XCTAssertTrue(try eventually { try get(server, search + "scenario:new").status == 401 }, "removed file unloaded")
    }

    func testChangedDefinitionsStartWithFreshState() throws {
        let directory = try temporaryScenarioDirectory()
        let document = #"{"name": "s", "description": "%@", "rules": [{"when": {"first": 1}, "respond": {"status": 500}}]}"#
        try write(document.replacingOccurrences(of: "%@", with: "one"), to: directory, as: "s.json")
        let engine = ScenarioEngine(configuration: .init(directory: directory))
        let server = try startServer(engine)
        XCTAssertEqual(try [get(server, search + "scenario:s").status, get(server, search + "scenario:s").status], [500, 200])
        engine.reload()
        XCTAssertEqual(try get(server, search + "scenario:s").status, 200, "unchanged definition: state kept")
        try write(document.replacingOccurrences(of: "%@", with: "two"), to: directory, as: "s.json")
        XCTAssertEqual(engine.reload(), [])
        XCTAssertEqual(try get(server, search + "scenario:s").status, 500, "changed definition: state starts over")
    }

    /// `cp -p`, `rsync -t`, `tar x`: other content of the same size, the modification time set
    /// back. Name, size and modification time are as before; the status-change time is not.
    func testASameSizeRewriteWithItsModificationTimeRestoredIsReloaded() throws {
        let directory = try temporaryScenarioDirectory()
        let file = directory.appendingPathComponent("hot.json")
        let document = #"{"name": "hot", "description": "d", "rules": [{"respond": {"status": %@}}]}"#
        try Data(document.replacingOccurrences(of: "%@", with: "500").utf8).write(to: file)
        let before = try XCTUnwrap(FileStatus(path: file.path))
        let engine = ScenarioEngine(configuration: .init(directory: directory))
        engine.startWatching(interval: 0.1)
        addTeardownBlock { engine.stopWatching() }
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, search + "scenario:hot").status, 500)

        // Rewritten in place (as `cp -p` does), then the modification time restored to the nanosecond.
        try Data(document.replacingOccurrences(of: "%@", with: "503").utf8).write(to: file)
        XCTAssertTrue(FileStatus.setModificationTime(path: file.path, nanoseconds: before.modifiedNanoseconds))
        let after = try XCTUnwrap(FileStatus(path: file.path))
        XCTAssertEqual([after.size, after.modifiedNanoseconds, Int64(bitPattern: after.inode)],
                       [before.size, before.modifiedNanoseconds, Int64(bitPattern: before.inode)])
        XCTAssertTrue(try eventually { try get(server, search + "scenario:hot").status == 503 }, "the rewrite picked up without SIGHUP")
    }
}
