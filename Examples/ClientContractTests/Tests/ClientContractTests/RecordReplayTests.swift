import ContractKit
import Foundation
import VietMapSimulator
import XCTest

/// Record the simulator's answers once, then run the same contract offline from the recording.
final class RecordReplayTests: XCTestCase {
    func testARecordedCorpusReplaysGreen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulator = try SimulatorServer.start()
        let suite = try ContractSuite(target: .simulator(simulator.baseURL))
        // The whole corpus, the queries that send their own key (missing, empty, wrong → 401)
        // included: recordings keep answers that differ only in the key apart.
        let queries = Set(suite.queryNames)
        let recorded = try await suite.record(into: folder, only: queries, app: App.contract)
        simulator.stop()
        XCTAssertTrue(recorded.passed, recorded.summary())

        let replay = try await ContractSuite(target: .recorded(folder)).run(only: queries, app: App.contract)
        print(replay.summary())
        XCTAssertTrue(replay.passed, replay.summary())
        XCTAssertEqual(replay.results.filter { $0.skipped == nil }.map(\.name), recorded.results.filter { $0.skipped == nil }.map(\.name))
        XCTAssertEqual(replay.results.map(\.status), recorded.results.map(\.status))
    }
}
