@testable import ContractKit
import Foundation
import Scenarios
import SimTesting
import VietMapClient
import VietMapSimulator
import XCTest

/// The seed app's route model and verbatim `decodePolyline`, held by a type so that contract
/// workers (copies of this test process) find the decoder.
enum SeedRouteApp: AppContractProvider {
    static let seedDecoder = AppPolylineDecoder(named: "decodePolyline", SeedApp.decodePolyline) { ($0.latitude, $0.longitude) }
    static let contract = AppContract(route: .model(SeedApp.VMRouteResponse.self), polyline: seedDecoder)
}

/// A decoder that reads the polyline at 1e6 precision: every point is off by a factor of ten.
enum WrongPrecisionApp: AppContractProvider {
    static let contract = AppContract(route: .model(SeedApp.VMRouteResponse.self), polyline: AppPolylineDecoder(
        named: "decodePolyline6", { (encoded: String) -> [SeedApp.CLLocationCoordinate2D] in
            SeedApp.decodePolyline(encoded).map { .init(latitude: $0.latitude / 10, longitude: $0.longitude / 10) }
        }, coordinate: { ($0.latitude, $0.longitude) }))
}

/// An app's decode closure that assumes a route always has a path.
enum TrappingRouteApp: AppContractProvider {
    static let contract = AppContract(route: ContractModel.model(SeedApp.VMRouteResponse.self, decode: { data in
        let route = try JSONDecoder().decode(SeedApp.VMRouteResponse.self, from: data)
        _ = route.paths![0]
        return route
    }, decoderName: "RouteService.decode"))
}

/// An app's decode closure that never returns.
enum HangingRouteApp: AppContractProvider {
    static let contract = AppContract(route: ContractModel.model(SeedApp.VMRouteResponse.self, decode: { _ in
        while true { sleep(1) }
    }, decoderName: "SlowDecoder.decode"))
}

/// An app's own decoding under test, over real HTTP: its crashes and hangs become findings (the
/// runner survives them), its polyline decoder is compared with the strict one, gaps bind to
/// types by identity, and the report names the app's models in full.
final class AppDecodingTests: XCTestCase {
    static let seedDecoder = SeedRouteApp.seedDecoder

