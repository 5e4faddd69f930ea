import Foundation
import JSON
import JSONSchema
import TestExpectations
import Testing

/// Runs the official JSON-Schema-Test-Suite draft 2020-12 files copied into Fixtures/draft2020-12
/// (see Fixtures/SOURCE.md and Fixtures/LICENSE). Cases needing a remote document (the meta-schema or
/// http://localhost:1234/ remotes, not shipped) or an unsupported keyword are skipped by detection and listed.
@Suite final class ConformanceTests {
    /// Per file: tests expected to pass, tests skipped. Every non-skipped test must pass.
    static let expected: [String: (passed: Int, skipped: Int)] = [
        "additionalProperties": (21, 0), "allOf": (30, 0), "anyOf": (18, 0), "boolean_schema": (18, 0),
        "const": (54, 0), "default": (7, 0), "defs": (0, 2), "enum": (51, 0), "exclusiveMaximum": (4, 0),
        "exclusiveMinimum": (4, 0), "if-then-else": (30, 0), "items": (29, 0), "maxItems": (6, 0),
        "maxLength": (7, 0), "maxProperties": (10, 0), "maximum": (8, 0), "minItems": (6, 0),
        "minLength": (7, 0), "minProperties": (10, 0), "minimum": (11, 0), "not": (38, 2), "oneOf": (27, 0),
        "pattern": (12, 0), "patternProperties": (25, 0), "prefixItems": (11, 0), "properties": (28, 0),
        "ref": (76, 3), "required": (18, 0), "type": (80, 0), "uniqueItems": (69, 0),
    ]

    /// Keywords this validator does not implement; a case using any of them is skipped.
    static let unsupported: Set<String> = [
        "$dynamicRef", "$dynamicAnchor", "unevaluatedProperties", "unevaluatedItems", "$recursiveRef",
        "contains", "minContains", "maxContains", "dependentRequired",
    ]

    @Test func testSuite() throws {
        let folder = try unwrap(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            .appendingPathComponent("draft2020-12")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        expectEqual(files.count, Self.expected.count)
        var totalPassed = 0, totalSkipped = 0, totalFailed = 0
        var skipLines: [String] = []
        var perFile: [String] = []
        for file in files {
            let name = String(file.dropLast(5))
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            guard case .array(let cases) = try JSONParser.parse(data) else { fail("\(file): not an array"); continue }
            var passed = 0, skipped = 0, failed = 0
            for testCase in cases {
                let description = testCase["description"]?.stringValue ?? "?"
                let schema = try unwrap(testCase["schema"], "\(file): \(description)")
                let tests = testCase["tests"]?.arrayValue ?? []
                if let keyword = Self.firstUnsupportedKeyword(in: schema) {
                    skipped += tests.count
                    skipLines.append("\(name): \"\(description)\" (\(tests.count) tests): uses \(keyword)")
                    continue
                }
                let validator: SchemaValidator
                do {
                    validator = try SchemaValidator(schema: schema)
                } catch let error where error.kind == .unresolvableReference && Self.isRemote(error.reference) {
                    skipped += tests.count
                    skipLines.append("\(name): \"\(description)\" (\(tests.count) tests): needs remote \(error.reference ?? "")")
                    continue
                } catch {
                    failed += tests.count
                    fail("[\(name)] \(description): schema rejected: \(error)")
                    continue
                }
                for test in tests {
                    let instance = try unwrap(test["data"])
                    let expectValid = try unwrap(test["valid"]?.boolValue)
                    let errors = validator.validate(instance)
                    let fast = validator.isValid(instance)
                    if errors.isEmpty == expectValid && fast == expectValid {
                        passed += 1
                    } else {
                        failed += 1
                        fail("[\(name)] \(description) / \(test["description"]?.stringValue ?? "?"): expected "
                                + "\(expectValid ? "valid" : "invalid"), isValid=\(fast), errors=\(errors)")
                    }
                    if !expectValid && !errors.isEmpty {
                        expectTrue(errors.allSatisfy { !$0.message.isEmpty && !$0.keyword.isEmpty }, "\(name): \(description)")
                    }
                }
            }
            if let want = Self.expected[name] {
                expectEqual(passed, want.passed, "\(file): passed")
                expectEqual(skipped, want.skipped, "\(file): skipped")
            } else {
                fail("\(file): no expected count")
            }
            perFile.append("\(name) \(passed)/\(passed + skipped + failed)\(skipped > 0 ? " (\(skipped) skipped)" : "")")
            totalPassed += passed; totalSkipped += skipped; totalFailed += failed
        }
        print("[json-schema-suite] " + perFile.joined(separator: ", "))
        for line in skipLines { print("[json-schema-suite] skipped \(line)") }
        print("[json-schema-suite] total: \(totalPassed) passed, \(totalSkipped) skipped, \(totalFailed) failed, \(files.count) files")
        expectEqual(totalFailed, 0)
    }

    static func firstUnsupportedKeyword(in value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if unsupported.contains(key) { return key }
                if let found = firstUnsupportedKeyword(in: member) { return found }
            }
            return nil
        case .array(let items):
            for item in items { if let found = firstUnsupportedKeyword(in: item) { return found } }
            return nil
        default:
            return nil
        }
    }

    /// Documents the suite expects a runner to fetch: the official meta-schemas and the localhost:1234 remotes.
    static func isRemote(_ uri: String?) -> Bool {
        guard let uri else { return false }
        return uri.hasPrefix("https://json-schema.org/") || uri.hasPrefix("http://localhost:1234/")
    }
}
