/// A JSON document as a value. Objects keep their key order, so responses come out in the
/// live API's key order, and integers stay integers (`79`, never `79.0`).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// `nil` maps to `.null`.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// Integers and doubles alike, as a Double.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    public var intValue: Int? {
        switch self {
        case .integer(let i): return i
        case .number(let d) where d.rounded() == d && abs(d) < 9e15: return Int(d)
        default: return nil
        }
    }

    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// Object member or array element lookup; `nil` when absent or of another kind.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
    public subscript(index: Int) -> JSONValue? {
        guard let a = arrayValue, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// The JSON type name used in messages and schemas: "null", "boolean", "integer", "number", "string", "array", "object".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number(let d): return d.rounded() == d ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object with ordered, unique keys.
public struct JSONObject: Sendable, Equatable, Sequence {
    public private(set) var members: [(key: String, value: JSONValue)]

    /// A later duplicate key replaces the earlier one's value.
    public init(_ members: [(String, JSONValue)] = []) {
        var unique: [(key: String, value: JSONValue)] = []
        unique.reserveCapacity(members.count)
        for (k, v) in members {
            if let i = unique.firstIndex(where: { $0.key == k }) { unique[i].value = v } else { unique.append((k, v)) }
        }
        self.members = unique
    }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    /// Setting a key that exists replaces its value in place; `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        // Key order is presentation; equality is by content, as in JSON.
        guard lhs.count == rhs.count else { return false }
        for (k, v) in lhs.members where rhs[k] != v { return false }
        return true
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}
