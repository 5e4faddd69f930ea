import ContractKit
import Testing
import VietMapSimulator

/// The same contract check with Swift Testing: a thrown `ContractViolation` fails the test with
/// its findings, one line per kind and query.
@Suite struct AppContractSwiftTesting {
    @Test func theAppsModelsAgreeWithTheContract() async throws {
        let simulator = try SimulatorServer.start()
        defer { simulator.stop() }
        try await ContractSuite(target: .simulator(simulator.baseURL)).verify(App.self)
    }
}
