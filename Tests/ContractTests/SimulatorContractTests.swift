import ContractKit
import Foundation
import JSON
import VietMapClient
import XCTest

/// The whole suite against the simulator: corpus, fixtures, model agreement, shapes.
final class SimulatorContractTests: XCTestCase {
    func testTheWholeCorpusHoldsAgainstTheSimulator() async throws {
        let report = try await ContractSimulator.fullRun.value
        XCTAssertTrue(report.passed, report.summary())
        XCTAssertEqual(report.results.count, try ContractSimulator.get().contracts.corpus.queries.count)
        XCTAssertGreaterThanOrEqual(report.results.count, 40)
        XCTAssertTrue(report.results.allSatisfy { $0.skipped == nil || $0.skipped!.hasPrefix("pending: ") },
                      "nothing but pending queries is skipped against a simulator")
        // Every endpoint, display_type, vehicle, both encodings and the error cases are in the corpus.
        let requests = report.results.compactMap(\.request?.description)
        for needle in ["display_type=1", "display_type=2", "display_type=3", "display_type=5", "display_type=6",
                       "vehicle=car", "vehicle=motorcycle", "vehicle=truck", "vehicle=bike", "vehicle=foot", "vehicle=container",
                       "points_encoded=true", "points_encoded=false", "/api/place/v4?refid=auto:", "/api/place/v4?refid=vm:",
                       "/api/place/v3?refid=vm:", "/api/place/v3?refId=auto:", "/api/route?api-version=1.1&", "/api/route/v3?",
                       "/api/search/v4?", "/api/search/v3?", "/api/autocomplete/v3?", "/api/reverse/v3?", "/api/migrate-address/v3?",
                       "lon=", "displayType=", "migrateType=", "/api/navigations/route/directions/v5/mapbox/driving-traffic/",
                       "/api/navigations/route/directions/v5/mapbox/motorcycle/", "geometries=polyline6", "geometries=geojson"] {
            XCTAssertTrue(requests.contains { $0.contains(needle) }, "no query with \(needle)")
        }
        XCTAssertEqual(Set(report.results.compactMap(\.status)), [200, 400, 401, 404, 422])
        XCTAssertTrue(report.results.contains { $0.body?["code"] == "ZERO_RESULTS" })
        XCTAssertTrue(report.results.contains { $0.body?["code"] == "MAX_POINTS_EXCEED" })
        XCTAssertTrue(report.results.contains { $0.body?["code"] == "NoRoute" })
        XCTAssertTrue(report.results.contains { $0.body?["code"] == "ProfileNotFound" })
        // Dependencies resolved: the place queries used ref_ids from autocomplete answers.
        let place = try XCTUnwrap(report.result("place-from-data-old"))
        XCTAssertEqual(place.request?.parameters.first?.value,
                       report.result("ac-display-type-5")?.body?[1]?["data_old"]?["ref_id"]?.stringValue)
    }

    func testTheLiveFixturesPass() async throws {
        let report = try await ContractSimulator.fullRun.value
        XCTAssertEqual(report.fixtures.count, 5)
        for fixture in report.fixtures {
            XCTAssertTrue(fixture.passed, "\(fixture.name): \(fixture.failures)")
            XCTAssertEqual(fixture.modelDecodes, true, fixture.name)
        }
    }

    /// The simulator's answers have the shapes (keys, types, nullability) of the live examples.
    func testSimulatorAnswersHaveTheShapesOfTheLiveFixtures() async throws {
        let report = try await ContractSimulator.fullRun.value
        let fixtures = try ContractSimulator.get().contracts.fixtures
        XCTAssertEqual(fixtures.compactMap(\.compareQuery).count, fixtures.count)
        for fixture in fixtures {
            let query = try XCTUnwrap(fixture.compareQuery)
            let body = try XCTUnwrap(report.result(query)?.body, "no answer for \(query)")
            let expected = try XCTUnwrap(ContractPointer.resolve(fixture.comparePointer, in: fixture.body))
            let actual = try XCTUnwrap(ContractPointer.resolve(fixture.comparePointer, in: body))
            let differences = JSONShape.differences(expected: JSONShape(expected), actual: JSONShape(actual), exact: fixture.shapeMatch == .exact)
            XCTAssertEqual(differences, [], "\(fixture.name) vs \(query)")
        }
    }

    func testShapeComparisonNoticesMissingKeysTypesAndNulls() {
        let live: JSONValue = ["a": 1, "b": .null, "c": ["x": "s"], "d": [["k": 1]]]
        let same: JSONValue = ["a": 2.5, "b": .null, "c": ["x": "t"], "d": [["k": 2], ["k": 3]]]
        XCTAssertEqual(JSONShape.differences(expected: JSONShape(live), actual: JSONShape(same), exact: true), [])
        let broken: JSONValue = ["a": "1", "b": 3, "c": ["y": "s"], "d": [["k": 1]], "e": true]
        let differences = JSONShape.differences(expected: JSONShape(live), actual: JSONShape(broken), exact: true)
        XCTAssertTrue(differences.contains { $0.hasPrefix("/a: expected number") }, "\(differences)")
        XCTAssertTrue(differences.contains { $0.hasPrefix("/b: expected null") }, "\(differences)")
        XCTAssertTrue(differences.contains { $0.hasPrefix("/c/x: missing") }, "\(differences)")
        XCTAssertTrue(differences.contains { $0.hasPrefix("/e: extra key") }, "\(differences)")
        XCTAssertFalse(JSONShape.differences(expected: JSONShape(live), actual: JSONShape(broken), exact: false).contains { $0.hasPrefix("/e") })
    }

