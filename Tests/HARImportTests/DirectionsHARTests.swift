import Foundation
import HTTPServer
import Scenarios
import SimTesting
import XCTest

/// A navigation SDK's Directions v5 calls in a HAR are replayed too (issue #37): the endpoint comes
/// from the wire home, not a path suffix, and the route in the path (`profile`, `coordinates`)
/// tells the captured calls apart.
final class DirectionsHARTests: XCTestCase {
    func testDirectionsCallsOfAHARAreReplayedPerRoute() throws {
        let simulator = try startServer()
        let query = "?apikey=k&steps=true&geometries=polyline6&overview=full"
        let targets = [
            "/api/navigations/route/directions/v5/mapbox/driving-traffic/106.6980,10.7725;106.6990,10.7798.json" + query,
            "/api/navigations/route/directions/v5/mapbox/driving-traffic/106.7008,10.7769;106.6980,10.7725.json" + query,
        ]
        let answers = try targets.map { try get(simulator, $0) }
        XCTAssertEqual(answers.map(\.status), [200, 200])
        XCTAssertNotEqual(answers[0].body, answers[1].body)

        var har = HARWriter()
        for (target, answer) in zip(targets, answers) {
            // As a device's HAR holds it: the `;` percent-encoded.
            let url = "https://maps.vietmap.vn" + target.replacingOccurrences(of: ";", with: "%3B")
            har.add(url: url.replacingOccurrences(of: "apikey=k", with: "apikey=SECRET"), status: 200, body: answer.body)
        }
        let directory = try temporaryDirectory()
        try har.write(to: directory.appendingPathComponent("nav.har"))
        let made = try runCLI(["scenarios", "from-har", "nav.har", "--out", "nav.json", "--name", "nav", "--unmatched", "not-found"], in: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stderr.contains("2 of 2 entries"), made.stderr)

        let library = ScenarioLibrary.load(files: [directory.appendingPathComponent("nav.json")])
        XCTAssertEqual(library.issues.map(\.description), [])
        let replay = try startServer(engine: ScenarioEngine(library: library, configuration: .init(defaultScenario: "nav")))
        for (target, answer) in zip(targets, answers) {
            let again = try get(replay, target)
            XCTAssertEqual(again.status, 200, target)
            XCTAssertEqual(again.body, answer.body, target)
        }
        // Another route was not captured: not found, not one of the captured answers.
        let other = try get(replay, "/api/navigations/route/directions/v5/mapbox/driving-traffic/106.6990,10.7798;106.7008,10.7769.json" + query)
        XCTAssertEqual(other.status, 404)
    }
}
