import ContractKit
import VietMapSimulator
import XCTest

/// The app's models and decoder against a simulator started in this process.
final class AppContractTests: XCTestCase {
    func testTheAppsModelsAndDecoderAgreeWithTheContract() async throws {
        let simulator = try SimulatorServer.start()     // 127.0.0.1, a free port, built-in scenarios
        defer { simulator.stop() }
        let report = try await ContractSuite(target: .simulator(simulator.baseURL)).verify(App.contract)
        print(report.summary())
        XCTAssertTrue(report.passed)
        XCTAssertGreaterThan(report.isolatedCalls, 0)
    }
}
