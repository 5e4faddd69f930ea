import ContractKit
import Foundation
import JSON
import XCTest

/// Deliberately broken answers (the repository's scenarios) are caught with the right field and reason.
final class ScenarioContractTests: XCTestCase {
    private func run(_ scenario: String, _ queries: Set<String>) async throws -> ScenarioReport {
        let reports = try await ContractSimulator.get().suite().runScenarios([scenario], only: queries)
        return try XCTUnwrap(reports.first)
    }

    func testScenarioNamesComeFromTheScenariosFolder() async throws {
        let names = try await ContractSimulator.get().suite().scenarioNames(directory: ContractSimulator.scenariosDirectory)
        XCTAssertTrue(names.contains("autocomplete-no-ref-id"))
        XCTAssertTrue(names.contains("route-points-bare-latlng"))
        XCTAssertFalse(names.contains { $0.contains("schema") })
    }

    func testMissingRefIDBreaksTheReferenceModel() async throws {
        let report = try await run("autocomplete-no-ref-id", ["place-from-autocomplete"])
        XCTAssertFalse(report.survives)
        let autocomplete = try XCTUnwrap(report.results.first { $0.name == "ac-nha-tho-duc-ba" })
        XCTAssertTrue(autocomplete.failures.contains {
            $0.kind == .model && $0.pointer == "/0/ref_id" && $0.reason.contains("VMSearchItem.refId: String is required")
        }, "\(autocomplete.failures)")
        XCTAssertTrue(autocomplete.failures.contains { $0.kind == .schema && $0.pointer == "/0" && $0.reason.contains("ref_id") },
                      "\(autocomplete.failures)")
        // The place query cannot get its ref_id.
        let place = try XCTUnwrap(report.results.first { $0.name == "place-from-autocomplete" })
        XCTAssertEqual(place.failures.map(\.kind), [.dependency])
        XCTAssertNil(place.request)
    }

    func testNullCoordinatesAreCaughtAlthoughTheModelSurvives() async throws {
        let report = try await run("place-null-latlng", ["place-from-autocomplete", "place-hanoi"])
        XCTAssertTrue(report.survives, "VMPlaceDetail.lat/lng are optional")
        let first = try XCTUnwrap(report.results.first { $0.name == "place-from-autocomplete" })
        XCTAssertEqual(first.modelDecodes, true)
        XCTAssertTrue(first.failures.contains { $0.kind == .schema && $0.pointer == "/lat" && $0.reason.contains("null") }, "\(first.failures)")
        XCTAssertTrue(first.failures.contains { $0.kind == .semantic && $0.pointer == "/lat" && $0.reason.hasPrefix("inside-vietnam") })
        // The scenario alternates: the second place answer has no lat/lng keys at all.
        let second = try XCTUnwrap(report.results.first { $0.name == "place-hanoi" })
        XCTAssertTrue(second.failures.contains { $0.kind == .schema && $0.reason.contains("lat") }, "\(second.failures)")
    }

    func testBareLatLngArraysAreCaught() async throws {
        let report = try await run("route-points-bare-latlng", ["route-unencoded", "route-car"])
        let unencoded = try XCTUnwrap(report.results.first { $0.name == "route-unencoded" })
        XCTAssertTrue(unencoded.failures.contains { $0.kind == .schema && $0.pointer == "/paths/0/points" }, "\(unencoded.failures)")
        XCTAssertTrue(unencoded.failures.contains { $0.kind == .schema && $0.pointer == "/paths/0/snapped_waypoints" })
        XCTAssertTrue(unencoded.failures.contains {
            $0.kind == .semantic && $0.pointer == "/paths/0/points" && $0.reason.contains("bare array")
        }, "\(unencoded.failures)")
        // Encoded routes are untouched by this scenario.
        XCTAssertEqual(report.results.first { $0.name == "route-car" }?.failures.count, 0)
    }

    func testAnOKRouteWithoutPathsIsCaught() async throws {
        let report = try await run("empty-route", ["route-car"])
        XCTAssertTrue(report.survives, "VMRouteResponse.paths is optional; the app shows 'No path'")
        let car = try XCTUnwrap(report.results.first)
        XCTAssertTrue(car.failures.contains { $0.kind == .schema && $0.pointer == "/paths" && $0.reason.contains("fewer than 1") },
                      "\(car.failures)")
        XCTAssertTrue(car.failures.contains { $0.kind == .semantic && $0.pointer == "/paths" && $0.reason.contains("no path") })
    }

    func testTransportFaultsAndMalformedBodies() async throws {
        let reset = try await run("connection-reset", ["ac-nha-tho-duc-ba"])
        XCTAssertEqual(reset.results.first?.failures.first?.kind, .transport)
        XCTAssertTrue(reset.survives, "no answer is not a decoding failure")
        let malformed = try await run("malformed-json", ["ac-nha-tho-duc-ba"])
        XCTAssertEqual(malformed.results.first?.failures.map(\.kind), [.json, .model])
        XCTAssertFalse(malformed.survives, "the client decodes every 200")
    }

    func testScenarioResultsNeverFailTheRun() async throws {
        var report = try await ContractSimulator.fullRun.value
        report.scenarios = [try await run("autocomplete-no-ref-id", ["ac-no-focus"])]
        XCTAssertTrue(report.passed)
        XCTAssertTrue(report.summary().contains("Scenarios (client tag contract-seed1)"))
        XCTAssertTrue(report.summary().contains("autocomplete-no-ref-id") && report.summary().contains("MODELS BREAK"))
    }
}
