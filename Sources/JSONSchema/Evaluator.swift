import JSON

/// One step of an instance or schema path.
enum PathToken {
    case key(String)
    case index(Int)

    var escaped: String {
        switch self {
        case .key(let k): return JSONPointer.escape(k)
        case .index(let i): return String(i)
        }
    }
}

/// Walks compiled nodes over an instance. In `collect` mode it gathers every error; otherwise it stops at
/// the first failure and builds nothing (used for `isValid` and for probing `anyOf`/`oneOf`/`not`/`if`).
struct Evaluator {
    let nodes: [Node]
    var collect: Bool
    var errors: [ValidationError] = []
    private var instancePath: [PathToken] = []
    private var schemaPath: [PathToken] = []
    private var depth = 0
    private static let maxDepth = 400

    init(nodes: [Node], collect: Bool) {
        self.nodes = nodes
        self.collect = collect
    }

    // MARK: Reporting

    private static func pointer(_ tokens: [PathToken]) -> String {
        var s = ""
        for t in tokens { s += "/" + t.escaped }
        return s
    }

    /// Records a failure of `keyword` (appended to the current schema path) at the current instance path.
    private mutating func fail(_ keyword: String, _ message: @autoclosure () -> String, schemaSuffix: [PathToken] = []) {
        guard collect else { return }
        errors.append(ValidationError(instancePath: Self.pointer(instancePath),
                                      schemaPath: Self.pointer(schemaPath + [.key(keyword)] + schemaSuffix),
                                      keyword: keyword, message: message()))
    }

    // MARK: Nodes

    mutating func evaluate(_ index: Int, _ instance: JSONValue) -> Bool {
        let node = nodes[index]
        if let constant = node.constant {
            if !constant { failFalse(keyword: "false", "no value is allowed here (false schema)") }
            return constant
        }
        guard depth < Self.maxDepth else {
            fail("$ref", "schema nesting deeper than \(Self.maxDepth) (circular $ref?)")
            return false
        }
        depth += 1
        defer { depth -= 1 }
        var valid = true
        for keyword in node.keywords {
            if !check(keyword, instance) {
                valid = false
                if !collect { return false }
            }
        }
        return valid
    }

    /// A `false` schema: reported at the current schema path, which already names the applicator.
    private mutating func failFalse(keyword: String, _ message: @autoclosure () -> String) {
        guard collect else { return }
        errors.append(ValidationError(instancePath: Self.pointer(instancePath), schemaPath: Self.pointer(schemaPath),
                                      keyword: keyword, message: message()))
    }

    /// Evaluates subschema `node` with the schema path extended by `schemaTokens` and the instance path by `instanceToken`.
    private mutating func descend(_ node: Int, _ instance: JSONValue, schema keyword: String, _ schemaToken: PathToken? = nil,
                                  instance instanceToken: PathToken? = nil, falseKeyword: String? = nil,
                                  falseMessage: @autoclosure () -> String = "") -> Bool {
        // Paths only matter while collecting (and `collect` is only ever switched on inside collecting code).
        let track = collect
        if track {
            schemaPath.append(.key(keyword))
            if let schemaToken { schemaPath.append(schemaToken) }
            if let instanceToken { instancePath.append(instanceToken) }
        }
        defer {
            if track {
                schemaPath.removeLast(schemaToken == nil ? 1 : 2)
                if instanceToken != nil { instancePath.removeLast() }
            }
        }
        if let falseKeyword, nodes[node].constant == false {
            failFalse(keyword: falseKeyword, falseMessage())
            return false
        }
        return evaluate(node, instance)
    }

    /// Runs `body` in non-collecting mode and discards anything it produced.
    private mutating func probe(_ body: (inout Evaluator) -> Bool) -> Bool {
        let saved = collect
        collect = false
        defer { collect = saved }
        return body(&self)
    }

    /// Runs `body` collecting errors, returns them and removes them from `errors`.
    private mutating func capture(_ body: (inout Evaluator) -> Bool) -> [ValidationError] {
        let saved = collect
        let start = errors.count
        collect = true
        _ = body(&self)
        collect = saved
        let captured = Array(errors[start...])
        errors.removeSubrange(start...)
        return captured
    }

    // MARK: Keywords

