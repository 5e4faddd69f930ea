import Foundation
import JSON

/// A schema location: a registry document and a JSON pointer in it.
struct SchemaLocation: Hashable, Sendable {
    var document: String
    var pointer: String
    func appending(_ tokens: String...) -> SchemaLocation {
        var p = pointer
        for t in tokens { p = ContractPointer.appending(p, t) }
        return SchemaLocation(document: document, pointer: p)
    }
}

/// Reads JSON Schemas structurally for model agreement: a schema becomes a disjunction of
/// branches (anyOf/oneOf alternatives, if/then/else arms), each a conjunction of schema
/// locations (allOf, `$ref`); per branch it answers which types are allowed, which keys are
/// required and what constrains a key or the array elements.
struct SchemaWalker: Sendable {
    typealias Branch = [SchemaLocation]
    let documents: [String: JSONValue]
    static let maxBranches = 128

    func node(_ location: SchemaLocation) -> JSONValue? {
        documents[location.document].flatMap { ContractPointer.resolve(location.pointer, in: $0) }
    }

    /// `schemas/route-response.schema.json` or `openapi.json#/components/...` → a location.
    func location(reference: String) -> SchemaLocation? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let document = String(parts[0]), pointer = parts.count > 1 ? String(parts[1]) : ""
        guard documents[document] != nil, ContractPointer.tokens(pointer) != nil else { return nil }
        return SchemaLocation(document: document, pointer: pointer)
    }

    /// A `$ref` relative to the document it appears in (paths and JSON-pointer fragments only).
    func resolve(_ ref: String, from location: SchemaLocation) -> SchemaLocation? {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1].removingPercentEncoding ?? String(parts[1])) : ""
        var document = location.document
        if !path.isEmpty {
            var components = location.document.split(separator: "/").map(String.init)
            components.removeLast()
            for component in path.split(separator: "/").map(String.init) {
                if component == ".." { if !components.isEmpty { components.removeLast() } } else if component != "." { components.append(component) }
            }
            document = components.joined(separator: "/")
        }
        guard documents[document] != nil, ContractPointer.tokens(fragment) != nil else { return nil }
        return SchemaLocation(document: document, pointer: fragment)
    }

    /// The branches of the conjunction `locations`.
    func expand(_ locations: [SchemaLocation]) -> [Branch] {
        var branches: [Branch] = [[]]
        for location in locations {
            branches = product(branches, expandOne(location, depth: 0))
        }
        return branches
    }

    private func product(_ a: [Branch], _ b: [Branch]) -> [Branch] {
        var out: [Branch] = []
        for x in a {
            for y in b {
                out.append(x + y)
                if out.count >= Self.maxBranches { return out }
            }
        }
        return out
    }

    private func expandOne(_ location: SchemaLocation, depth: Int) -> [Branch] {
        guard depth < 32, let schema = node(location), case .object(let object) = schema else { return [[location]] }
        var parts: [[Branch]] = [[[location]]]
        if let ref = object["$ref"]?.stringValue, let target = resolve(ref, from: location) {
            parts.append(expandOne(target, depth: depth + 1))
        }
        if let all = object["allOf"]?.arrayValue {
            for index in all.indices { parts.append(expandOne(location.appending("allOf", String(index)), depth: depth + 1)) }
        }
        for keyword in ["anyOf", "oneOf"] {
            if let alternatives = object[keyword]?.arrayValue {
                parts.append(alternatives.indices.flatMap { expandOne(location.appending(keyword, String($0)), depth: depth + 1) })
            }
        }
        if object["if"] != nil {
            let then = object["then"] != nil ? expandOne(location.appending("then"), depth: depth + 1) : [[]]
            let otherwise = object["else"] != nil ? expandOne(location.appending("else"), depth: depth + 1) : [[]]
            parts.append(then + otherwise)
        }
        return parts.reduce([[]]) { product($0, $1) }
    }

    /// Types a branch allows; nil = any.
    func types(_ branch: Branch) -> Set<JSONType>? {
        var result: Set<JSONType>?
        func restrict(_ set: Set<JSONType>) { result = result.map { $0.intersection(set) } ?? set }
        for location in branch {
            guard let schema = node(location) else { continue }
            if schema == .bool(false) { restrict([]) }
            guard case .object(let object) = schema else { continue }
            if let type = object["type"] {
                let names = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
                var set = Set<JSONType>()
                for name in names {
                    if name == "number" { set.formUnion([.integer, .number]) } else if let t = JSONType(rawValue: name) { set.insert(t) }
                }
                restrict(set)
            }
            if let value = object["const"] { restrict(Self.types(of: [value])) }
            if let values = object["enum"]?.arrayValue { restrict(Self.types(of: values)) }
        }
        return result
    }

    static func types(of values: [JSONValue]) -> Set<JSONType> {
        Set(values.map { value in
            switch value {
            case .null: return .null
            case .bool: return .boolean
            case .integer: return .integer
            case .number(let d): return d.rounded() == d ? .integer : .number
            case .string: return .string
            case .array: return .array
            case .object: return .object
            }
        })
    }

    func required(_ branch: Branch) -> Set<String> {
        var result = Set<String>()
        for location in branch { result.formUnion(node(location)?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
        return result
    }

    func declaredKeys(_ branch: Branch) -> [String] {
        var keys: [String] = []
        for location in branch {
            for key in node(location)?["properties"]?.objectValue?.keys ?? [] where !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    enum PropertyRule {
        case forbidden
        case constrained([SchemaLocation])
        case unconstrained
    }

    /// What constrains `key` in `branch`.
    func property(_ key: String, in branch: Branch) -> PropertyRule {
        var locations: [SchemaLocation] = []
        for location in branch {
            guard let object = node(location)?.objectValue else { continue }
            if object["properties"]?[key] != nil {
                locations.append(location.appending("properties", key))
                continue
            }
            var matchedPattern = false
            for (pattern, _) in object["patternProperties"]?.objectValue ?? JSONObject()
            where key.range(of: pattern, options: .regularExpression) != nil {
                locations.append(location.appending("patternProperties", pattern))
                matchedPattern = true
            }
            if matchedPattern { continue }
            if let additional = object["additionalProperties"] {
                if additional == .bool(false) { return .forbidden }
                locations.append(location.appending("additionalProperties"))
            }
        }
        return locations.isEmpty ? .unconstrained : .constrained(locations)
    }

    /// Constraints on the elements of the arrays of `branch` (nil: the arrays are always empty).
    func elements(in branch: Branch) -> [SchemaLocation]? {
        var locations: [SchemaLocation] = []
        var prefix: [SchemaLocation] = []
        for location in branch {
            guard let object = node(location)?.objectValue else { continue }
            if object["maxItems"]?.intValue == 0 { return nil }
            if object["items"] != nil { locations.append(location.appending("items")) }
            if let items = object["prefixItems"]?.arrayValue {
                prefix += items.indices.map { location.appending("prefixItems", String($0)) }
            }
        }
        if locations.isEmpty, let first = prefix.first { return [first] }
        return locations
    }
}
