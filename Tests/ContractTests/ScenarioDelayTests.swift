import ContractKit
import Foundation
import XCTest

/// Scenario runs wait no real time for a scenario's delays: the simulator names the delay
/// (`X-VietMap-Sim-Virtual-Delay`) and the runner judges it against its request timeout, as
/// waiting would have.
final class ScenarioDelayTests: XCTestCase {
    /// `nav-slow-past-timeout` delays Directions v5 by 12 s.
    private func directions(timeout: TimeInterval) async throws -> QueryResult {
        let suite = try ContractSimulator.get().suite(options: .init(timeout: timeout))
        let reports = await suite.runScenarios(["nav-slow-past-timeout"], only: ["directions-sdk-ios"])
        let report = try XCTUnwrap(reports.first)
        return try XCTUnwrap(report.results.first { $0.name == "directions-sdk-ios" })
    }

    func testADelayPastTheTimeoutIsATimeoutFinding() async throws {
        let result = try await directions(timeout: 10)
        XCTAssertNil(result.status)
        XCTAssertEqual(result.failures.map(\.kind), [.transport])
        XCTAssertEqual(result.failures.first?.reason, "no HTTP answer: The request timed out.")
    }

    func testADelayWithinTheTimeoutIsAnAnswer() async throws {
        let result = try await directions(timeout: 15)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.failures.map(\.kind), [])
    }
}
