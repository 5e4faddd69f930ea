import ContractKit
import Foundation
import XCTest

/// Scenario runs are reproducible: the same binary, seed and target give the same findings, byte
/// for byte, run after run — on one long-lived simulator, whose per-client states the runner
/// resets before each run.
final class ScenarioReproducibilityTests: XCTestCase {
    /// Queries of every kind the scenarios touch (autocomplete, a place taken from it, routes both
    /// encodings, an error), kept small so repeated passes over every scenario stay short.
    static let queries: Set<String> = ["ac-nha-tho-duc-ba", "ac-no-focus", "place-from-autocomplete", "place-unknown-refid",
                                       "route-car", "route-unencoded", "route-bike", "ac-missing-key"]

    /// Everything a run found, as text: per scenario, per query, the status and each finding.
    static func fingerprint(_ reports: [ScenarioReport]) -> [String] {
        var lines: [String] = []
        for report in reports {
            lines.append("scenario \(report.name) \(report.outcome.rawValue) tag \(report.tag)")
            for result in report.results {
                var line = "  \(result.name) \(result.status.map(String.init) ?? "-") \(result.skipped ?? "")"
                for failure in result.failures { line += "\n    \(failure)" }
                lines.append(line)
            }
        }
        return lines
    }

    /// Three runs: run 1 against two later runs on the same long-lived simulator (so per-client state
    /// left by a run, and by a run after a reset, would both show); more runs repeat the same comparison.
    func testRepeatedRunsOfEveryBuiltInScenarioGiveIdenticalFindings() async throws {
        // Many scenarios at once: the slow ones (delays of up to a second per answer) set the pace.
        let suite = try ContractSimulator.get().suite(options: .init(scenarioConcurrency: 13))
        let names = try await suite.scenarioNames(directory: nil)
        XCTAssertGreaterThanOrEqual(names.count, 25)
        var first: [String]?
        for run in 1...3 {
            let reports = await suite.runScenarios(names, only: Self.queries)
            XCTAssertTrue(reports.allSatisfy(\.reproducible))
            let print = Self.fingerprint(reports)
            if let first {
                let differences = zip(print, first).filter { $0 != $1 }
                XCTAssertTrue(print.count == first.count && differences.isEmpty, "run \(run) differs from run 1:\n"
                    + differences.prefix(3).map { "now:\n\($0)\nrun 1:\n\($1)" }.joined(separator: "\n"))
            } else {
                first = print
                // The seeded scenario really draws: some of its answers fail, some do not.
                let flaky = try XCTUnwrap(reports.first { $0.name == "flaky-503" })
                let statuses = flaky.results.compactMap(\.status)
                XCTAssertTrue(statuses.contains(503) && statuses.contains(200), "\(statuses)")
            }
        }
    }

    /// The seed decides the draws: another seed gives another (equally repeatable) sequence.
    func testAnotherSeedDrawsAnotherSequence() async throws {
        func statuses(seed: UInt64) async throws -> [Int?] {
            let suite = try ContractSimulator.get().suite(options: .init(seed: seed))
            let reports = await suite.runScenarios(["flaky-503"])
            return try XCTUnwrap(reports.first).results.map(\.status)
        }
        let one = try await statuses(seed: 1), again = try await statuses(seed: 1), other = try await statuses(seed: 2)
        XCTAssertTrue(one == again, "seed 1 twice: \(one.map { $0.map(String.init) ?? "-" }) vs \(again.map { $0.map(String.init) ?? "-" })")
        XCTAssertNotEqual(one, other)
    }
}
