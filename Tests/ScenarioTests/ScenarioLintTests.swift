import Foundation
import JSON
import Scenarios
import XCTest

/// Lower findings of reliability round 2: header control characters and limits, the UTF-8
/// byte-order mark, and the unused-initialState warning.
final class ScenarioLintTests: XCTestCase {
    private func issues(_ document: String) -> [ScenarioIssue] {
        issues(Data(document.utf8))
    }

    private func issues(_ data: Data) -> [ScenarioIssue] {
        do {
            _ = try Scenario(json: data, file: "t.json")
            return []
        } catch {
            return error.issues
        }
    }

    private func respond(headers: String) -> String {
        #"{"name": "h", "description": "d", "rules": [{"respond": {"status": 200, "headers": {\#(headers)}}}]}"#
    }

    func testHeaderValuesRefuseEveryControlCharacter() {
        for bad in ["a\\r\\nb", "a\\nb", "a\\rb", "a\\u0000b", "a\\u001bb", "a\\u007fb"] {
            let found = issues(respond(headers: #""X-Test": "\#(bad)""#))
            XCTAssertTrue(found.contains { $0.pointer == "/rules/0/respond/headers/X-Test" && $0.reason.contains("control characters") },
                          "\(bad): \(found)")
        }
        XCTAssertEqual(issues(respond(headers: #""X-Test": "a\tb é""#)), [])
        let fault = #"{"name": "h", "description": "d", "rules": [{"fault": {"contentType": "text/plain\r\nX: y"}}]}"#
        XCTAssertFalse(issues(fault).isEmpty)
    }

    func testHeaderCountAndSizeAreLimited() {
        let many = (0...ScenarioLimits.headerCount).map { #""X-H\#($0)": "v""# }.joined(separator: ",")
        XCTAssertTrue(issues(respond(headers: many)).contains { $0.reason.contains("at most 100") })
        let allowed = (0..<ScenarioLimits.headerCount).map { #""X-H\#($0)": "v""# }.joined(separator: ",")
        XCTAssertEqual(issues(respond(headers: allowed)), [])
        let big = String(repeating: "v", count: 9_000)
        XCTAssertTrue(issues(respond(headers: #""X-A": "\#(big)", "X-B": "\#(big)""#)).contains { $0.reason.contains("bytes of headers") })
    }

    func testAByteOrderMarkIsAccepted() throws {
        let document = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"name": "bom", "description": "d", "rules": [{"pass": true}]}"#.utf8)
        XCTAssertEqual(try Scenario(json: document).name, "bom")
        let broken = Data([0xEF, 0xBB, 0xBF]) + Data("{,}".utf8)
        XCTAssertEqual(issues(broken).first?.reason.contains("line 1, column 2"), true, "\(issues(broken))")
    }

    func testUnusedInitialStateIsAWarning() throws {
        let unused = try Scenario(json: Data(#"{"name": "s", "description": "d", "initialState": "Cold", "rules": [{"pass": true}]}"#.utf8))
        XCTAssertEqual(unused.warnings.map(\.pointer), ["/initialState"])
        XCTAssertTrue(unused.warnings[0].isWarning)
        XCTAssertTrue(unused.warnings[0].description.contains("warning: initialState 'Cold' has no effect"))
        let used = try Scenario(json: Data(#"""
            {"name": "s", "description": "d", "initialState": "Cold",
             "rules": [{"state": "Cold", "nextState": "Warm", "pass": true}]}
            """#.utf8))
        XCTAssertEqual(used.warnings, [])
    }

    func testOversizedFilesAreRefusedBeforeParsing() {
        let data = Data(count: ScenarioLimits.fileBytes + 1)
        XCTAssertTrue(issues(data).first?.reason.contains("at most") ?? false)
    }
}
