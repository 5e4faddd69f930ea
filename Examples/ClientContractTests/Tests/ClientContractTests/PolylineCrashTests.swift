import ContractKit
import Foundation
import VietMapSimulator
import XCTest

/// The app's `decodePolyline` (verbatim from the reference client) traps on a truncated polyline
/// and on one with a character below '?'. The suite runs it in contract workers (copies of this
/// test process), so the trap is a finding — query, JSON path, input, function — and the test
/// runner lives on. In-process (`VIETMAP_CONTRACT_ISOLATION=in-process`, and always on iOS) the
/// decoder is not given those inputs: each is reported as not isolated instead.
final class PolylineCrashTests: XCTestCase {
    func testDecodePolylineCrashesAreFindingsNotADeadRunner() async throws {
        // Scenarios of the app team's own, next to the built-in ones (`--scenarios DIR`).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, points) in [("app-truncated-polyline", "_p~iF"), ("app-polyline-with-space", "abc def")] {
            let scenario = """
                {"name": "\(name)", "description": "route points replaced by \(points)",
                 "rules": [{"match": {"endpoint": "route"}, "patch": [{"op": "replace", "path": "/paths/0/points", "value": "\(points)"}]}]}
                """
            try Data(scenario.utf8).write(to: folder.appendingPathComponent("\(name).json"))
        }
        let simulator = try SimulatorServer.start(.init(scenariosDirectory: folder))
        defer { simulator.stop() }
        XCTAssertEqual(simulator.directoryScenarioCount, 2)

        let reports = try await ContractSuite(target: .simulator(simulator.baseURL))
            .runScenarios(["app-truncated-polyline", "app-polyline-with-space"], only: ["route-car"], app: App.self)
        for (report, input) in zip(reports, ["\"_p~iF\"", "\"abc def\""]) {
            if report.isolation == .inProcess {
                XCTAssertEqual(report.crashes, [], report.name)
                let unobserved = try XCTUnwrap(report.unobserved.first, "\(report.name): \(report.results.map(\.notes))")
                XCTAssertEqual(report.unobserved.count, 1)
                XCTAssertEqual(unobserved.pointer, "/paths/0/points")
                XCTAssertEqual(unobserved.function, "decodePolyline")
                XCTAssertTrue(unobserved.reason.hasPrefix("decodePolyline(\(input)) not run"), unobserved.reason)
                continue
            }
            XCTAssertEqual(report.isolation, .worker)
            let crashes = report.crashes
            XCTAssertEqual(crashes.count, 1, "\(report.name): \(report.violations)")
            let crash = try XCTUnwrap(crashes.first)
            XCTAssertEqual(crash.query, "route-car")
            XCTAssertEqual(crash.kind, .crash)
            XCTAssertEqual(crash.pointer, "/paths/0/points")
            XCTAssertTrue(crash.reason.hasPrefix("decodePolyline(\(input)) crashed"), crash.reason)
            XCTAssertFalse(report.survives)
        }
    }
}
