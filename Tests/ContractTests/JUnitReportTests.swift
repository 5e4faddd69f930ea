import ContractKit
import Foundation
import JSON
import VietMapClient
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The JUnit file is valid XML with the expected structure; the JSON report mirrors it.
final class JUnitReportTests: XCTestCase {
    /// A run with failures: the simulator plus one query that cannot hold (wrong expected status).
    private func reportWithFailures() async throws -> ContractReport {
        let sim = try ContractSimulator.get()
        var contracts = sim.contracts
        var corpus = contracts.corpus
        var impossible = try XCTUnwrap(corpus.query(named: "route-car"))
        impossible.name = "route-car-expects-<400>&\"quotes\""
        impossible.expect.status = 400
        impossible.expect.schema = "route-error"
        impossible.expect.model = nil
        corpus.queries.append(impossible)
        contracts = try contracts.replacingCorpus(corpus)
        var report = try await ContractSuite(target: .simulator(sim.baseURL), contracts: contracts).run()
        report.scenarios = try await ContractSuite(target: .simulator(sim.baseURL), contracts: contracts)
            .runScenarios(["autocomplete-no-ref-id"], only: ["ac-no-focus"])
        return report
    }

    func testJUnitXMLStructureAndCounts() async throws {
        let report = try await reportWithFailures()
        XCTAssertFalse(report.passed)
        let xml = report.junitXML()
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        let suites = root.elements(forName: "testsuite")
        let names = suites.compactMap { $0.attribute(forName: "name")?.stringValue }
        XCTAssertEqual(names, VMEndpoint.allCases.filter { $0.contractExclusion == nil }.map { "contract.\($0.name)" }
                       + ["contract.fixtures", "contract.model-agreement", "scenario.autocomplete-no-ref-id"])

        var tests = 0, failures = 0
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
            XCTAssertEqual(suite.attribute(forName: "tests")?.stringValue, String(cases.count))
            XCTAssertEqual(suite.attribute(forName: "failures")?.stringValue, String(failing.count))
            XCTAssertEqual(suite.attribute(forName: "errors")?.stringValue, "0")
            let informational = suite.elements(forName: "properties").first?.elements(forName: "property")
                .contains { $0.attribute(forName: "name")?.stringValue == "informational" } ?? false
            if informational {
                XCTAssertEqual(failing.count, 0, "scenario suites never carry <failure>")
                XCTAssertTrue(cases.contains { !$0.elements(forName: "system-out").isEmpty })
            }
            tests += cases.count
            failures += failing.count
        }
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, String(tests))
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, String(failures))
        XCTAssertEqual(failures, 1)
        XCTAssertEqual(tests, report.results.count + report.fixtures.count + report.models.count
                       + report.scenarios.reduce(0) { $0 + $1.results.count })

        // The failing case names the query and carries the failure's kind, path and reason.
        let route = try XCTUnwrap(suites.first { $0.attribute(forName: "name")?.stringValue == "contract.route" })
        let failing = try XCTUnwrap(route.elements(forName: "testcase").first { !$0.elements(forName: "failure").isEmpty })
        XCTAssertEqual(failing.attribute(forName: "name")?.stringValue, "route-car-expects-<400>&\"quotes\"")
        XCTAssertEqual(failing.attribute(forName: "classname")?.stringValue, "contract.route")
        let failure = try XCTUnwrap(failing.elements(forName: "failure").first)
        XCTAssertEqual(failure.attribute(forName: "type")?.stringValue, "status")
        XCTAssertEqual(failure.attribute(forName: "message")?.stringValue, "/: expected HTTP 400, got 200")
    }

    func testJSONReportAndSummary() async throws {
        let report = try await reportWithFailures()
        let json = try JSONParser.parse(JSONPrettyPrinter.string(report.json()))
        XCTAssertEqual(json["passed"], false)
        XCTAssertEqual(json["summary"]?["failed"], 1)
        XCTAssertEqual(json["queries"]?.arrayValue?.count, report.results.count)
        XCTAssertEqual(json["failures"]?[0]?["kind"], "status")
        XCTAssertEqual(json["scenarios"]?[0]?["modelsSurvive"], false)
        let summary = report.summary()
        XCTAssertTrue(summary.contains("FAIL route-car-expects-<400>&\"quotes\" /: [status] expected HTTP 400, got 200"), summary)
        XCTAssertTrue(summary.contains("Result: FAIL"))
    }
}
