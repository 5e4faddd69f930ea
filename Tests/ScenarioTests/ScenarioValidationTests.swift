import Foundation
import JSON
import JSONSchema
import Scenarios
import XCTest

/// Structural validation of scenario files: every problem with file, JSON pointer and reason.
final class ScenarioValidationTests: XCTestCase {
    private func issues(_ document: String, file: String = "test.json") -> [ScenarioIssue] {
        do {
            _ = try Scenario(json: Data(document.utf8), file: file)
            return []
        } catch {
            return error.issues
        }
    }

    private func assertIssue(_ document: String, at pointer: String, containing text: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let found = issues(document)
        XCTAssertTrue(found.contains { $0.pointer == pointer && $0.reason.contains(text) && $0.file == "test.json" },
                      "expected \(pointer): …\(text)… in \(found.map(\.description))", file: file, line: line)
    }

    private func rules(_ rules: String) -> String {
        #"{"name": "t", "description": "d", "rules": [\#(rules)]}"#
    }

    func testBuiltInScenariosAreValid() {
        let library = TestSimulator.builtIns
        XCTAssertEqual(library.issues, [], library.issues.map(\.description).joined(separator: "\n"))
        let expected = ["autocomplete-500", "autocomplete-no-ref-id", "autocomplete-null-names", "bad-key-401", "burst-400", "connection-reset",
                        "empty-reply", "empty-route", "fail-twice-then-succeed", "flaky-503", "lognormal-latency",
                        "malformed-json", "malformed-polyline", "map-glyphs-fail", "map-style-401", "map-tiles-404", "map-tiles-429",
                        "map-tiles-slow", "nav-geometry-steps-disagree", "nav-no-route", "nav-reroute-fails",
                        "nav-slow-past-timeout", "nav-truncated-json", "place-null-latlng", "polyline-1e6", "quota-429", "route-500", "route-empty-points",
                        "route-points-bare-latlng", "slow-autocomplete", "succeed-then-quota-exhausted", "swapped-polyline",
                        "truncated-json", "truncated-polyline", "zero-results"]
        XCTAssertEqual(library.scenarios.map(\.name), expected)
        for scenario in library.scenarios {
            XCTAssertEqual(scenario.file.map { URL(fileURLWithPath: $0).lastPathComponent }, scenario.name + ".json",
                           "file named after the scenario")
        }
    }

