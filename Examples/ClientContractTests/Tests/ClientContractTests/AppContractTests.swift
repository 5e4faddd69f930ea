import ContractKit
@testable import VietMapGoogleClient
import VietMapSimulator
import XCTest

/// The app's contract test: its models and decoder against a simulator started in this process,
/// then every scenario, each compared with the expected outcome in `scenario-baseline.json`.
final class AppContractTests: XCTestCase {
    func testTheAppsModelsAndDecoderAgreeWithTheContract() async throws {
        let simulator = try SimulatorServer.start()     // 127.0.0.1, a free port, built-in scenarios
        defer { simulator.stop() }
        try await ContractSuite(target: .simulator(simulator.baseURL))
            .verify(App.self, scenarios: ScenarioBaseline(fileBeside: #filePath))
    }

    /// One endpoint, the app's type named as in the reference client: no module qualification needed.
    func testOneEndpointWithTheAppsRouteModel() async throws {
        let simulator = try SimulatorServer.start()
        defer { simulator.stop() }
        let report = try await ContractSuite(target: .simulator(simulator.baseURL))
            .verify(VMRouteResponse.self, for: .route,
                    polyline: AppPolylineDecoder(named: "decodePolyline", decodePolyline) { ($0.latitude, $0.longitude) },
                    acceptedGaps: [AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points")],
                    isolatedBy: App.self)
        XCTAssertEqual(report.models.filter { !$0.isReference }.map(\.model), ["VietMapGoogleClient.VMRouteResponse"])
        XCTAssertTrue(report.results.contains { $0.name == "route-car" && $0.modelDecodes == true })
    }
}
