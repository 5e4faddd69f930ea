import Foundation
import Scenarios
import XCTest

/// A scenario's `regex` condition is compiled when the scenario is loaded: a refused pattern is a
/// validation issue at its pointer.
final class RegexValidationTests: XCTestCase {
    func testValidateExplainsARefusedPattern() {
        let document = #"{"name": "t", "description": "d", "rules": [{"match": {"params": {"text": {"regex": "(a)\\1"}}}}]}"#
        XCTAssertThrowsError(try Scenario(json: Data(document.utf8))) { error in
            let issue = (error as? ScenarioValidationError)?.issues.first
            XCTAssertEqual(issue?.pointer, "/rules/0/match/params/text/regex")
            XCTAssertTrue(issue?.reason.contains("backreferences") ?? false, "\(String(describing: issue))")
        }
    }
}
