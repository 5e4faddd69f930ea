import Foundation
import JSON
import JSONSchema
import TestExpectations
import Testing

/// Error paths/messages, cross-document `$ref`s, JSON-number semantics, and a performance sanity check.
@Suite final class SchemaValidatorTests {
    private func parse(_ text: String, filePath: String = #filePath, line: Int = #line) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    /// A route-like contract: nested arrays of coordinate pairs.
    private let routeSchema = """
    {
      "type": "object",
      "required": ["code", "paths"],
      "properties": {
        "code": {"enum": ["OK", "INVALID_REQUEST"]},
        "paths": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["distance", "points"],
            "additionalProperties": false,
            "properties": {
              "distance": {"type": "number", "minimum": 0},
              "points": {"type": "array", "items": {"$ref": "#/$defs/lngLat"}}
            }
          }
        }
      },
      "$defs": {
        "lngLat": {"type": "array", "prefixItems": [{"type": "number", "minimum": -180, "maximum": 180},
                                                     {"type": "number", "minimum": -90, "maximum": 90}],
                   "items": false, "minItems": 2}
      }
    }
    """

    @Test func testNestedArrayErrorPaths() throws {
        let validator = try SchemaValidator(schema: try parse(routeSchema))
        let instance = try parse("""
        {"code": "OK", "paths": [
          {"distance": 12.5, "points": "abc"},
          {"distance": -1, "points": [[106.7, 10.8], [106.7, 95], [1], [1, 2, 3]], "extra": true},
          {"points": []}
        ]}
        """)
        let errors = validator.validate(instance)
        expectFalse(validator.isValid(instance))
        let described = errors.map { "\($0.instancePath) \($0.schemaPath) \($0.keyword): \($0.message)" }
        expectEqual(described, [
            "/paths/0/points /properties/paths/items/properties/points/type type: expected array, got string",
            "/paths/1/distance /properties/paths/items/properties/distance/minimum minimum: -1 is less than the minimum 0",
            "/paths/1/points/1/1 /properties/paths/items/properties/points/items/$ref/prefixItems/1/maximum maximum: 95 is greater than the maximum 90",
            "/paths/1/points/2 /properties/paths/items/properties/points/items/$ref/minItems minItems: array has 1 item, fewer than 2",
            "/paths/1/points/3/2 /properties/paths/items/properties/points/items/$ref/items items: array may have at most 2 items",
            "/paths/1/extra /properties/paths/items/additionalProperties additionalProperties: property \"extra\" is not allowed",
            "/paths/2 /properties/paths/items/required required: missing required property \"distance\"",
        ], described.joined(separator: "\n"))
        expectEqual(errors[0].description,
                       "/paths/0/points: expected array, got string [schema /properties/paths/items/properties/points/type]")
        expectEqual(validator.validate(try parse(#"{"code": "OK", "paths": [{"distance": 1, "points": [[1, 2.5]]}]}"#)), [])
    }

    @Test func testAnyOfReportsClosestAlternative() throws {
        let validator = try SchemaValidator(schema: try parse("""
        {"properties": {"result": {"anyOf": [
            {"type": "string"},
            {"type": "object", "required": ["lat", "lng"],
             "properties": {"lat": {"type": "number"}, "lng": {"type": "number"}}},
            {"type": "null"}
        ]}}}
        """))
        let errors = validator.validate(try parse(#"{"result": {"lat": "10.8", "lng": 106.7}}"#))
        expectEqual(errors.count, 1)
        let error = try unwrap(errors.first)
        expectEqual(error.instancePath, "/result")
        expectEqual(error.schemaPath, "/properties/result/anyOf")
        expectEqual(error.keyword, "anyOf")
        expectEqual(error.message,
                       "value does not match any alternative of anyOf (3); closest is anyOf/1: /result/lat: expected number, got string")

        let wrongType = validator.validate(try parse(#"{"result": 5}"#))
        expectEqual(wrongType.map(\.keyword), ["anyOf"])
        expectEqual(wrongType[0].message, "expected string, object or null (anyOf), got integer")
        expectEqual(validator.validate(try parse(#"{"result": null}"#)), [])
    }

    @Test func testOneOfMessages() throws {
        let validator = try SchemaValidator(schema: try parse("""
        {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 2}, {"type": "string", "maxLength": 2}]}
        """))
        expectEqual(validator.validate(1), [])
        let both = validator.validate(3)
        expectEqual(both.map(\.message), ["value matches 2 alternatives (oneOf/0, oneOf/1), expected exactly one"])
        let none = validator.validate("abc")
        expectEqual(none.map(\.keyword), ["oneOf"])
        expectTrue(none[0].message.hasSuffix("closest is oneOf/2: string is longer than 2 characters (length 3)"), none[0].message)
    }

    @Test func testIfThenElseAndNot() throws {
        let validator = try SchemaValidator(schema: try parse("""
        {"if": {"properties": {"kind": {"const": "point"}}}, "then": {"required": ["lat"]}, "else": {"not": {"required": ["lat"]}}}
        """))
        expectEqual(validator.validate(try parse(#"{"kind": "point"}"#)).map(\.schemaPath), ["/then/required"])
        expectEqual(validator.validate(try parse(#"{"kind": "area", "lat": 1}"#)).map(\.schemaPath), ["/else/not"])
        expectEqual(validator.validate(try parse(#"{"kind": "point", "lat": 1}"#)), [])
    }

    // MARK: Cross-document references

    @Test func testRegistryReferenceResolvedAgainstBaseURI() throws {
        let place = try parse("""
        {"$defs": {"place": {"type": "object", "required": ["ref_id"], "properties": {"ref_id": {"type": "string"}}}},
         "type": "array", "items": {"$ref": "#/$defs/place"}}
        """)
        let common = try parse(#"{"$id": "https://example.com/schemas/common.json", "$defs": {"code": {"enum": ["OK"]}}}"#)
        let registry = [
            "Contracts/schemas/autocomplete-response.schema.json": place,
            "Contracts/schemas/common.schema.json": common,
        ]
        let openAPIish = try parse("""
        {"type": "object", "properties": {
            "data": {"$ref": "schemas/autocomplete-response.schema.json"},
            "code": {"$ref": "https://example.com/schemas/common.json#/$defs/code"}}}
        """)
        let validator = try SchemaValidator(schema: openAPIish, registry: registry, baseURI: "Contracts/response.json")
        expectEqual(validator.validate(try parse(#"{"code": "OK", "data": [{"ref_id": "x"}]}"#)), [])
        let errors = validator.validate(try parse(#"{"code": "NO", "data": [{"ref_id": 1}]}"#))
        expectEqual(errors.map(\.schemaPath), ["/properties/code/$ref/enum", "/properties/data/$ref/items/$ref/properties/ref_id/type"])
        expectEqual(errors.map(\.instancePath), ["/code", "/data/0/ref_id"])

        // Entry point inside a registry document (e.g. an OpenAPI components schema).
        let openAPI = try parse("""
        {"openapi": "3.1.0", "components": {"schemas": {
            "Response": {"type": "object", "properties": {"data": {"$ref": "schemas/autocomplete-response.schema.json"},
                                                         "next": {"$ref": "#/components/schemas/Response"}}}}}}
        """)
        var withOpenAPI = registry
        withOpenAPI["Contracts/openapi.json"] = openAPI
        let response = try SchemaValidator(reference: "Contracts/openapi.json#/components/schemas/Response", registry: withOpenAPI)
        expectEqual(response.validate(try parse(#"{"data": [], "next": {"data": [{}]}}"#)).map(\.instancePath), ["/next/data/0"])

        // Relative registry keys resolve like paths, `..` included.
        let nested = ["schemas/v1/point.json": try parse(##"{"$ref": "../common/number.json#/$defs/lat"}"##),
                      "schemas/common/number.json": try parse(##"{"$defs": {"lat": {"type": "number", "maximum": 90}}}"##)]
        let point = try SchemaValidator(reference: "./schemas/v1/point.json", registry: nested)
        expectEqual(point.validate(91).map(\.schemaPath), ["/$ref/maximum"])

        expectThrowsError(try SchemaValidator(schema: try parse(#"{"$ref": "schemas/missing.json"}"#),
                                                 registry: registry, baseURI: "Contracts/openapi.json")) { error in
            let schemaError = error as? SchemaError
            expectEqual(schemaError?.kind, .unresolvableReference)
            expectEqual(schemaError?.reference, "Contracts/schemas/missing.json")
        }
    }

    @Test func testInvalidSchemasAreRejectedWithLocation() throws {
        let cases: [(String, String)] = [
            (#"{"properties": {"a": {"minLength": -1}}}"#, "#/properties/a/minLength"),
            (#"{"pattern": "(unclosed"}"#, "#/pattern"),
            (#"{"type": "text"}"#, "#/type"),
            (#"{"items": [{}]}"#, "#/items"),
            (##"{"$ref": "#/$defs/nope"}"##, "#/$ref"),
        ]
        for (text, location) in cases {
            expectThrowsError(try SchemaValidator(schema: try parse(text)), text) { error in
                expectEqual((error as? SchemaError)?.location, location, text)
            }
        }
    }

    // MARK: Semantics

    @Test func testNumberAndEqualitySemantics() throws {
        expectTrue(try SchemaValidator(schema: ["type": "integer"]).isValid(.number(1.0)))
        expectFalse(try SchemaValidator(schema: ["type": "integer"]).isValid(.number(1.5)))
        expectTrue(try SchemaValidator(schema: ["enum": [1, "a"]]).isValid(.number(1.0)))
        expectTrue(try SchemaValidator(schema: ["const": ["a": 1, "b": [2.0]]]).isValid(try parse(#"{"b": [2], "a": 1.0}"#)))
        expectFalse(try SchemaValidator(schema: ["uniqueItems": true]).isValid([1, 1.0]))
        expectFalse(try SchemaValidator(schema: ["uniqueItems": true]).isValid(try parse(#"[{"a":1,"b":2},{"b":2,"a":1}]"#)))
        expectTrue(try SchemaValidator(schema: ["multipleOf": 0.01]).isValid(.number(10.8)))
        expectFalse(try SchemaValidator(schema: ["multipleOf": 0.01]).isValid(.number(10.805)))
        // Code points, not UTF-16 units or grapheme clusters.
        expectTrue(try SchemaValidator(schema: ["maxLength": 1]).isValid("😀"))
        expectFalse(try SchemaValidator(schema: ["maxLength": 1]).isValid("e\u{301}"))
    }

    @Test func testPatternsFollowECMAScript() throws {
        let digits = try SchemaValidator(schema: ["pattern": #"^\d+$"#])
        expectTrue(digits.isValid("123"))
        expectFalse(digits.isValid("123\n"), "$ is end of input")
        expectFalse(digits.isValid("١٢٣"), "\\d is ASCII only")
        expectTrue(try SchemaValidator(schema: ["pattern": "a"]).isValid("banana"), "unanchored")
        expectTrue(try SchemaValidator(schema: ["pattern": "^[\\w.-]+$"]).isValid("a_b.c-d"))
    }

    @Test func testCircularReferenceDoesNotCrash() throws {
        let validator = try SchemaValidator(schema: try parse(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##))
        let errors = validator.validate(1)
        expectEqual(errors.count, 1)
        expectTrue(errors[0].message.contains("circular"), errors[0].message)
        expectFalse(validator.isValid(1))
    }

    // MARK: Performance

    @Test func testValidatesTenThousandObjectsQuickly() throws {
        let schema = try parse("""
        {"type": "array", "items": {"type": "object", "additionalProperties": false,
          "required": ["ref_id", "name", "lat", "lng"],
          "properties": {
            "ref_id": {"type": "string", "pattern": "^[a-z]+:[0-9]+$"},
            "name": {"type": "string", "minLength": 1, "maxLength": 200},
            "lat": {"type": "number", "minimum": -90, "maximum": 90},
            "lng": {"type": "number", "minimum": -180, "maximum": 180},
            "categories": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "kind": {"anyOf": [{"const": "poi"}, {"const": "address"}]}}}}
        """)
        let started = Date()
        let validator = try SchemaValidator(schema: schema)
        let items: [JSONValue] = (0..<10_000).map { i in
            .object(JSONObject([("ref_id", .string("vm:\(i)")), ("name", .string("Place \(i)")),
                                ("lat", .number(10.7 + Double(i) * 1e-5)), ("lng", .number(106.6)),
                                ("categories", ["food", "cafe"]), ("kind", i % 2 == 0 ? "poi" : "address")]))
        }
        let valid = JSONValue.array(items)
        var invalidItems = items
        invalidItems[9_999] = ["ref_id": "bad", "name": "", "lat": 91, "lng": 0]
        let t0 = Date()
        expectEqual(validator.validate(valid), [])
        let t1 = Date()
        expectTrue(validator.isValid(valid))
        let t2 = Date()
        let errors = validator.validate(.array(invalidItems))
        expectEqual(errors.map(\.keyword), ["pattern", "minLength", "maximum"])
        expectEqual(errors.first?.instancePath, "/9999/ref_id")
        let ms = { (d: TimeInterval) in String(format: "%.1f ms", d * 1000) }
        print("[json-schema-perf] 10k objects: validate \(ms(t1.timeIntervalSince(t0))), isValid \(ms(t2.timeIntervalSince(t1))), "
              + "compile+build \(ms(t0.timeIntervalSince(started)))")
        expectLessThan(t1.timeIntervalSince(t0), 5, "generous bound (debug build, shared CPU)")
    }
}
