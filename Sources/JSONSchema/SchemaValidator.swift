import JSON

/// A compiled JSON Schema (draft 2020-12 subset) that validates many instances.
///
/// Supported keywords: `type`, `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
/// `multipleOf`, `minLength`, `maxLength` (Unicode code points), `pattern` (unanchored, ECMA-262-ish on
/// `NSRegularExpression`), `prefixItems`, `items`, `minItems`, `maxItems`, `uniqueItems`, `properties`,
/// `patternProperties`, `additionalProperties`, `required`, `propertyNames`, `dependentSchemas`,
/// `minProperties`, `maxProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `$ref`, `$defs`,
/// `$id`, `$anchor`, and boolean schemas. Other keywords (`format`, `title`, `unevaluated*`, `$dynamicRef`, …)
/// are ignored, as the spec requires for unknown keywords.
///
/// `$ref`s are resolved once, at compile time, against the nearest `$id` (or `baseURI`), within the schema
/// or in `registry` documents — e.g. `"$ref": "autocomplete-response.schema.json"` finds the registry entry
/// whose key resolves to the same URI. The value is immutable and thread-safe.
public struct SchemaValidator: Sendable {
    let program: Program

    /// Compiles `schema`.
    /// - Parameters:
    ///   - registry: other schema documents by URI (absolute, or relative like `"schemas/a.json"`); their
    ///     embedded `$id`s are registered too.
    ///   - baseURI: the retrieval URI of `schema`, used to resolve its relative `$id`s and `$ref`s.
    /// - Throws: `SchemaError` for an invalid keyword value, a bad regex, or an unresolvable `$ref`.
    public init(schema: JSONValue, registry: [String: JSONValue] = [:], baseURI: String = "") throws(SchemaError) {
        var compiler = SchemaCompiler(registry: registry)
        let root = compiler.addDocument(schema, uri: baseURI)
        program = Program(nodes: try compiler.compileAll(rootDocument: root))
    }

    /// Compiles the schema that `reference` points at inside `registry` — e.g.
    /// `"openapi.json#/components/schemas/Place"` or `"schemas/route.schema.json"`.
    public init(reference: String, registry: [String: JSONValue]) throws(SchemaError) {
        var compiler = SchemaCompiler(registry: registry)
        program = Program(nodes: try compiler.compileAll(rootReference: reference))
    }

    /// All validation errors (empty when `instance` is valid). Errors name the deepest failing keyword;
    /// a failed `anyOf`/`oneOf` gives one error whose message summarises the closest alternative.
    public func validate(_ instance: JSONValue) -> [ValidationError] {
        var evaluator = Evaluator(nodes: program.nodes, collect: true)
        _ = evaluator.evaluate(0, instance)
        return evaluator.errors
    }

    /// `true` when `instance` is valid; stops at the first failure and builds no messages.
    public func isValid(_ instance: JSONValue) -> Bool {
        var evaluator = Evaluator(nodes: program.nodes, collect: false)
        return evaluator.evaluate(0, instance)
    }
}

/// One failed assertion.
public struct ValidationError: Sendable, Equatable, CustomStringConvertible {
    /// JSON pointer into the instance, e.g. `/paths/0/points` (`""` is the whole instance).
    public let instancePath: String
    /// JSON pointer of the failing keyword along the evaluation path (through `$ref`s),
    /// e.g. `/properties/paths/items/properties/points/type`.
    public let schemaPath: String
    /// The failing keyword, e.g. `type`, `required`, `anyOf`; `false` for a `false` schema.
    public let keyword: String
    /// Human-readable reason, e.g. `expected string, got object`.
    public let message: String

    public init(instancePath: String, schemaPath: String, keyword: String, message: String) {
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.keyword = keyword
        self.message = message
    }

    public var description: String {
        "\(instancePath.isEmpty ? "(root)" : instancePath): \(message) [schema \(schemaPath.isEmpty ? "#" : schemaPath)]"
    }
}

/// The schema could not be compiled.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A keyword has a value of the wrong shape (e.g. `"minLength": -1`, `"pattern": "("`).
        case invalidSchema
        /// A `$ref` (or the `reference` passed to `init`) names no known document, anchor or location.
        case unresolvableReference
    }

    public let kind: Kind
    /// Where: the absolute location of the offending schema, `<document URI>#<JSON pointer>`.
    public let location: String
    /// For `.unresolvableReference`: the fully resolved URI that was not found.
    public let reference: String?
    public let message: String

    public var description: String {
        "invalid schema at \(location.isEmpty ? "#" : location): \(message)"
    }
}

/// The compiled node table; node 0 is the entry point.
final class Program: Sendable {
    let nodes: [Node]
    init(nodes: [Node]) { self.nodes = nodes }
}
