import ContractKit
import VietMapSimulator
import XCTest

/// A gap the app does not accept is red, at the model property and JSON path.
final class ScenarioTests: XCTestCase {
    func testBareLatLngPointsBreakAnAppThatDoesNotAcceptTheGap() async throws {
        let simulator = try SimulatorServer.start()
        defer { simulator.stop() }
        var app = App.contract
        app.acceptedGaps = []
        let reports = try await ContractSuite(target: .simulator(simulator.baseURL))
            .runScenarios(["route-points-bare-latlng"], only: ["route-unencoded"], app: app)
        let report = try XCTUnwrap(reports.first)
        XCTAssertEqual(report.outcome, .breaksModels)
        XCTAssertEqual(report.breakingProperties, ["VMRoutePath.points"])
        XCTAssertEqual(report.modelBreaks.map(\.pointer), ["/paths/0/points"])
    }
}