    private mutating func check(_ keyword: Keyword, _ instance: JSONValue) -> Bool {
        switch keyword {
        case .type(let set, let names):
            if Self.matches(set, instance) { return true }
            fail("type", "expected \(names.joined(separator: " or ")), got \(instance.typeName)")
            return false

        case .enumeration(let values):
            if values.contains(where: { jsonEqual($0, instance) }) { return true }
            fail("enum", "value \(brief(instance, limit: 40)) is not one of \(values.prefix(8).map { brief($0, limit: 30) }.joined(separator: ", "))\(values.count > 8 ? ", …" : "")")
            return false

        case .constant(let value):
            if jsonEqual(value, instance) { return true }
            fail("const", "value \(brief(instance, limit: 40)) is not \(brief(value))")
            return false

        case .bound(let kind, let limit):
            guard let order = compareNumbers(instance, limit) else { return true }
            let ok: Bool
            let relation: String
            switch kind {
            case .minimum: ok = order >= 0; relation = "less than the minimum"
            case .exclusiveMinimum: ok = order > 0; relation = "not greater than the exclusive minimum"
            case .maximum: ok = order <= 0; relation = "greater than the maximum"
            case .exclusiveMaximum: ok = order < 0; relation = "not less than the exclusive maximum"
            }
            if !ok { fail(kind.rawValue, "\(brief(instance)) is \(relation) \(brief(limit))") }
            return ok

        case .multipleOf(let divisor):
            guard instance.doubleValue != nil else { return true }
            if Self.isMultiple(instance, of: divisor) { return true }
            fail("multipleOf", "\(brief(instance)) is not a multiple of \(brief(divisor))")
            return false

        case .minLength(let n):
            guard case .string(let s) = instance else { return true }
            let length = s.unicodeScalars.count
            if length >= n { return true }
            fail("minLength", "string is shorter than \(n) characters (length \(length))")
            return false

        case .maxLength(let n):
            guard case .string(let s) = instance else { return true }
            let length = s.unicodeScalars.count
            if length <= n { return true }
            fail("maxLength", "string is longer than \(n) characters (length \(length))")
            return false

        case .pattern(let pattern):
            guard case .string(let s) = instance else { return true }
            if pattern.matches(s) { return true }
            fail("pattern", "string \(brief(instance, limit: 40)) does not match pattern \(pattern.source)")
            return false

        case .minItems(let n):
            guard case .array(let items) = instance else { return true }
            if items.count >= n { return true }
            fail("minItems", "array has \(items.count) item\(items.count == 1 ? "" : "s"), fewer than \(n)")
            return false

        case .maxItems(let n):
            guard case .array(let items) = instance else { return true }
            if items.count <= n { return true }
            fail("maxItems", "array has \(items.count) items, more than \(n)")
            return false

        case .uniqueItems:
            guard case .array(let items) = instance, let (i, j) = Self.firstDuplicate(items) else { return true }
            fail("uniqueItems", "array items \(i) and \(j) are equal")
            return false

        case .items(let prefix, let rest):
            guard case .array(let items) = instance else { return true }
            var valid = true
            for (i, item) in items.enumerated() {
                let ok: Bool
                if i < prefix.count {
                    ok = descend(prefix[i], item, schema: "prefixItems", .index(i), instance: .index(i),
                                 falseKeyword: "prefixItems", falseMessage: "no item is allowed at index \(i)")
                } else if let rest {
                    ok = descend(rest, item, schema: "items", instance: .index(i), falseKeyword: "items",
                                 falseMessage: "array may have at most \(prefix.count) item\(prefix.count == 1 ? "" : "s")")
                } else {
                    break
                }
                if !ok {
                    valid = false
                    if !collect { return false }
                }
            }
            return valid

        case .minProperties(let n):
            guard case .object(let object) = instance else { return true }
            if object.count >= n { return true }
            fail("minProperties", "object has \(object.count) properties, fewer than \(n)")
            return false

        case .maxProperties(let n):
            guard case .object(let object) = instance else { return true }
            if object.count <= n { return true }
            fail("maxProperties", "object has \(object.count) properties, more than \(n)")
            return false

        case .required(let names):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for name in names where object[name] == nil {
                valid = false
                guard collect else { return false }
                fail("required", "missing required property \(brief(.string(name)))")
            }
            return valid

        case .members(let rules):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (key, value) in object {
                var matched = false
                if let node = rules.properties[key] {
                    matched = true
                    if !descend(node, value, schema: "properties", .key(key), instance: .key(key),
                                falseKeyword: "properties", falseMessage: "property \(brief(.string(key))) is not allowed") {
                        valid = false
                        if !collect { return false }
                    }
                }
                for (pattern, node) in rules.patterns where pattern.matches(key) {
                    matched = true
                    if !descend(node, value, schema: "patternProperties", .key(pattern.source), instance: .key(key),
                                falseKeyword: "patternProperties", falseMessage: "property \(brief(.string(key))) is not allowed") {
                        valid = false
                        if !collect { return false }
                    }
                }
                if !matched, let node = rules.additional {
                    if !descend(node, value, schema: "additionalProperties", instance: .key(key),
                                falseKeyword: "additionalProperties", falseMessage: "property \(brief(.string(key))) is not allowed") {
                        valid = false
                        if !collect { return false }
                    }
                }
            }
            return valid

        case .propertyNames(let node):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for key in object.keys {
                let errors = collect ? capture { $0.descend(node, .string(key), schema: "propertyNames") } : []
                let ok = collect ? errors.isEmpty : descend(node, .string(key), schema: "propertyNames")
                if !ok {
                    valid = false
                    guard collect else { return false }
                    fail("propertyNames", "property name \(brief(.string(key))) is invalid: \(Self.summary(errors))")
                }
            }
            return valid

        case .dependentSchemas(let dependencies):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (name, node) in dependencies where object[name] != nil {
                if !descend(node, instance, schema: "dependentSchemas", .key(name)) {
                    valid = false
                    if !collect { return false }
                }
            }
            return valid

        case .ref(let node):
            return descend(node, instance, schema: "$ref")

        case .allOf(let list):
            var valid = true
            for (i, node) in list.enumerated() where !descend(node, instance, schema: "allOf", .index(i)) {
                valid = false
                if !collect { return false }
            }
            return valid

        case .anyOf(let list):
            for (i, node) in list.enumerated() where probe({ $0.descend(node, instance, schema: "anyOf", .index(i)) }) {
                return true
            }
            if collect { failAlternatives("anyOf", list, instance) }
            return false

        case .oneOf(let list):
            var matching: [Int] = []
            for (i, node) in list.enumerated() where probe({ $0.descend(node, instance, schema: "oneOf", .index(i)) }) {
                matching.append(i)
                if matching.count > 1 && !collect { return false }
            }
            if matching.count == 1 { return true }
            if matching.isEmpty {
                if collect { failAlternatives("oneOf", list, instance) }
            } else {
                fail("oneOf", "value matches \(matching.count) alternatives (\(matching.map { "oneOf/\($0)" }.joined(separator: ", "))), expected exactly one")
            }
            return false

        case .not(let node):
            if !probe({ $0.descend(node, instance, schema: "not") }) { return true }
            fail("not", "value must not match the schema in \"not\"")
            return false

        case .conditional(let condition, let thenNode, let elseNode):
            if probe({ $0.descend(condition, instance, schema: "if") }) {
                guard let thenNode else { return true }
                return descend(thenNode, instance, schema: "then", falseKeyword: "then",
                               falseMessage: "value matches \"if\" but \"then\" is false")
            } else {
                guard let elseNode else { return true }
                return descend(elseNode, instance, schema: "else", falseKeyword: "else",
                               falseMessage: "value does not match \"if\" and \"else\" is false")
            }
        }
    }

