import Foundation
import JSON

// MARK: - Compiled form

/// A compiled schema: a boolean schema or a list of keywords. Subschemas are indices into `Program.nodes`.
struct Node: Sendable {
    var constant: Bool?
    var keywords: [Keyword] = []
}

struct TypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = TypeSet(rawValue: 1), boolean = TypeSet(rawValue: 2), integer = TypeSet(rawValue: 4)
    static let number = TypeSet(rawValue: 8), string = TypeSet(rawValue: 16), array = TypeSet(rawValue: 32)
    static let object = TypeSet(rawValue: 64)
    static let names: [(String, TypeSet)] = [("null", .null), ("boolean", .boolean), ("integer", .integer),
                                            ("number", .number), ("string", .string), ("array", .array), ("object", .object)]
}

enum BoundKind: String, Sendable { case minimum, maximum, exclusiveMinimum, exclusiveMaximum }

/// A regex compiled once. `NSRegularExpression` matching is thread-safe.
final class Pattern: @unchecked Sendable {
    let source: String
    let regex: NSRegularExpression
    init(source: String, regex: NSRegularExpression) { self.source = source; self.regex = regex }

    func matches(_ s: String) -> Bool {
        regex.firstMatch(in: s, options: [], range: NSRange(location: 0, length: s.utf16.count)) != nil
    }
}

struct MemberRules: Sendable {
    var properties: [String: Int] = [:]
    var patterns: [(pattern: Pattern, node: Int)] = []
    var additional: Int?
}

enum Keyword: Sendable {
    case type(TypeSet, names: [String])
    case enumeration([JSONValue])
    case constant(JSONValue)
    case bound(BoundKind, JSONValue)
    case multipleOf(JSONValue)
    case minLength(Int), maxLength(Int)
    case pattern(Pattern)
    case items(prefix: [Int], rest: Int?)
    case minItems(Int), maxItems(Int), uniqueItems
    case members(MemberRules)
    case required([String])
    case propertyNames(Int)
    case dependentSchemas([(name: String, node: Int)])
    case minProperties(Int), maxProperties(Int)
    case ref(Int)
    case allOf([Int]), anyOf([Int]), oneOf([Int]), not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
}

// MARK: - Compiler

/// A place in a loaded document: its URI plus a JSON pointer (as tokens).
struct Location: Hashable {
    var document: String
    var pointer: [String]
    func appending(_ tokens: String...) -> Location { Location(document: document, pointer: pointer + tokens) }
    var text: String { document + "#" + JSONPointer(tokens: pointer).description }
}

/// Indexes `$id`/`$anchor`s of every loaded document, resolves `$ref`s, and compiles reachable schemas.
struct SchemaCompiler {
    private var documents: [String: JSONValue] = [:]
    /// Absolute resource URI (no fragment) → where that resource's root schema is.
    private var resources: [String: Location] = [:]
    /// `uri#anchor` → location.
    private var anchors: [String: Location] = [:]
    /// Base URI in effect at every indexed schema location.
    private var bases: [Location: String] = [:]
    private var nodes: [Node] = []
    private var compiled: [Location: Int] = [:]
    /// Refs whose targets are compiled after the referencing node (keeps recursion shallow).
    private var pending: [(node: Int, keyword: Int, target: Location)] = []