    /// A simulator with two scenarios of the test's own next to the built-in ones.
    private func simulatorWithPolylineFaults() throws -> (SimulatorServer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("polyline-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, points) in [("t-truncated", "_p~iF"), ("t-space", "abc def")] {
            let json = #"{"name": "\#(name)", "description": "route points replaced by \#(points)", "rules": [{"match": {"endpoint": "route"}, "patch": [{"op": "replace", "path": "/paths/0/points", "value": "\#(points)"}]}]}"#
            try Data(json.utf8).write(to: folder.appendingPathComponent("\(name).json"))
        }
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory, scenariosDirectory: folder))
        XCTAssertEqual(simulator.scenarioIssues.map(\.description), [])
        XCTAssertEqual(simulator.directoryScenarioCount, 2)
        return (simulator, folder)
    }

    func testTheReferenceDecodePolylineTrapsAreCrashFindingsNotADeadRunner() async throws {
        let (simulator, folder) = try simulatorWithPolylineFaults()
        defer { simulator.stop(); try? FileManager.default.removeItem(at: folder) }
        let reports = try await ContractSuite(target: .simulator(simulator.baseURL), contracts: ContractSimulator.get().contracts)
            .runScenarios(["t-truncated", "t-space"], only: ["route-car", "route-truck"], app: SeedRouteApp.self)
        XCTAssertEqual(reports.map(\.name), ["t-truncated", "t-space"])
        for (report, input) in zip(reports, [#""_p~iF""#, #""abc def""#]) {
            XCTAssertFalse(report.survives)
            XCTAssertEqual(report.crashes.map(\.query), ["route-car", "route-truck"], "\(report.violations)")
            for crash in report.crashes {
                XCTAssertEqual(crash.kind, .crash)
                XCTAssertEqual(crash.pointer, "/paths/0/points")
                XCTAssertTrue(crash.reason.hasPrefix("decodePolyline(\(input)) crashed (SIG"), crash.reason)
            }
            XCTAssertTrue(ContractReport.scenarioTable([report]).contains("APP CODE CRASH"))
        }
        // The trap's own message comes from the worker's stderr.
        let first = try XCTUnwrap(reports.first?.crashes.first)
        XCTAssertTrue(first.reason.contains("Fatal error"), first.reason)
    }

    func testAnAppDecoderThatDisagreesWithTheStrictOneIsReported() async throws {
        let sim = try ContractSimulator.get()
        let report = try await sim.suite().run(only: ["route-car"], app: WrongPrecisionApp.self)
        let failure = try XCTUnwrap(report.allFailures.first { $0.kind == .polyline }, report.summary())
        XCTAssertEqual(failure.query, "route-car")
        XCTAssertEqual(failure.pointer, "/paths/0/points")
        XCTAssertTrue(failure.reason.hasPrefix("decodePolyline6(\""), failure.reason)
        XCTAssertTrue(failure.reason.contains("point 0 is "), failure.reason)
        // The verbatim decoder agrees on every valid polyline of the run.
        let good = try await sim.suite().run(only: ["route-car", "route-via", "route-hanoi"], app: SeedRouteApp.self)
        XCTAssertFalse(good.allFailures.contains { $0.kind == .polyline || $0.kind == .crash }, good.summary())
        XCTAssertGreaterThanOrEqual(good.isolatedCalls, 6)
    }

    func testACrashOrHangInTheAppsDecodeClosureIsAFinding() async throws {
        let sim = try ContractSimulator.get()
        var options = ContractSuite.Options()
        options.appCodeTimeout = 0.5
        let gap = AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points")
        var withGap = AppContract.held(by: TrappingRouteApp.self)
        withGap.acceptedGaps = [gap]
        let report = try await sim.suite(options: options).run(only: ["route-car"], app: withGap)
        XCTAssertEqual(report.allFailures, [], report.summary())    // route-car has a path
        let empty = try await ContractSuite(target: .simulator(sim.baseURL), contracts: sim.contracts, options: options)
            .runScenarios(["empty-route"], only: ["route-car"], app: TrappingRouteApp.self)
        let crash = try XCTUnwrap(empty.first?.crashes.first)
        XCTAssertEqual(crash.query, "route-car")
        XCTAssertTrue(crash.reason.hasPrefix("RouteService.decode crashed (SIG"), crash.reason)
        XCTAssertTrue(crash.reason.contains(#"input: the "#) && crash.reason.contains(#"\"paths\":[]"#), crash.reason)

        let hung = try await sim.suite(options: options).run(only: ["route-car"], app: HangingRouteApp.self)
        let hang = try XCTUnwrap(hung.allFailures.first { $0.kind == .hang }, hung.summary())
        XCTAssertTrue(hang.reason.hasPrefix("SlowDecoder.decode did not return"), hang.reason)
    }

    func testLibraryGapsBindToTheReferenceTypesAndAppGapsToTheApps() async throws {
        let suite = try ContractSimulator.get().suite()
        // The reference client's VMRouteResponse: the corpus' known gap covers points_encoded=false.
        let reference = await suite.run(only: ["route-unencoded"])
        XCTAssertTrue(reference.passed, reference.summary())
        XCTAssertTrue(reference.result("route-unencoded")?.notes.contains { $0.hasPrefix("known gap of the reference client (VMRouteResponse at /paths/*/points) /paths/0/points") } == true)

        // The app's copy and a renamed copy: no inherited gap, the same findings.
        func failures<T: Decodable>(_ type: T.Type) async -> [String] {
            let report = await suite.run(only: ["route-unencoded"], app: AppContract(route: .model(type)))
            return report.allFailures.map { "\($0.query.hasPrefix("model:") ? "model:" : $0.query) \($0.kind) \($0.pointer)" }
        }
        let original = await failures(SeedApp.VMRouteResponse.self)
        let renamed = await failures(SeedApp.RouteResponse.self)
        XCTAssertTrue(original.contains("route-unencoded model /paths/0/points"), "\(original)")
        XCTAssertEqual(original, renamed)

        // The app declares the gap itself: green, reported as accepted.
        let gap = AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points", reason: "never asks for points_encoded=false")
        let accepted = await suite.run(only: ["route-unencoded"], app: AppContract(route: .model(SeedApp.RouteResponse.self), acceptedGaps: [gap]))
        XCTAssertTrue(accepted.passed, accepted.summary())
        XCTAssertTrue(accepted.result("route-unencoded")?.notes.contains { $0.hasPrefix("accepted by the app") } == true)
        // A gap for another property does not cover it.
        let other = AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.distance")
        let notCovered = await suite.run(only: ["route-unencoded"], app: AppContract(route: .model(SeedApp.RouteResponse.self), acceptedGaps: [other]))
        XCTAssertFalse(notCovered.passed)
    }

    func testTheSummaryNamesTheAppsModelsInFullWithIgnoredKeysAndAcceptedGaps() async throws {
        let gap = AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points", reason: "never asks for points_encoded=false")
        let app = AppContract(route: .model(SeedApp.VMRouteResponse.self), polyline: Self.seedDecoder, acceptedGaps: [gap])
        let report = try await ContractSimulator.get().suite().verify(app)
        let summary = report.summary()
        XCTAssertTrue(summary.contains("route: ContractTests.SeedApp.VMRouteResponse (the app's)"), summary)
        XCTAssertTrue(summary.contains("  ContractTests.SeedApp.VMRouteResponse (the app's model): ok, 1 known/accepted gap"), summary)
        XCTAssertTrue(summary.contains("    ignored keys: /code, /license"), summary)
        XCTAssertTrue(summary.contains("Accepted gaps (declared by the app):\n  VMRoutePath.points at /paths/*/points — never asks"), summary)
        XCTAssertTrue(summary.contains("app code: "), summary)
        XCTAssertEqual(report.models.first { !$0.isReference }?.model, "ContractTests.SeedApp.VMRouteResponse")
    }
}
