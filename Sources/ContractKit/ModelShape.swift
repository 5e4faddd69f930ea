import Foundation
/// What a `Decodable` type reads, as recorded by `ModelRecorder`: the JSON structure the type
/// expects, with every key it asks for, the Swift type it asks for and whether it requires it.
package indirect enum ModelShape: Sendable, Equatable, CustomStringConvertible {
    case string
    case integer
    case number
    case boolean
    /// A keyed container; `type` is the Swift type that asked for it.
    case object(type: String, fields: [ModelField])
    /// An unkeyed container and what each element is decoded as.
    case array(ModelShape)
    /// The type asked for no container and no value (or several incompatible ones).
    case unknown
    /// Several primitive alternatives tried in turn (custom `init(from:)` with fallbacks).
    case oneOf([ModelShape])

    /// JSON types a value of this shape can be decoded from (ignoring null).
    package var acceptedTypes: Set<JSONType> {
        switch self {
        case .string: return [.string]
        case .integer: return [.integer]
        case .number: return [.integer, .number]
        case .boolean: return [.boolean]
        case .object: return [.object]
        case .array: return [.array]
        case .unknown: return Set(JSONType.allCases)
        case .oneOf(let shapes): return shapes.reduce(into: Set<JSONType>()) { $0.formUnion($1.acceptedTypes) }
        }
    }

    package var description: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .object(let type, let fields): return "\(type){\(fields.map { "\($0.key)\($0.required ? "" : "?"): \($0.shape)" }.joined(separator: ", "))}"
        case .array(let element): return "[\(element)]"
        case .unknown: return "unknown"
        case .oneOf(let shapes): return shapes.map(\.description).joined(separator: "|")
        }
    }

    /// The fields of an object shape (found through `oneOf`).
    var objectFields: (type: String, fields: [ModelField])? {
        switch self {
        case .object(let type, let fields): return (type, fields)
        case .oneOf(let shapes):
            for shape in shapes { if let fields = shape.objectFields { return fields } }
            return nil
        default: return nil
        }
    }

    /// Every `Type.property` the shape reads (`VMRoutePath.points`), types without their module.
    var propertyNames: [String] {
        var names: [String] = []
        var seen = Set<String>()
        func walk(_ shape: ModelShape) {
            switch shape {
            case .object(let type, let fields):
                guard seen.insert(type).inserted else { return }
                let short = type.split(separator: ".").last.map(String.init) ?? type
                for field in fields {
                    names.append("\(short).\(field.property)")
                    walk(field.shape)
                }
            case .array(let element): walk(element)
            case .oneOf(let shapes): shapes.forEach(walk)
            default: break
            }
        }
        walk(self)
        return names
    }

    var arrayElement: ModelShape? {
        switch self {
        case .array(let element): return element
        case .oneOf(let shapes):
            for shape in shapes { if let element = shape.arrayElement { return element } }
            return nil
        default: return nil
        }
    }
}

/// One key a model reads.
package struct ModelField: Sendable, Equatable {
    /// The JSON key (`ref_id`).
    package var key: String
    /// The Swift property (CodingKey case) name (`refId`).
    package var property: String
    /// The Swift type as declared, e.g. `String`, `[VMBoundary]?`.
    package var swiftType: String
    /// `decode` (true) rather than `decodeIfPresent` (false): the key must be present.
    package var required: Bool
    /// The model copes with `null` here (`decodeIfPresent`, or an `Optional` decoded with `decode`).
    package var acceptsNull: Bool
    package var shape: ModelShape
}

/// JSON value types as JSON Schema names them.
package enum JSONType: String, Sendable, CaseIterable, Comparable {
    case null, boolean, integer, number, string, array, object

    package static func < (a: JSONType, b: JSONType) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Swift type names as a developer writes them: `Array<Optional<Int>>` → `[Int?]`.
func prettyTypeName(_ raw: String) -> String {
    // Local types: `Module.Type.(unknown context at $55d0…).Local` → `Module.Type.Local`.
    var s = raw.replacingOccurrences(of: #"\(unknown context at \$[0-9a-fA-F]+\)\."#, with: "", options: .regularExpression)
    for prefix in ["Swift.", "Foundation.", "VietMapClient."] { s = s.replacingOccurrences(of: prefix, with: "") }
    var changed = true
    while changed {
        changed = false
        for (open, make) in [("Array<", { (inner: String) in "[\(inner)]" }), ("Optional<", { (inner: String) in "\(inner)?" }),
                             ("Dictionary<", { (inner: String) in "[\(inner.replacingOccurrences(of: ", ", with: ": "))]" })] {
            guard let start = s.range(of: open) else { continue }
            var depth = 1
            var index = start.upperBound
            while index < s.endIndex, depth > 0 {
                if s[index] == "<" { depth += 1 } else if s[index] == ">" { depth -= 1 }
                if depth > 0 { index = s.index(after: index) }
            }
            guard index < s.endIndex else { continue }
            let inner = String(s[start.upperBound..<index])
            s.replaceSubrange(start.lowerBound...index, with: make(inner))
            changed = true
        }
    }
    return s
}