    func testDocumentLevelProblems() {
        XCTAssertEqual(issues("{\"name\": \"x\",\n  \"rules\": [,]}").first?.reason, "invalid JSON at line 2, column 13: unexpected character ','")
        assertIssue("[]", at: "", containing: "must be an object")
        assertIssue(#"{"description": "d", "rules": [{}]}"#, at: "", containing: "missing required key 'name'")
        assertIssue(#"{"name": "t", "rules": [{}]}"#, at: "", containing: "missing required key 'description'")
        assertIssue(#"{"name": "t", "description": "d"}"#, at: "", containing: "missing required key 'rules'")
        assertIssue(#"{"name": "t", "description": "d", "rules": []}"#, at: "/rules", containing: "must not be empty")
        assertIssue(#"{"name": "a b", "description": "d", "rules": [{}]}"#, at: "/name", containing: "letters, digits")
        assertIssue(#"{"name": "t", "description": "d", "seed": -1, "rules": [{}]}"#, at: "/seed", containing: "integer from 0")
        assertIssue(#"{"name": "t", "description": "d", "rules": [{}], "extra": 1}"#, at: "/extra", containing: "unknown key 'extra'")
    }

    func testRuleProblemsArePointedAt() {
        assertIssue(rules(#"{"repsond": {"status": 500}}"#), at: "/rules/0/repsond", containing: "unknown key")
        assertIssue(rules(#"{"match": {"endpoint": "routes"}}"#), at: "/rules/0/match/endpoint", containing: "unknown endpoint 'routes'")
        assertIssue(rules(#"{"match": {"params": {"text": {"regex": "("}}}}"#), at: "/rules/0/match/params/text/regex",
                    containing: "invalid regular expression")
        assertIssue(rules(#"{"match": {"params": {"a/b": {"present": false, "equals": "x"}}}}"#), at: "/rules/0/match/params/a~1b",
                    containing: "absent parameter")
        assertIssue(rules(#"{"when": {"nth": 0}}"#), at: "/rules/0/when/nth", containing: "integer ≥ 1")
        assertIssue(rules(#"{"when": {"from": 5, "to": 2}}"#), at: "/rules/0/when/to", containing: "≥ 'from'")
        assertIssue(rules(#"{"when": {"probability": 1.5}}"#), at: "/rules/0/when/probability", containing: "from 0 to 1")
        assertIssue(rules(#"{"when": {"burst": {"count": 3}}}"#), at: "/rules/0/when/burst", containing: "'withinMs'")
        assertIssue(rules(#"{"state": "Later"}"#), at: "/rules/0/state", containing: "never entered")
        assertIssue(rules(#"{"pass": true, "delay": 5}"#), at: "/rules/0/delay", containing: "cannot be combined")
        assertIssue(rules(#"{"sequence": {"steps": [{"tims": 2}]}}"#), at: "/rules/0/sequence/steps/0/tims", containing: "unknown key")
        assertIssue(rules(#"{"sequence": {"steps": [{}], "afterLast": "loop"}}"#), at: "/rules/0/sequence/afterLast",
                    containing: "repeat, stick or pass")
        assertIssue(rules(#"{"sequence": {"steps": [{}]}, "fault": "reset"}"#), at: "/rules/0/fault", containing: "'sequence'")
    }

    func testActionProblemsArePointedAt() {
        assertIssue(rules(#"{"respond": {}}"#), at: "/rules/0/respond", containing: "at least one of")
        assertIssue(rules(#"{"respond": {"json": 1, "text": "x"}}"#), at: "/rules/0/respond", containing: "only one of")
        assertIssue(rules(#"{"respond": {"error": "NOPE"}}"#), at: "/rules/0/respond/error", containing: "unknown error code")
        assertIssue(rules(#"{"respond": {"status": 101}}"#), at: "/rules/0/respond/status", containing: "200 to 599")
        assertIssue(rules(#"{"respond": {"headers": {"X": 1}}}"#), at: "/rules/0/respond/headers/X", containing: "string")
        assertIssue(rules(#"{"patch": [{"op": "frob", "path": "/a"}]}"#), at: "/rules/0/patch/0/op", containing: "unknown operation")
        assertIssue(rules(#"{"patch": [{"op": "remove", "path": "a"}]}"#), at: "/rules/0/patch/0/path", containing: "invalid JSON pointer")
        assertIssue(rules(#"{"patch": [{"op": "add", "path": "/a"}]}"#), at: "/rules/0/patch/0", containing: "needs a 'value'")
        assertIssue(rules(#"{"patch": [{"op": "move", "from": "/a", "path": "/*/b"}]}"#), at: "/rules/0/patch/0/path",
                    containing: "'from' has only 0")
        assertIssue(rules(#"{"delay": {"lognormal": {"median": 100, "p99": 50}}}"#), at: "/rules/0/delay/lognormal/p99",
                    containing: "greater than 'median'")
        assertIssue(rules(#"{"delay": {"fixed": 1, "uniform": {"min": 1, "max": 2}}}"#), at: "/rules/0/delay", containing: "exactly one")
        assertIssue(rules(#"{"fault": "boom"}"#), at: "/rules/0/fault", containing: "unknown fault 'boom'")
        assertIssue(rules(#"{"fault": ["reset", "malformed-json"]}"#), at: "/rules/0/fault", containing: "cannot be combined")
        assertIssue(rules(#"{"fault": {"truncate": {"fraction": 1}}}"#), at: "/rules/0/fault/truncate/fraction", containing: "below 1")
        assertIssue(rules(#"{"fault": {"truncate": {"bytes": 1}}, "dribble": {"chunks": 2, "overMs": 10}}"#), at: "/rules/0/dribble",
                    containing: "cannot be combined")
        assertIssue(rules(#"{"quota": {"limit": 3}}"#), at: "/rules/0/quota", containing: "'windowSeconds'")
    }

    func testEveryProblemIsReportedNotJustTheFirst() {
        let found = issues(rules(#"{"when": {"nth": 0}, "delay": -1}, {"fault": "boom"}"#))
        XCTAssertEqual(Set(found.map(\.pointer)), ["/rules/0/when/nth", "/rules/0/delay", "/rules/1/fault"])
    }

    func testLibraryReportsDuplicatesAndUnreadableFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-validation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(rules("{}").utf8).write(to: directory.appendingPathComponent("a.json"))
        try Data(rules("{}").utf8).write(to: directory.appendingPathComponent("b.json"))
        try Data("{}".utf8).write(to: directory.appendingPathComponent("ignored.schema.json"))
        let library = ScenarioLibrary.load(directory: directory)
        XCTAssertEqual(library.scenarios.count, 1)
        XCTAssertEqual(library.issues.count, 1)
        XCTAssertEqual(library.issues.first?.pointer, "/name")
        XCTAssertTrue(library.issues.first?.file?.hasSuffix("b.json") ?? false)
        XCTAssertTrue(library.issues.first?.reason.contains("duplicate scenario name 't'") ?? false)
    }

    func testTransformProblems() {
        assertIssue(rules(#"{"transform": {"polyline": "rot13"}}"#), at: "/rules/0/transform/polyline",
                    containing: "unknown polyline transform 'rot13'; expected one of swap-latlng, precision-1e6, truncate")
        assertIssue(rules(#"{"transform": {}}"#), at: "/rules/0/transform", containing: "needs 'polyline'")
        assertIssue(rules(#"{"transform": {"polyline": "truncate", "at": "/x"}}"#), at: "/rules/0/transform/at", containing: "unknown key 'at'")
        assertIssue(rules(#"{"transform": "truncate"}"#), at: "/rules/0/transform", containing: "must be an object")
        assertIssue(rules(#"{"respond": {"text": "x"}, "transform": {"polyline": "truncate"}}"#), at: "/rules/0/transform",
                    containing: "cannot transform a text body")
        assertIssue(rules(#"{"pass": true, "transform": {"polyline": "truncate"}}"#), at: "/rules/0/transform",
                    containing: "cannot be combined with \"pass\": true")
        XCTAssertEqual(issues(rules(#"{"transform": {"polyline": "precision-1e6"}, "patch": [{"op": "remove", "path": "/paths/0/bbox"}]}"#)), [])
    }

    /// Every built-in file is valid under the JSON Schema editors use, and the schema knows `transform`.
    func testBuiltInFilesMatchTheSchema() throws {
        let schema = try JSONParser.parse(Data(contentsOf: TestSimulator.builtInDirectory.appendingPathComponent("scenario.schema.json")))
        let validator = try SchemaValidator(schema: schema)
        for scenario in TestSimulator.builtIns.scenarios {
            let document = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(scenario.file))))
            XCTAssertEqual(validator.validate(document).map { "\($0)" }, [], scenario.name)
        }
        let transform = { (kind: String) in
            try JSONParser.parse(Data(self.rules(#"{"transform": {"polyline": "\#(kind)"}}"#).utf8))
        }
        XCTAssertTrue(validator.isValid(try transform("swap-latlng")))
        XCTAssertFalse(validator.isValid(try transform("rot13")))
    }

    /// Every key the JSON Schema allows is a key the validator accepts, and vice versa.
    func testSchemaAndValidatorAgreeOnKeys() throws {
        let schema = try JSONParser.parse(Data(contentsOf: TestSimulator.builtInDirectory.appendingPathComponent("scenario.schema.json")))
        XCTAssertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
        func keys(_ path: [String]) -> [String] {
            var value: JSONValue? = schema
            for token in path { value = value?[token] }
            return value?.objectValue?.keys ?? []
        }
        let top = keys(["properties"])
        let rule = keys(["$defs", "rule", "properties"]) + keys(["$defs", "action", "properties"])
        let when = keys(["$defs", "when", "properties"])
        XCTAssertEqual(Set(top), ["$schema", "name", "description", "seed", "initialState", "rules"])
        XCTAssertEqual(rule.count, 14)
        XCTAssertEqual(when.count, 7)
        // The validator lists the keys it accepts in its "unknown key" message.
        func accepted(_ document: String) -> Set<String> {
            let reason = issues(document).first?.reason ?? ""
            return Set(reason.components(separatedBy: "expected one of: ").last?.components(separatedBy: ", ") ?? [])
        }
        XCTAssertEqual(accepted(#"{"zzz": 1, "name": "t", "description": "d", "rules": [{}]}"#), Set(top))
        XCTAssertEqual(accepted(rules(#"{"zzz": 1}"#)), Set(rule))
        XCTAssertEqual(accepted(rules(#"{"when": {"zzz": 1}}"#)), Set(when))
        XCTAssertEqual(accepted(rules(#"{"sequence": {"steps": [{"zzz": 1}]}}"#)),
                       Set(keys(["$defs", "step", "properties"]) + keys(["$defs", "action", "properties"])))
    }
}
