import ContractKit
import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import VietMapClient
import VietMapSimulator
import XCTest

/// One simulator for the whole test target — a `SimulatorServer` as an app's tests start it: the
/// default dataset (built once per machine into the shared test cache), the built-in scenarios in
/// front of it, real HTTP on an ephemeral port.
final class ContractSimulator: @unchecked Sendable {
    // @unchecked: immutable after init.
    static let shared: Result<ContractSimulator, SetupError> = Result { try ContractSimulator() }
        .mapError { SetupError(description: "could not start the simulator: \($0)") }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository root, from this file's path (Tests/ContractTests/…).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let contractsDirectory = repositoryRoot.appendingPathComponent("Contracts")
    static let scenariosDirectory = repositoryRoot.appendingPathComponent("Scenarios")

    let server: SimulatorServer
    let baseURL: URL
    let contracts: Contracts

    private init() throws {
        server = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory))
        baseURL = server.baseURL
        contracts = try Contracts.load(from: Self.contractsDirectory)
    }

    /// The shared simulator, or the test fails with why it could not start.
    static func get() throws -> ContractSimulator { try shared.get() }

    func suite(options: ContractSuite.Options = .init()) throws -> ContractSuite {
        try ContractSuite(target: .simulator(baseURL), contracts: contracts, options: options)
    }

    /// One full corpus run, shared by the tests that only read it.
    static let fullRun: Task<ContractReport, any Error> = Task {
        try await get().suite().run()
    }
}

/// A provider that answers from a closure (for deliberately broken answers without a server).
struct ClosureProvider: VietMapProvider {
    let answer: @Sendable (VMRequest) -> VMRawResponse
    func send(_ request: VMRequest) async throws -> VMRawResponse { answer(request) }
}

extension ContractReport {
    func result(_ name: String) -> QueryResult? { (results + fixtures).first { $0.name == name } }
}
