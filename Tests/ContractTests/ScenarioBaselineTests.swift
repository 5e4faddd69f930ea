import ContractKit
import Foundation
import VietMapWire
import XCTest

/// An app stricter than the reference client: `lat` required. Its findings name its own types.
private enum StrictApp {
    struct Place: Codable { let name: String?; let lat: Double; let lng: Double? }
    struct Item: Codable {
        let refId: String
        let name: String?
        enum CodingKeys: String, CodingKey { case refId = "ref_id", name }
    }
    struct Route: Codable { let paths: [Path]? }
    struct Path: Codable { let distance: Double; let points: String }

    static let contract = AppContract(autocomplete: .model([Item].self), place: .model(Place.self), route: .model(Route.self),
                                      acceptedGaps: [AcceptedGap(path: "/paths/*/points", property: "Path.points")])
}

/// A place model whose own `init(from:)` traps on a null `lat` (found by type in a contract worker).
struct TrappingPlace: Decodable {
    let lat: Double
    enum Key: String, CodingKey { case lat }
    init(from decoder: any Decoder) throws {
        let raw = try decoder.container(keyedBy: Key.self).decodeIfPresent(Double.self, forKey: .lat)
        lat = raw!
    }
}

/// Expected scenario outcomes as data: a first run writes them, later runs fail exactly where an
/// outcome differs, naming scenario, query, property, pointer.
final class ScenarioBaselineTests: XCTestCase {
    static let queries: Set<String> = ["place-from-autocomplete", "ac-no-focus", "route-car"]
    static let scenarios = ["place-null-latlng", "flaky-503", "autocomplete-no-ref-id", "malformed-polyline"]

    func reports(_ app: AppContract = StrictApp.contract) async throws -> [ScenarioReport] {
        try await ContractSimulator.get().suite().runScenarios(Self.scenarios, only: Self.queries, app: app)
    }