    func testModelAgreementOfTheReferenceModels() async throws {
        let report = try await ContractSimulator.fullRun.value
        let route = try XCTUnwrap(report.models.first { $0.model == "VMRouteResponse" })
        XCTAssertEqual(route.errors.count, 0)
        let gap = try XCTUnwrap(route.knownGaps.first)
        XCTAssertEqual(gap.path, "/paths/*/points")
        XCTAssertEqual(gap.kind, .typeMismatch)
        XCTAssertTrue(gap.message.contains("VMRoutePath.points: String") && gap.message.contains("object"), gap.message)
        XCTAssertTrue(gap.message.contains("points_encoded"), gap.message)
        // The unencoded queries meet the known gap on their actual answers.
        let unencoded = try XCTUnwrap(report.result("route-unencoded"))
        XCTAssertEqual(unencoded.modelDecodes, false)
        XCTAssertTrue(unencoded.notes.contains { $0.contains("known gap") && $0.contains("/paths/0/points") }, "\(unencoded.notes)")
        // Keys the server sends that the reference client ignores are reported, as information.
        XCTAssertTrue(route.findings.contains { $0.kind == .ignoredKey && $0.path == "/paths/*/instructions" && $0.severity == .info })
        let items = try XCTUnwrap(report.models.first { $0.model == "[VMSearchItem]" })
        XCTAssertTrue(items.findings.contains { $0.kind == .ignoredKey && $0.path == "/*/partner_code" })
        XCTAssertTrue(items.findings.contains { $0.kind == .neverObserved && $0.path.hasPrefix("/*/entry_points") }, "\(items.findings)")
        XCTAssertEqual(items.errors.count, 0)
    }

    func testVerifyAcceptsTheReferenceModelsAndStrictAppModels() async throws {
        let suite = try ContractSimulator.get().suite()
        try await suite.verify(VMRouteResponse.self, for: .route)
        try await suite.verify([VMSearchItem].self, for: .autocomplete)
        // An app that trusts the contract's guarantees: lat/lng are never null.
        struct AppPlace: Decodable { let lat: Double; let lng: Double; let display: String; let ward_id: Int }
        let report = try await suite.verify(AppPlace.self, for: .place)
        XCTAssertTrue(report.results.contains { $0.endpoint == .place && $0.model?.hasSuffix(".AppPlace") == true && $0.modelDecodes == true })
        XCTAssertEqual(report.models.first { $0.model.hasSuffix(".AppPlace") }?.errors.count, 0)
    }

    func testVerifyReportsAnAppModelThatDisagrees() async throws {
        let suite = try ContractSimulator.get().suite()
        struct AppItem: Decodable {
            let ref_id: String
            let rank: Int              // no answer carries it
            let partner_code: String   // the contract allows null and absence
        }
        do {
            try await suite.verify([AppItem].self, for: .autocomplete)
            XCTFail("verify should throw")
        } catch let violation as ContractViolation {
            let failures = violation.report.allFailures
            XCTAssertTrue(failures.contains { $0.kind == .model && $0.pointer == "/0/rank" && $0.reason.contains("AppItem.rank: Int is required") },
                          violation.description)
            XCTAssertTrue(failures.contains { $0.query.hasPrefix("model:[ContractTests.") && $0.query.hasSuffix(".AppItem]") && $0.pointer == "/*/partner_code" && $0.reason.contains("absent") },
                          violation.description)
            XCTAssertTrue(failures.contains { $0.query.hasPrefix("model:[ContractTests.") && $0.query.hasSuffix(".AppItem]") && $0.pointer == "/*/partner_code" && $0.reason.contains("null") },
                          violation.description)
            let agreement = try XCTUnwrap(violation.report.models.first { $0.model.hasSuffix(".AppItem]") && !$0.isReference })
            let dead = try XCTUnwrap(agreement.findings.first { $0.kind == .deadField })
            XCTAssertEqual(dead.path, "/*/rank")
            XCTAssertTrue(dead.message.contains("no response of this run carried it"), dead.message)
        }
    }

    func testLiveTargetIsNeverCalledWithoutBeingAsked() throws {
        // Constructing a live suite does no I/O; the tests never run it (no network here).
        let suite = try ContractSuite(target: .live(apiKey: "k"), contracts: ContractSimulator.get().contracts)
        XCTAssertEqual(suite.target.description, "https://maps.vietmap.vn (live)")
        let provider = ContractHTTPProvider(baseURL: ContractHTTPProvider.liveBaseURL, apiKey: "k e+y")
        let url = provider.url(for: VMRequest(.route, [VMParameter("point", "10.1,106.2"), VMParameter("text", "Bến Thành & co")]))
        XCTAssertEqual(url?.absoluteString,
                       "https://maps.vietmap.vn/api/route/v4?apikey=k%20e%2By&point=10.1,106.2&text=B%E1%BA%BFn%20Th%C3%A0nh%20%26%20co")
        // A request that carries its own (here: empty) key is sent with exactly that key.
        let keyless = provider.url(for: VMRequest(.place, [VMParameter("apikey", ""), VMParameter("refid", "x")]))
        XCTAssertEqual(keyless?.absoluteString, "https://maps.vietmap.vn/api/place/v4?apikey=&refid=x")
    }
}
