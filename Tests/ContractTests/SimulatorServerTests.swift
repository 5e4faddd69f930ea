import BuiltInScenarios
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import Scenarios
#endif
import SimTesting
import VietMapSimulator
import XCTest

/// `SimulatorServer`, as an app's XCTest starts it: a free loopback port, the built-in scenarios
/// embedded (every file of Scenarios/), a folder that adds or overrides by name, stopped at the end.
final class SimulatorServerTests: XCTestCase {
    private func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func testBuiltInScenariosAreEmbeddedAndAFolderOverridesThem() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Scenarios").path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
        XCTAssertEqual(BuiltInScenarios.files.map(\.lastPathComponent).sorted(), shipped.sorted())

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("override-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let override = #"{"name": "empty-route", "description": "mine", "rules": [{"match": {"endpoint": "route"}, "respond": {"status": 503, "json": {"code": "OVERRIDDEN"}}}]}"#
        try Data(override.utf8).write(to: folder.appendingPathComponent("mine.json"))

        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory, scenariosDirectory: folder))
        XCTAssertEqual(simulator.scenarioIssues.map(\.description), [])
        XCTAssertEqual(simulator.baseURL.host, "127.0.0.1")
        XCTAssertNotEqual(simulator.port, 0)
        XCTAssertEqual(simulator.builtInScenarioCount, shipped.count - 1)
        XCTAssertEqual(simulator.directoryScenarioCount, 1)
        XCTAssertEqual(simulator.replacedBuiltInScenarioCount, 1)
        XCTAssertEqual(simulator.scenarioSummary,
                       "\(shipped.count) scenarios (built-in \(shipped.count - 1), \(folder.path) 1, replacing 1 built-in of the same names)")

        let route = "api/route/v4?point=10.7725,106.6980&point=10.7800,106.7000&apikey="
        let (status, body) = try await get(URL(string: route + "scenario:empty-route", relativeTo: simulator.baseURL)!)
        XCTAssertEqual(status, 503, body)
        XCTAssertTrue(body.contains("OVERRIDDEN"), body)
        let (zeroStatus, zeroBody) = try await get(URL(string: route + "scenario:route-500", relativeTo: simulator.baseURL)!)
        XCTAssertEqual(zeroStatus, 500, zeroBody)

        simulator.stop()
        do {
            _ = try await get(URL(string: route + "k", relativeTo: simulator.baseURL)!)
            XCTFail("the stopped simulator still answers")
        } catch {}
    }

    /// docs/api.md: every answer but the 401 carries `Access-Control-Allow-Origin: *` — the
    /// server layer's own 414 for a URL over the 16 KiB limit too.
    /// Served from the repository (its own `Scenarios/`, which the built-in set is a copy of), start-up says the
    /// folder replaced the built-in scenarios, not "built-in 0" (issue #37).
    func testTheRepositorysOwnScenariosFolderSaysItReplacesTheBuiltInOnes() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = repository.appendingPathComponent("Scenarios")
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory, scenariosDirectory: folder))
        defer { simulator.stop() }
        let count = BuiltInScenarios.files.count
        XCTAssertEqual(simulator.builtInScenarioCount, 0)
        XCTAssertEqual(simulator.replacedBuiltInScenarioCount, count)
        XCTAssertEqual(simulator.scenarioSummary,
                       "\(count) scenarios (\(folder.path) \(count), replacing the built-in ones of the same names)")
    }

    func testTheServersOwn414CarriesTheCORSHeader() async throws {
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory))
        defer { simulator.stop() }
        let url = URL(string: "api/autocomplete/v4?apikey=k&text=" + String(repeating: "a", count: 17 * 1024), relativeTo: simulator.baseURL)!
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 414, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(http.value(forHTTPHeaderField: "Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"code":"INVALID_REQUEST","message":"request URI too long"}"#)
    }
}