    /// One error for a failed `anyOf`/`oneOf`, summarising the closest alternative's errors.
    private mutating func failAlternatives(_ keyword: String, _ list: [Int], _ instance: JSONValue) {
        let here = instancePath.count
        var best: (index: Int, errors: [ValidationError], score: (Int, Int, Int))?
        for (i, node) in list.enumerated() {
            let errors = capture { $0.descend(node, instance, schema: keyword, .index(i)) }
            // Prefer alternatives whose type matched, then those that failed deeper, then fewer errors.
            let typeMismatch = errors.contains { ($0.keyword == "type" || $0.keyword == "false") && Self.depth($0.instancePath) == here }
            let deepest = errors.map { Self.depth($0.instancePath) }.max() ?? 0
            let score = (typeMismatch ? 0 : 1, deepest, -errors.count)
            if best == nil || score > best!.score { best = (i, errors, score) }
        }
        guard let best else { return }
        // Every alternative starts with a `type` that does not fit: name them all instead.
        let typeNames = list.map { node in
            nodes[node].keywords.lazy.compactMap { if case .type(let set, let names) = $0 { return (set, names) } else { return nil } }.first
        }
        if typeNames.allSatisfy({ $0 != nil && !Self.matches($0!.0, instance) }) {
            var names: [String] = []
            for (_, list) in typeNames.compactMap({ $0 }) { for name in list where !names.contains(name) { names.append(name) } }
            let expected = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            fail(keyword, "expected \(expected) (\(keyword)), got \(instance.typeName)")
            return
        }
        fail(keyword, "value does not match any alternative of \(keyword) (\(list.count)); closest is \(keyword)/\(best.index): \(Self.summary(best.errors))")
    }

    private static func depth(_ pointer: String) -> Int { pointer.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) } }

    private static func summary(_ errors: [ValidationError]) -> String {
        guard let first = errors.first else { return "no details" }
        let path = first.instancePath.isEmpty ? "" : first.instancePath + ": "
        let more = errors.count > 1 ? " (+\(errors.count - 1) more)" : ""
        return path + first.message + more
    }

    // MARK: Helpers

    static func matches(_ set: TypeSet, _ instance: JSONValue) -> Bool {
        switch instance {
        case .null: return set.contains(.null)
        case .bool: return set.contains(.boolean)
        case .integer: return set.contains(.integer) || set.contains(.number)
        case .number(let d):
            return set.contains(.number) || (set.contains(.integer) && d.isFinite && d.rounded(.towardZero) == d)
        case .string: return set.contains(.string)
        case .array: return set.contains(.array)
        case .object: return set.contains(.object)
        }
    }

    static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool {
        if case .integer(let x) = value, case .integer(let m) = divisor { return x % m == 0 }
        guard let x = value.doubleValue, let m = divisor.doubleValue else { return true }
        let quotient = x / m
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// Indices of the first pair of equal items, if any (hash-bucketed, so large arrays stay fast).
    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        var buckets: [Int: [Int]] = [:]
        for (j, item) in items.enumerated() {
            var hasher = Hasher()
            jsonHash(item, into: &hasher)
            let h = hasher.finalize()
            if let candidates = buckets[h], let i = candidates.first(where: { jsonEqual(items[$0], item) }) { return (i, j) }
            buckets[h, default: []].append(j)
        }
        return nil
    }
}