    func temporaryFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.appendingPathComponent("nested/scenario-baseline.json")
    }

    func testTheFirstRunWritesTheFileAndTheNextHoldsToIt() async throws {
        let reports = try await reports()
        let file = try temporaryFile()
        let baseline = ScenarioBaseline(file: file)
        let first = baseline.compare(reports, seed: 1, environment: [:])
        XCTAssertEqual(first.failures, [])
        XCTAssertTrue(first.notes.first?.hasPrefix("baseline written (4 scenarios)") == true, "\(first.notes)")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(#""place-null-latlng": {"outcome":"breaks-models","properties":["Place.lat"]}"#), text)
        XCTAssertTrue(text.contains(#""autocomplete-no-ref-id": {"outcome":"breaks-models","properties":["Item.refId"]}"#), text)
        XCTAssertTrue(text.contains(#""flaky-503": {"outcome":"survives"}"#), text)
        // No temporary file left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path), ["scenario-baseline.json"])

        let again = baseline.compare(try await self.reports(), seed: 1, environment: [:])
        XCTAssertEqual(again.failures, [])
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), text, "a passing run leaves the file alone")
    }

    func testOnCIAMissingBaselineIsAFailureNotAFile() async throws {
        let file = try temporaryFile()
        let verdict = ScenarioBaseline(file: file).compare(try await reports(), seed: 1, environment: ["CI": "true"])
        XCTAssertEqual(verdict.failures.map(\.kind), [.baseline])
        XCTAssertTrue(verdict.failures[0].reason.contains("on CI it is never written"), verdict.failures[0].reason)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    func testAnOutcomeThatDiffersIsOnePreciseLine() async throws {
        let reports = try await reports()
        // The app used to survive place-null-latlng (lat was optional): now it breaks.
        let expected = ScenarioBaseline(["autocomplete-no-ref-id": .breaksModels("Item.refId"), "malformed-polyline": .survives])
        let failures = expected.compare(reports, seed: 1, environment: [:]).failures
        XCTAssertEqual(failures.map(\.query), ["scenario place-null-latlng"], "\(failures)")
        let line = failures[0].description
        XCTAssertTrue(line.hasPrefix("scenario place-null-latlng: [baseline] expected survives, now MODELS BREAK (Place.lat) — place-from-autocomplete /lat: Place.lat: Double is not optional; the response has null"), line)
        XCTAssertEqual(failures[0].property, "Place.lat")
        // malformed-polyline only touches route points, which this app's model reads as a plain string: survives.
    }

    func testPropertiesAndDirectionsAreHeldToo() async throws {
        let reports = try await reports()
        let expected = ScenarioBaseline(["place-null-latlng": .breaksModels("Place.lng"), "autocomplete-no-ref-id": .breaksModels("Item.refId"),
                                         "flaky-503": .breaksModels(), "gone-scenario": .survives])
        let lines = expected.compare(reports, seed: 1, environment: [:]).failures.map(\.description)
        XCTAssertEqual(lines.count, 4, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("scenario gone-scenario: [baseline] the baseline expects 'gone-scenario', which the target does not offer") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("scenario place-null-latlng: [baseline] now also breaks Place.lat (the baseline expects Place.lng) — place-from-autocomplete /lat:") }, "\(lines)")
        XCTAssertTrue(lines.contains("scenario place-null-latlng: [baseline] no longer breaks Place.lng (fixed? update the baseline)"), "\(lines)")
        XCTAssertTrue(lines.contains("scenario flaky-503: [baseline] expected MODELS BREAK, now survives (fixed? update the baseline)"), "\(lines)")
    }

    func testAMalformedBaselineFileIsOneLine() async throws {
        let file = try temporaryFile()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"scenarios": {"flaky-503": {"outcome": "survive"}}}"#.utf8).write(to: file)
        let failures = ScenarioBaseline(file: file).compare(try await reports(), seed: 1, environment: [:]).failures
        XCTAssertEqual(failures.map(\.description), ["baseline: [baseline] \(file.path): scenario 'flaky-503': \"outcome\" must be one of survives, breaks-models, crashes"])
    }

    /// A gap that matches nothing is a failure naming the nearest real property; a gap that does
    /// match is named on every row that holds only through it.
    func testGapsAreHeldToAccount() async throws {
        var app = StrictApp.contract
        app.models = [.route: app.models[.route]!]
        app.acceptedGaps = [AcceptedGap(path: "/paths/*/points", property: "Path.pionts")]
        do {
            try await ContractSimulator.get().suite().verify(app)
            XCTFail("a misspelt gap must fail")
        } catch let violation as ContractViolation {
            let gapLines = violation.report.gapFailures.map(\.description)
            XCTAssertEqual(gapLines.count, 1, "\(gapLines)")
            XCTAssertTrue(gapLines[0].hasPrefix("gap Path.pionts at /paths/*/points: [unused-gap] accepted gap matched nothing in this run (the contract run): the app's models have no property Path.pionts (nearest: Path.points"), gapLines[0])
            // The finding the gap was meant for is reported as itself.
            XCTAssertTrue(violation.report.allFailures.contains { $0.query == "route-unencoded" && $0.property == "Path.points" })
            XCTAssertTrue(violation.description.hasPrefix("FAIL route-unencoded /paths/0/points: [model] Path.points: String"), violation.description)
        }

        var scoped = StrictApp.contract
        scoped.acceptedGaps = [AcceptedGap(path: "/*/ref_id", property: "Item.refId", reason: "ids are optional in the list UI",
                                           scenarios: ["autocomplete-no-ref-id"])]
        let reports = try await ContractSimulator.get().suite().runScenarios(["autocomplete-no-ref-id"], only: ["ac-no-focus"], app: scoped)
        let report = try XCTUnwrap(reports.first)
        XCTAssertEqual(report.outcome, .survives)
        XCTAssertEqual(report.gapsUsed, ["Item.refId at /*/ref_id"])
        let table = ContractReport.scenarioTable(reports)
        XCTAssertTrue(table.contains("autocomplete-no-ref-id survives (gap)"), table)
        XCTAssertTrue(table.contains("through gap: Item.refId at /*/ref_id"), table)
        // The scenario-scoped gap does not apply to the contract run, and is not held to account there.
        let contractRun = try await ContractSimulator.get().suite().run(only: ["ac-no-focus"], app: scoped)
        XCTAssertEqual(ContractSuite.unusedGaps(scoped.acceptedGaps, report: contractRun, scenariosRun: false), [])
    }

    /// A model whose own `init(from:)` traps: the crash line names where the app's code was reading
    /// (the last key its decoding asked for) and shows the value there, not the body's first bytes.
    func testAModelCrashNamesTheLocationItWasReading() async throws {
        let app = AppContract(place: .model(TrappingPlace.self))
        let reports = try await ContractSimulator.get().suite().runScenarios(["place-null-latlng"], only: ["place-from-autocomplete"], app: app)
        let crash = try XCTUnwrap(reports.first?.crashes.first)
        XCTAssertEqual(crash.pointer, "/lat")
        XCTAssertEqual(crash.function, "JSONDecoder().decode(TrappingPlace.self)")
        XCTAssertTrue(crash.reason.contains("crashed (SIG"), crash.reason)
        XCTAssertTrue(crash.reason.hasSuffix("— input: the \(crash.reason.split(separator: "—").last!.split(separator: " ")[2]) body, last read at /lat (at /lat: null)"), crash.reason)
    }

    /// One line per finding kind and query: an app that requires a key every item lacks gives one
    /// line for the query, with the count and the first pointers.
    func testFindingsAreGroupedPerQueryAndKind() async throws {
        struct Strict: Codable { let partnerName: String; enum CodingKeys: String, CodingKey { case partnerName = "partner_name" } }
        let report = try await ContractSimulator.get().suite().run(only: ["ac-no-focus"], app: AppContract(autocomplete: .model([Strict].self)))
        let lines = report.failureLines()
        XCTAssertEqual(lines.filter { $0.hasPrefix("FAIL ac-no-focus") }.count, 1, lines.joined(separator: "\n"))
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("FAIL ac-no-focus") })
        XCTAssertTrue(line.hasPrefix("FAIL ac-no-focus /0/partner_name: [model] Strict.partnerName: String is required; the response has no \"partner_name\""), line)
        XCTAssertTrue(line.contains("more [model] in ac-no-focus: /1/partner_name, /2/partner_name, /3/partner_name, …)"), line)
    }
}
