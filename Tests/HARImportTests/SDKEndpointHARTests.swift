import Foundation
import HTTPServer
import Scenarios
import SimTesting
import XCTest

/// A HAR of an app on VietMap's SDKs (reverse, forward geocoding, the legacy route URL, a matrix,
/// a TSP) becomes a scenario that answers each exchange again byte for byte — the endpoint list the
/// HAR import recognises is the wire protocol's own.
final class SDKEndpointHARTests: XCTestCase {
    func testTheSDKEndpointsOfAHARAreReplayed() throws {
        let simulator = try startServer()
        let targets = [
            "/api/reverse/v4?apikey=k&lat=10.7798&lng=106.6989&display_type=6",
            "/api/search/v4?apikey=k&text=nha%20tho%20duc%20ba",
            "/api/route?api-version=1.1&apikey=k&vehicle=car&optimize=false&point=10.7725,106.6980&point=10.7769,106.7008",
            "/api/matrix?apikey=k&api-version=1.1&sources=0;1&destinations=1;2&point=10.7725,106.698&point=10.7798,106.699&point=10.7769,106.7008",
            "/api/tsp?api-version=1.1&apikey=k&round_trip=true&point=10.7725,106.698&point=10.7798,106.699&point=10.7769,106.7008",
            "/api/migrate-address/v3?apikey=k&text=Ph%C6%B0%E1%BB%9Dng%204%2C%20Qu%E1%BA%ADn%205&migrate_type=1",
        ]
        let answers = try targets.map { try get(simulator, $0) }
        XCTAssertEqual(answers.map(\.status), Array(repeating: 200, count: targets.count))

        var har = HARWriter()
        for (target, answer) in zip(targets, answers) {
            har.add(url: "https://maps.vietmap.vn" + target.replacingOccurrences(of: "apikey=k", with: "apikey=SECRET"), status: 200, body: answer.body)
        }
        let directory = try temporaryDirectory()
        try har.write(to: directory.appendingPathComponent("sdk.har"))
        let made = try runCLI(["scenarios", "from-har", "sdk.har", "--out", "sdk.json", "--name", "sdk"], in: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stderr.contains("6 of 6 entries"), made.stderr)

        let library = ScenarioLibrary.load(files: [directory.appendingPathComponent("sdk.json")])
        XCTAssertEqual(library.issues.map(\.description), [])
        let replay = try startServer(engine: ScenarioEngine(library: library, configuration: .init(defaultScenario: "sdk")))
        for (target, answer) in zip(targets, answers) {
            let again = try get(replay, target)
            XCTAssertEqual(again.status, 200, target)
            XCTAssertEqual(again.body, answer.body, target)
        }
    }
}

