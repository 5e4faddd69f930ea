import JSON
import XCTest

/// A scenario chosen by API key must survive the Flutter plugin's route URL builder, which turns
/// every `:` of the printed parameter map into `=` (and `,` into `&`): `scenario:NAME` arrives as
/// `apikey=scenario=NAME`. A key made only of URL-safe characters (letters, digits, `.`, `-`, `_`)
/// comes through unchanged.
final class FlutterScenarioKeyTests: XCTestCase {
    /// LEAD: the spelling of a URL-safe scenario key is not decided yet (`scenario.NAME` or
    /// `sim-NAME`); change this one constant when it is.
    private let zeroResultsKey = "scenario.zero-results"

    func testTheColonFormIsMangledByFlutter() {
        let target = FlutterRequests.routing(points: [(10.7725, 106.698), (10.7798, 106.699)], apikey: "scenario:zero-results").target
        XCTAssertTrue(target.contains("&apikey=scenario=zero-results&"), target)
    }

    func testAURLSafeScenarioKeyWorksThroughFlutterRouting() throws {
        let request = FlutterRequests.routing(points: [(10.7725, 106.6980), (10.7798, 106.6990)], apikey: zeroResultsKey)
        XCTAssertTrue(request.target.contains("&apikey=\(zeroResultsKey)&"), "the builder changed the key: \(request.target)")
        let exchange = try SDKSimulator.get().send(request)
        XCTAssertEqual(exchange.status, 200, "\(exchange)")
        guard let json = exchange.json.value else { return XCTFail("not JSON: \(exchange)") }
        let empty = json["paths"]?.arrayValue?.isEmpty == true, code = json["code"]?.stringValue
        XCTAssertTrue(empty || code == "ZERO_RESULTS",
                      "the zero-results scenario was not selected by apikey=\(zeroResultsKey): \(exchange)")
        XCTAssertEqual(FlutterModelRules.route(json), [], "the scenario's answer must still parse in Flutter")
    }
}
