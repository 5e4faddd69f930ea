import ContractKit
import VietMapSimulator
import XCTest

/// Every built-in scenario through the app's own models and decoder: which ones break it, and
/// exactly where (model property + JSON path), asserted; the others must leave it standing.
final class ScenarioTests: XCTestCase {
    /// Built-in scenarios the reference client's files survive (no decode error, no crash).
    static let survivors: Set<String> = [
        "autocomplete-500", "bad-key-401", "burst-400", "connection-reset", "empty-reply", "empty-route",
        "fail-twice-then-succeed", "flaky-503", "lognormal-latency", "place-null-latlng", "quota-429", "route-500",
        "slow-autocomplete", "succeed-then-quota-exhausted", "truncated-json", "zero-results",
    ]

    func testEveryBuiltInScenarioThroughTheAppsDecoding() async throws {
        let simulator = try SimulatorServer.start()
        defer { simulator.stop() }
        let suite = try ContractSuite(target: .simulator(simulator.baseURL))
        let reports = try await suite.runScenarios(app: App.contract)
        print(ContractReport.scenarioTable(reports))
        XCTAssertGreaterThanOrEqual(reports.count, 19)

        for report in reports {
            let breaks = report.modelBreaks
            // Every query ran to an outcome: the runner survived whatever the app's code did.
            XCTAssertEqual(report.results.count, suite.contracts.corpus.queries.count, report.name)
            switch report.name {
            case "autocomplete-no-ref-id":
                // VMSearchItem.refId is a non-optional String: every autocomplete 200 with items breaks.
                XCTAssertFalse(breaks.isEmpty)
                for failure in breaks {
                    XCTAssertEqual(failure.kind, .model, "\(failure)")
                    XCTAssertTrue(failure.pointer.hasSuffix("/ref_id"), "\(failure)")
                    XCTAssertTrue(failure.reason.contains("VMSearchItem.refId: String is required"), "\(failure)")
                }
            case "malformed-json":
                // Half a JSON document in a 200: the app's JSONDecoder throws on every one.
                XCTAssertFalse(breaks.isEmpty)
                for failure in breaks {
                    XCTAssertEqual(failure.kind, .model, "\(failure)")
                    XCTAssertEqual(failure.pointer, "", "\(failure)")
                    XCTAssertTrue(failure.reason.contains("cannot decode an HTTP 200 whose body is not JSON"), "\(failure)")
                }
            case "route-points-bare-latlng":
                // Only points_encoded=false answers change, and the app accepts that gap: survives,
                // and the report says which accepted gap it met.
                XCTAssertEqual(breaks, [])
                let notes = report.results.flatMap(\.notes)
                XCTAssertTrue(notes.contains { $0.hasPrefix("accepted by the app") && $0.contains("/paths/0/points") }, "\(notes)")
            case let name where Self.survivors.contains(name):
                // Errors, delays, dropped connections, empty or null-coordinate answers: the
                // reference client's models are optional enough to survive them.
                XCTAssertEqual(breaks, [], name)
            case "malformed-polyline", "truncated-polyline":
                // The reference decodePolyline traps on a value cut short or a character below '?':
                // each is a crash finding naming the function and its input, not a dead runner.
                XCTAssertFalse(breaks.isEmpty, report.name)
                for failure in breaks {
                    XCTAssertEqual(failure.kind, .crash, "\(report.name): \(failure)")
                    XCTAssertTrue(failure.pointer.hasPrefix("/paths/") && failure.pointer.hasSuffix("/points"), "\(report.name): \(failure)")
                    XCTAssertTrue(failure.reason.hasPrefix("decodePolyline(\""), "\(report.name): \(failure)")
                }
            case "swapped-polyline", "polyline-1e6":
                // Valid polylines with wrong coordinates: the app decodes them (no break), and the
                // contract's semantic check names the impossible coordinates.
                XCTAssertEqual(breaks, [], report.name)
                XCTAssertTrue(report.violations.contains { $0.kind == .semantic && $0.reason.contains("outside latitude") },
                              "\(report.name): \(report.violations.prefix(3))")
            default:
                // Scenarios added to Scenarios/ later: whatever they break must be decodePolyline
                // crashing on a route's points, named with its input.
                for failure in breaks {
                    XCTAssertEqual(failure.kind, .crash, "\(report.name): \(failure)")
                    XCTAssertTrue(failure.pointer.hasPrefix("/paths/") && failure.pointer.hasSuffix("/points"), "\(report.name): \(failure)")
                    XCTAssertTrue(failure.reason.hasPrefix("decodePolyline(\""), "\(report.name): \(failure)")
                }
            }
        }
    }

    /// Without the accepted gap the same scenario is red, at the model property and JSON path.
    func testBareLatLngPointsBreakAnAppThatDoesNotAcceptTheGap() async throws {
        let simulator = try SimulatorServer.start()
        defer { simulator.stop() }
        var app = App.contract
        app.acceptedGaps = []
        let reports = try await ContractSuite(target: .simulator(simulator.baseURL))
            .runScenarios(["route-points-bare-latlng"], only: ["route-unencoded"], app: app)
        let breaks = try XCTUnwrap(reports.first).modelBreaks
        XCTAssertEqual(breaks.map(\.pointer), ["/paths/0/points"])
        XCTAssertTrue(breaks[0].reason.contains("VMRoutePath.points: String"), "\(breaks)")
    }
}