    private static let singleSchemaKeywords: Set<String> = [
        "additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "additionalItems",
    ]
    private static let schemaMapKeywords: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
    ]
    private static let schemaArrayKeywords: Set<String> = ["prefixItems", "allOf", "anyOf", "oneOf"]

    init(registry: [String: JSONValue]) {
        // Sorted, so that which document wins a duplicate `$id` is deterministic.
        for (uri, document) in registry.sorted(by: { $0.key < $1.key }) { _ = addDocument(document, uri: uri) }
    }

    /// Loads and indexes a document; returns its key. A later document with the same URI replaces it.
    mutating func addDocument(_ document: JSONValue, uri: String) -> String {
        let key = URIReference.split(URIReference.resolve(uri, against: "")).resource
        documents[key] = document
        let root = Location(document: key, pointer: [])
        resources[key] = root
        index(document, at: root, base: key)
        return key
    }

    private mutating func index(_ value: JSONValue, at location: Location, base: String) {
        guard case .object(let object) = value else {
            bases[location] = base
            return
        }
        var base = base
        if case .string(let id)? = object["$id"] {
            base = URIReference.split(URIReference.resolve(id, against: base)).resource
            if resources[base] == nil || location.pointer.isEmpty { resources[base] = location }
        }
        bases[location] = base
        for key in ["$anchor", "$dynamicAnchor"] {
            if case .string(let name)? = object[key], anchors[base + "#" + name] == nil {
                anchors[base + "#" + name] = location
            }
        }
        for (key, member) in object {
            if Self.singleSchemaKeywords.contains(key) {
                index(member, at: location.appending(key), base: base)
            } else if Self.schemaMapKeywords.contains(key), case .object(let map) = member {
                for (name, sub) in map { index(sub, at: location.appending(key, name), base: base) }
            } else if Self.schemaArrayKeywords.contains(key), case .array(let list) = member {
                for (i, sub) in list.enumerated() { index(sub, at: location.appending(key, String(i)), base: base) }
            }
        }
    }

    // MARK: Compilation

    mutating func compileAll(rootDocument: String) throws(SchemaError) -> [Node] {
        let root = Location(document: rootDocument, pointer: [])
        _ = try compile(documents[rootDocument]!, at: root)
        try drainPending()
        return nodes
    }

    mutating func compileAll(rootReference: String) throws(SchemaError) -> [Node] {
        let target = try resolveReference(rootReference, base: "", from: Location(document: "", pointer: []))
        guard let value = lookup(target) else {
            throw SchemaError(kind: .unresolvableReference, location: target.text, reference: rootReference,
                              message: "no schema at \(rootReference)")
        }
        _ = try compile(value, at: target)
        try drainPending()
        return nodes
    }

    private mutating func drainPending() throws(SchemaError) {
        while let (node, keyword, target) = pending.popLast() {
            let index: Int
            if let existing = compiled[target] {
                index = existing
            } else {
                guard let value = lookup(target) else {
                    throw SchemaError(kind: .unresolvableReference, location: target.text, reference: target.text,
                                      message: "$ref target \(target.text) does not exist")
                }
                index = try compile(value, at: target)
            }
            nodes[node].keywords[keyword] = .ref(index)
        }
    }

    private func lookup(_ location: Location) -> JSONValue? {
        guard var value = documents[location.document] else { return nil }
        for token in location.pointer {
            switch value {
            case .object(let object):
                guard let next = object[token] else { return nil }
                value = next
            case .array(let items):
                guard let i = Int(token), String(i) == token, items.indices.contains(i) else { return nil }
                value = items[i]
            default:
                return nil
            }
        }
        return value
    }

    /// The base URI at `location`, indexing the subtree on demand (a `$ref` may point anywhere).
    private mutating func base(at location: Location, value: JSONValue) -> String {
        if let base = bases[location] { return base }
        // Not reached by indexing: find the nearest indexed ancestor and index from there down.
        var ancestor = location
        var chain: [String] = []
        while bases[ancestor] == nil, let last = ancestor.pointer.popLast() { chain.append(last) }
        var base = bases[ancestor] ?? ancestor.document
        var current = ancestor
        var currentValue = lookup(ancestor)
        for token in chain.reversed() {
            currentValue = currentValue.flatMap { v in
                if case .object(let o) = v { return o[token] }
                if case .array(let a) = v, let i = Int(token), a.indices.contains(i) { return a[i] }
                return nil
            }
            current = current.appending(token)
            if current != location, case .object(let o)? = currentValue, case .string(let id)? = o["$id"] {
                base = URIReference.split(URIReference.resolve(id, against: base)).resource
            }
        }
        index(value, at: location, base: base)
        return bases[location] ?? base
    }

    private func invalid(_ location: Location, _ message: String) -> SchemaError {
        SchemaError(kind: .invalidSchema, location: location.text, reference: nil, message: message)
    }

    private mutating func compile(_ value: JSONValue, at location: Location) throws(SchemaError) -> Int {
        if let existing = compiled[location] { return existing }
        let index = nodes.count
        switch value {
        case .bool(let b):
            nodes.append(Node(constant: b))
            compiled[location] = index
            return index
        case .object(let object):
            nodes.append(Node())
            compiled[location] = index
            let base = base(at: location, value: value)
            nodes[index].keywords = try keywords(of: object, at: location, base: base, node: index)
            return index
        default:
            throw invalid(location, "a schema must be an object or a boolean, got \(value.typeName)")
        }
    }

    private mutating func sub(_ object: JSONObject, _ key: String, at location: Location) throws(SchemaError) -> Int? {
        guard let value = object[key] else { return nil }
        return try compile(value, at: location.appending(key))
    }

    private mutating func subArray(_ object: JSONObject, _ key: String, at location: Location) throws(SchemaError) -> [Int]? {
        guard let value = object[key] else { return nil }
        guard case .array(let list) = value, !list.isEmpty else {
            throw invalid(location.appending(key), "\(key) must be a non-empty array of schemas")
        }
        var result: [Int] = []
        for (i, item) in list.enumerated() { result.append(try compile(item, at: location.appending(key, String(i)))) }
        return result
    }

    private mutating func subMap(_ object: JSONObject, _ key: String, at location: Location) throws(SchemaError) -> [(String, Int)]? {
        guard let value = object[key] else { return nil }
        guard case .object(let map) = value else { throw invalid(location.appending(key), "\(key) must be an object of schemas") }
        var result: [(String, Int)] = []
        for (name, item) in map { result.append((name, try compile(item, at: location.appending(key, name)))) }
        return result
    }

    private func count(_ object: JSONObject, _ key: String, at location: Location) throws(SchemaError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let n = value.intValue, n >= 0 else { throw invalid(location.appending(key), "\(key) must be a non-negative integer") }
        return n
    }

    private func pattern(_ source: String, at location: Location) throws(SchemaError) -> Pattern {
        do {
            return Pattern(source: source, regex: try NSRegularExpression(pattern: ECMARegex.translate(source)))
        } catch {
            throw invalid(location, "invalid regular expression \(brief(.string(source)))")
        }
    }

    private mutating func keywords(of object: JSONObject, at location: Location, base: String, node: Int) throws(SchemaError) -> [Keyword] {
        var result: [Keyword] = []

        if let value = object["type"] {
            let names: [String]
            switch value {
            case .string(let s): names = [s]
            case .array(let list) where list.allSatisfy({ $0.stringValue != nil }): names = list.compactMap(\.stringValue)
            default: throw invalid(location.appending("type"), "type must be a string or an array of strings")
            }
            var set: TypeSet = []
            for name in names {
                guard let t = TypeSet.names.first(where: { $0.0 == name })?.1 else {
                    throw invalid(location.appending("type"), "unknown type \(brief(.string(name)))")
                }
                set.insert(t)
            }
            result.append(.type(set, names: names))
        }
        if let value = object["enum"] {
            guard case .array(let list) = value else { throw invalid(location.appending("enum"), "enum must be an array") }
            result.append(.enumeration(list))
        }
        if let value = object["const"] { result.append(.constant(value)) }

        for kind in [BoundKind.minimum, .exclusiveMinimum, .maximum, .exclusiveMaximum] {
            guard let value = object[kind.rawValue] else { continue }
            guard value.doubleValue != nil else { throw invalid(location.appending(kind.rawValue), "\(kind.rawValue) must be a number") }
            result.append(.bound(kind, value))
        }
        if let value = object["multipleOf"] {
            guard let d = value.doubleValue, d > 0 else { throw invalid(location.appending("multipleOf"), "multipleOf must be a number > 0") }
            result.append(.multipleOf(value))
        }

        if let n = try count(object, "minLength", at: location) { result.append(.minLength(n)) }
        if let n = try count(object, "maxLength", at: location) { result.append(.maxLength(n)) }
        if let value = object["pattern"] {
            guard case .string(let source) = value else { throw invalid(location.appending("pattern"), "pattern must be a string") }
            result.append(.pattern(try pattern(source, at: location.appending("pattern"))))
        }

        if let n = try count(object, "minItems", at: location) { result.append(.minItems(n)) }
        if let n = try count(object, "maxItems", at: location) { result.append(.maxItems(n)) }
        if let value = object["uniqueItems"] {
            guard case .bool(let unique) = value else { throw invalid(location.appending("uniqueItems"), "uniqueItems must be a boolean") }
            if unique { result.append(.uniqueItems) }
        }
        let prefix = try subArray(object, "prefixItems", at: location)
        if case .array? = object["items"] {
            throw invalid(location.appending("items"), "items must be a schema in draft 2020-12 (use prefixItems for tuples)")
        }
        let rest = try sub(object, "items", at: location)
        if prefix != nil || rest != nil { result.append(.items(prefix: prefix ?? [], rest: rest)) }

        if let n = try count(object, "minProperties", at: location) { result.append(.minProperties(n)) }
        if let n = try count(object, "maxProperties", at: location) { result.append(.maxProperties(n)) }
        if let value = object["required"] {
            guard case .array(let list) = value, list.allSatisfy({ $0.stringValue != nil }) else {
                throw invalid(location.appending("required"), "required must be an array of strings")
            }
            if !list.isEmpty { result.append(.required(list.compactMap(\.stringValue))) }
        }
        var members = MemberRules()
        var hasMembers = false
        if let properties = try subMap(object, "properties", at: location) {
            hasMembers = true
            for (name, index) in properties { members.properties[name] = index }
        }
        if let patterns = try subMap(object, "patternProperties", at: location) {
            hasMembers = true
            for (source, index) in patterns {
                members.patterns.append((try pattern(source, at: location.appending("patternProperties", source)), index))
            }
        }
        if let additional = try sub(object, "additionalProperties", at: location) {
            hasMembers = true
            members.additional = additional
        }
        if hasMembers { result.append(.members(members)) }
        if let names = try sub(object, "propertyNames", at: location) { result.append(.propertyNames(names)) }
        if let dependent = try subMap(object, "dependentSchemas", at: location) {
            result.append(.dependentSchemas(dependent.map { (name: $0.0, node: $0.1) }))
        }

        if let value = object["$ref"] {
            guard case .string(let reference) = value else { throw invalid(location.appending("$ref"), "$ref must be a string") }
            let target = try resolveReference(reference, base: base, from: location.appending("$ref"))
            // Compiled later (drainPending) to keep compile recursion bounded by nesting, not by ref chains.
            pending.append((node, result.count, target))
            result.append(.ref(-1))
        }
        if let list = try subArray(object, "allOf", at: location) { result.append(.allOf(list)) }
        if let list = try subArray(object, "anyOf", at: location) { result.append(.anyOf(list)) }
        if let list = try subArray(object, "oneOf", at: location) { result.append(.oneOf(list)) }
        if let negated = try sub(object, "not", at: location) { result.append(.not(negated)) }
        let thenNode = try sub(object, "then", at: location)
        let elseNode = try sub(object, "else", at: location)
        if let condition = try sub(object, "if", at: location), thenNode != nil || elseNode != nil {
            result.append(.conditional(if: condition, then: thenNode, else: elseNode))
        }
        return result
    }

    // MARK: References

    /// Resolves a `$ref` value to the location of its target schema.
    private mutating func resolveReference(_ reference: String, base: String, from: Location) throws(SchemaError) -> Location {
        let absolute = URIReference.resolve(reference, against: base)
        let (resource, fragment) = URIReference.split(absolute)
        func unresolvable(_ why: String) -> SchemaError {
            SchemaError(kind: .unresolvableReference, location: from.text, reference: absolute,
                        message: "cannot resolve $ref \(brief(.string(reference))) (\(absolute)): \(why)")
        }
        guard let root = resources[resource] else { throw unresolvable("unknown document \(resource.isEmpty ? "\"\"" : resource)") }
        guard let decoded = URIFragment.percentDecoded(fragment) else { throw unresolvable("bad percent-encoding") }
        if decoded.isEmpty { return root }
        if let tokens = JSONPointer.tokens(decoded) {
            let target = Location(document: root.document, pointer: root.pointer + tokens)
            guard lookup(target) != nil else { throw unresolvable("no such location") }
            return target
        }
        guard let anchored = anchors[resource + "#" + decoded] else { throw unresolvable("unknown anchor") }
        return anchored
    }
}

/// Adapts ECMA-262 regex syntax to ICU (`NSRegularExpression`) where they differ in common patterns:
/// `\d`/`\w` are ASCII-only, `$` means end of input (ICU also matches before a final newline),
/// and a `[` inside a class is literal.
enum ECMARegex {
    static func translate(_ source: String) -> String {
        var out = ""
        var inClass = false
        var iterator = source.makeIterator()
        while let c = iterator.next() {
            switch c {
            case "\\":
                guard let e = iterator.next() else { out.append("\\"); continue }
                switch (e, inClass) {
                case ("d", false): out += "[0-9]"
                case ("d", true): out += "0-9"
                case ("D", false): out += "[^0-9]"
                case ("w", false): out += "[A-Za-z0-9_]"
                case ("w", true): out += "A-Za-z0-9_"
                case ("W", false): out += "[^A-Za-z0-9_]"
                default: out.append("\\"); out.append(e)
                }
            case "[": out += inClass ? "\\[" : "["; inClass = true
            case "]" where inClass: inClass = false; out.append(c)
            case "$" where !inClass: out += "\\z"
            default: out.append(c)
            }
        }
        return out
    }
}
