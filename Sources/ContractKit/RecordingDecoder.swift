import Foundation
import JSON

/// A disagreement between a model and one response, found while decoding it.
package struct ModelIssue: Sendable, Equatable, CustomStringConvertible {
    /// How the model and the response disagree.
    package enum Kind: String, Sendable {
        /// The model requires a key the response lacks.
        case missingRequired = "missing-required"
        /// The model requires a non-null value; the response has null.
        case nullForRequired = "null-for-required"
        /// The model decodes another JSON type than the response has.
        case typeMismatch = "type-mismatch"
        /// The model's own decoding code rejected the value (validation, unknown enum case, …).
        case invalidValue = "invalid-value"
    }
    package var kind: Kind
    /// Where in the response (JSON pointer).
    package var pointer: String
    /// `VMRoutePath.points: String`.
    package var field: String
    package var message: String

    package var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}

/// An issue carried inside a `DecodingError`'s `underlyingError`, so the recorder can tell its
/// own errors (which it can patch over) from the model's.
struct RecordedIssue: Error {
    let issue: ModelIssue
    let recoverable: Bool
}

/// A shape being recorded; several decodes (the probe and every response) add to one tree.
final class ShapeNode {
    final class Field {
        let key: String
        let property: String
        var swiftType: String
        var required: Bool
        var optionalRequest: Bool
        let node = ShapeNode()
        init(key: String, property: String, swiftType: String, required: Bool) {
            self.key = key
            self.property = property
            self.swiftType = swiftType
            self.required = required
            optionalRequest = !required
        }
    }

    init() {}

    var typeName: String?
    var keyed = false
    var unkeyed = false
    var primitives: [ModelShape] = []
    var acceptsNull = false
    private(set) var fields: [Field] = []
    private var fieldIndex: [String: Int] = [:]
    lazy var element = ShapeNode()

    func field(key: String, property: String, swiftType: String, required: Bool) -> Field {
        if let index = fieldIndex[key] {
            let field = fields[index]
            if required && !field.required { field.required = true; field.swiftType = swiftType }
            if !required { field.optionalRequest = true }
            return field
        }
        let field = Field(key: key, property: property, swiftType: swiftType, required: required)
        fieldIndex[key] = fields.count
        fields.append(field)
        return field
    }

    func addPrimitive(_ shape: ModelShape) {
        if !primitives.contains(shape) { primitives.append(shape) }
    }

    func shape(depth: Int = 0) -> ModelShape {
        guard depth < 40 else { return .unknown }
        var alternatives = primitives
        if keyed {
            alternatives.append(.object(type: typeName ?? "?", fields: fields.map { field in
                ModelField(key: field.key, property: field.property, swiftType: field.swiftType, required: field.required,
                           acceptsNull: field.optionalRequest || field.node.acceptsNull, shape: field.node.shape(depth: depth + 1))
            }))
        }
        if unkeyed { alternatives.append(.array(element.shape(depth: depth + 1))) }
        switch alternatives.count {
        case 0: return .unknown
        case 1: return alternatives[0]
        default: return .oneOf(alternatives)
        }
    }
}

/// State shared by the decoders of one recording pass.
final class RecordingSession {
    /// Response locations replaced by synthetic values after an issue there was recorded.
    var patched: Set<String> = []
    private(set) var issues: [ModelIssue] = []
    /// Objects the model opened: location → (keys present, keys the model asked for).
    var objects: [String: (present: Set<String>, requested: Set<String>)] = [:]

    func confirm(_ issue: ModelIssue) {
        if !issues.contains(where: { $0.pointer == issue.pointer && $0.kind == issue.kind }) { issues.append(issue) }
    }

    /// Told every location the model reads, as it reads it (crash diagnosis in a child process).
    var trace: ((String) -> Void)?

    func visit(_ pointer: String, present: [String]) {
        trace?(pointer)
        objects[pointer, default: ([], [])].present.formUnion(present)
    }

    func request(_ pointer: String, _ key: String) {
        objects[pointer, default: ([], [])].requested.insert(key)
    }
}

/// How deep the probe (no response) goes into optional and repeated parts (recursive models).
private let probeDepthLimit = 24

/// A `Decoder` over a `JSONValue` (or over nothing: the probe) that records every key a model
/// asks for — keyed, `decodeIfPresent`/optional or required, with the requested type, nested
/// containers and arrays — and every disagreement with the response it walks.
///
/// It throws like `JSONDecoder` (so models with fallbacks behave as they would), but when an
/// error escapes a model type's `init(from:)` the issue is recorded, the offending location is
/// replaced by a synthetic value and the type is decoded again — so one pass reports every
/// field, not just the first.
struct RecordingDecoder: Decoder {
    let session: RecordingSession
    /// nil: synthetic (the probe, or a patched location).
    let value: JSONValue?
    let pointer: String
    let node: ShapeNode
    let codingPath: [any CodingKey]
    let depth: Int
    /// Who asked for this value: `VMRoutePath.points: String`.
    let label: String

    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var synthetic: Bool { value == nil }

    func child(_ value: JSONValue?, pointer: String, node: ShapeNode, key: any CodingKey, label: String) -> RecordingDecoder {
        RecordingDecoder(session: session, value: value, pointer: pointer, node: node, codingPath: codingPath + [key],
                         depth: depth + 1, label: label)
    }

    func issueError(_ kind: ModelIssue.Kind, _ message: String, at pointer: String? = nil, label: String? = nil) -> DecodingError {
        let issue = ModelIssue(kind: kind, pointer: pointer ?? self.pointer, field: label ?? self.label, message: message)
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: message,
                                            underlyingError: RecordedIssue(issue: issue, recoverable: true))
        switch kind {
        case .missingRequired: return .keyNotFound(AnyKey(pointer.map { ContractPointer.tokens($0)?.last ?? "" } ?? ""), context)
        case .nullForRequired: return .valueNotFound(Any.self, context)
        case .typeMismatch: return .typeMismatch(Any.self, context)
        case .invalidValue: return .dataCorrupted(context)
        }
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.keyed = true
        guard let value else { return KeyedDecodingContainer(RecordingKeyedContainer<Key>(decoder: self, object: nil)) }
        guard case .object(let object) = value else {
            throw value.isNull
                ? issueError(.nullForRequired, "\(label) needs an object; the response has null")
                : issueError(.typeMismatch, "\(label) needs an object; the response has \(value.typeName)")
        }
        session.visit(pointer, present: object.keys)
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        node.unkeyed = true
        guard let value else { return RecordingUnkeyedContainer(decoder: self, elements: nil) }
        guard case .array(let elements) = value else {
            throw value.isNull
                ? issueError(.nullForRequired, "\(label) needs an array; the response has null")
                : issueError(.typeMismatch, "\(label) needs an array; the response has \(value.typeName)")
        }
        return RecordingUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { RecordingSingleValueContainer(decoder: self) }

    // MARK: Values

    /// Decodes one value of `type` here: primitives directly, other types through their `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try primitive(.string) { $0.stringValue } as! T }
        if T.self == Bool.self { return try primitive(.boolean) { $0.boolValue } as! T }
        if T.self == Double.self { return try primitive(.number) { $0.doubleValue } as! T }
        if T.self == Float.self { return try primitive(.number) { $0.doubleValue.map { Float($0) } } as! T }
        if T.self == Int.self { return try primitive(.integer) { $0.intValue } as! T }
        if T.self == Int8.self { return try primitive(.integer) { $0.intValue.flatMap { Int8(exactly: $0) } } as! T }
        if T.self == Int16.self { return try primitive(.integer) { $0.intValue.flatMap { Int16(exactly: $0) } } as! T }
        if T.self == Int32.self { return try primitive(.integer) { $0.intValue.flatMap { Int32(exactly: $0) } } as! T }
        if T.self == Int64.self { return try primitive(.integer) { $0.intValue.map { Int64($0) } } as! T }
        if T.self == UInt.self { return try primitive(.integer) { $0.intValue.flatMap { UInt(exactly: $0) } } as! T }
        if T.self == UInt8.self { return try primitive(.integer) { $0.intValue.flatMap { UInt8(exactly: $0) } } as! T }
        if T.self == UInt16.self { return try primitive(.integer) { $0.intValue.flatMap { UInt16(exactly: $0) } } as! T }
        if T.self == UInt32.self { return try primitive(.integer) { $0.intValue.flatMap { UInt32(exactly: $0) } } as! T }
        if T.self == UInt64.self { return try primitive(.integer) { $0.intValue.flatMap { UInt64(exactly: $0) } } as! T }
        if T.self == Decimal.self { return try primitive(.number) { $0.doubleValue.map { Decimal($0) } } as! T }
        if T.self == Date.self {
            return try primitive(.number) { $0.doubleValue.map { Date(timeIntervalSinceReferenceDate: $0) } } as! T
        }
        if T.self == Data.self { return try primitive(.string) { $0.stringValue.flatMap { Data(base64Encoded: $0) } } as! T }
        if T.self == URL.self {
            return try primitive(.string) { $0.stringValue.flatMap { URL(string: $0) } } as! T
        }
        return try boundary(type)
    }

    /// A scalar: records its kind, checks the response, returns the converted or a synthetic value.
    func primitive<T>(_ kind: ModelShape, _ convert: (JSONValue) -> T?) throws -> T {
        node.addPrimitive(kind)
        guard let value else { return synthesize(kind, convert) }
        if value.isNull {
            throw issueError(.nullForRequired, "\(label) is not optional; the response has null")
        }
        if let converted = convert(value) { return converted }
        let found = value.typeName
        if kind.acceptedTypes.contains(JSONType(rawValue: found) ?? .null) {
            throw issueError(.invalidValue, "\(label) cannot hold \(JSONSerializer.string(value).prefix(60))")
        }
        throw issueError(.typeMismatch, "\(label) decodes \(kind); the response has \(found)")
    }

    private func synthesize<T>(_ kind: ModelShape, _ convert: (JSONValue) -> T?) -> T {
        let candidates: [JSONValue]
        switch kind {
        case .string: candidates = ["", "AAAA", "https://example.invalid/"]
        case .boolean: candidates = [false]
        case .integer: candidates = [0]
        default: candidates = [0, 0.0]
        }
        for candidate in candidates { if let v = convert(candidate) { return v } }
        fatalError("no synthetic value for \(T.self)")
    }

    /// A model type's `init(from:)`, with recovery: see the type's documentation.
    func boundary<T: Decodable>(_ type: T.Type) throws -> T {
        if node.typeName == nil { node.typeName = prettyTypeName(String(describing: T.self)) }
        if synthetic { return try T(from: self) }
        var attempts = 0
        while true {
            do {
                return try T(from: self)
            } catch {
                let recorded = Self.recordedIssue(in: error)
                if let recorded, recorded.recoverable, !session.patched.contains(recorded.issue.pointer), attempts < 64 {
                    attempts += 1
                    session.confirm(recorded.issue)
                    session.patched.insert(recorded.issue.pointer)
                    continue
                }
                if let recorded, !recorded.recoverable { throw error }
                let issue = ModelIssue(kind: .invalidValue, pointer: pointer, field: label,
                                       message: "\(label) could not be decoded: \(describeDecodingError(error))")
                session.confirm(issue)
                session.patched.insert(pointer)
                do {
                    return try T(from: RecordingDecoder(session: session, value: nil, pointer: pointer, node: node,
                                                        codingPath: codingPath, depth: depth, label: label))
                } catch {
                    throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: issue.message,
                                                            underlyingError: RecordedIssue(issue: issue, recoverable: false)))
                }
            }
        }
    }

    static func recordedIssue(in error: any Error) -> RecordedIssue? {
        guard let decodingError = error as? DecodingError else { return nil }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return nil
        }
        return context.underlyingError as? RecordedIssue
    }
}

/// A `CodingKey` made from a string or index.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.intValue = intValue; stringValue = String(intValue) }
}

/// The Swift name of an enum case (what the standard library prints for enums without a
/// description); nil for values that are not enum cases.
@_silgen_name("swift_EnumCaseName")
private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// "refId" for `CodingKeys.refId` (`case refId = "ref_id"`), the key's string otherwise.
func propertyName(_ key: any CodingKey) -> String {
    if key is AnyKey { return key.stringValue }
    guard Mirror(reflecting: key).displayStyle == .enum, let name = enumCaseName(key) else { return key.stringValue }
    let text = String(cString: name)
    return text.isEmpty ? key.stringValue : text
}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    let object: JSONObject?

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { object?.keys.compactMap { Key(stringValue: $0) } ?? [] }
    private var owner: String { decoder.node.typeName ?? "?" }

    func contains(_ key: Key) -> Bool {
        decoder.session.request(decoder.pointer, key.stringValue)
        _ = decoder.node.field(key: key.stringValue, property: propertyName(key), swiftType: "(checked)", required: false)
        return object.map { $0[key.stringValue] != nil } ?? true
    }

    private func entry(_ key: Key, swiftType: String, required: Bool) -> (ShapeNode.Field, String, String) {
        decoder.session.request(decoder.pointer, key.stringValue)
        let field = decoder.node.field(key: key.stringValue, property: propertyName(key), swiftType: swiftType, required: required)
        return (field, ContractPointer.appending(decoder.pointer, key.stringValue), "\(owner).\(propertyName(key)): \(swiftType)")
    }

    /// The value at `key` (nil: synthetic), or nil-nil when absent/null for an optional request.
    private func childDecoder(_ key: Key, swiftType: String, required: Bool) throws -> RecordingDecoder? {
        let (field, pointer, label) = entry(key, swiftType: swiftType, required: required)
        decoder.session.trace?(pointer)
        if decoder.synthetic || decoder.session.patched.contains(pointer) {
            if !required && decoder.depth > probeDepthLimit { return nil }
            return decoder.child(nil, pointer: pointer, node: field.node, key: key, label: label)
        }
        guard let value = object?[key.stringValue] else {
            if !required { return nil }
            throw decoder.issueError(.missingRequired, "\(label) is required; the response has no \"\(key.stringValue)\"",
                                     at: pointer, label: label)
        }
        if value.isNull && !required { return nil }
        return decoder.child(value, pointer: pointer, node: field.node, key: key, label: label)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let child = try childDecoder(key, swiftType: "(nil check)", required: true) else { return true }
        child.node.acceptsNull = true
        return child.value?.isNull ?? false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try childDecoder(key, swiftType: prettyTypeName(String(describing: T.self)), required: true)!
        return try child.decode(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let child = try childDecoder(key, swiftType: prettyTypeName(String(describing: T.self)) + "?", required: false) else {
            return nil
        }
        return try child.decode(T.self)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, forKey: key, generic: ()) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, forKey: key, generic: ()) }

    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, generic: ()) throws -> T {
        let child = try childDecoder(key, swiftType: prettyTypeName(String(describing: T.self)), required: true)!
        return try child.decode(T.self)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let child = try childDecoder(key, swiftType: prettyTypeName(String(describing: T.self)) + "?", required: false) else {
            return nil
        }
        return try child.decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(key, swiftType: "(nested object)", required: true)!.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(key, swiftType: "(nested array)", required: true)!.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try childDecoder(Key(stringValue: "super") ?? Key(intValue: 0)!, swiftType: "(super)", required: false)
            ?? decoder.child(.null, pointer: ContractPointer.appending(decoder.pointer, "super"), node: ShapeNode(), key: AnyKey("super"), label: "super")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try childDecoder(key, swiftType: "(super)", required: false)
            ?? decoder.child(.null, pointer: ContractPointer.appending(decoder.pointer, key.stringValue), node: ShapeNode(), key: key, label: key.stringValue)
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    let elements: [JSONValue]?
    private(set) var currentIndex = 0

    init(decoder: RecordingDecoder, elements: [JSONValue]?) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    /// The probe pretends every array has one element (none past the depth limit).
    var count: Int? { elements?.count ?? (decoder.depth > probeDepthLimit ? 0 : 1) }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private var elementLabel: String {
        let owner = decoder.label.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? decoder.label
        return "\(owner) element"
    }

    private mutating func next(optional: Bool) throws -> RecordingDecoder? {
        let node = decoder.node.element
        if optional { node.acceptsNull = true }
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [AnyKey(intValue: currentIndex)!],
                                                               debugDescription: "Unkeyed container is at end."))
        }
        let pointer = ContractPointer.appending(decoder.pointer, currentIndex)
        let value: JSONValue? = decoder.session.patched.contains(pointer) ? nil : elements?[currentIndex]
        let index = currentIndex
        currentIndex += 1
        if optional, value?.isNull == true { return nil }
        return decoder.child(elements == nil ? nil : value, pointer: pointer, node: node, key: AnyKey(intValue: index)!, label: elementLabel)
    }

    mutating func decodeNil() throws -> Bool {
        decoder.node.element.acceptsNull = true
        guard !isAtEnd else { return false }
        if let elements, elements[currentIndex].isNull, !decoder.session.patched.contains(ContractPointer.appending(decoder.pointer, currentIndex)) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(optional: false)!.decode(T.self) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try next(optional: true)?.decode(T.self) }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(optional: false)!.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(optional: false)!.decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(optional: false)!.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next(optional: false)!.unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next(optional: false)! }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        decoder.node.acceptsNull = true
        return decoder.value?.isNull ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decode(type) }
}

/// One line for a `DecodingError` (or any error), with the coding path as a JSON pointer.
func describeDecodingError(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
        let pointer = ContractPointer.string(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
        return pointer.isEmpty ? "/" : pointer
    }
    switch error {
    case .typeMismatch(let type, let c): return "\(path(c)): type mismatch (expected \(type)): \(c.debugDescription)"
    case .valueNotFound(let type, let c): return "\(path(c)): value not found (expected \(type)): \(c.debugDescription)"
    case .keyNotFound(let key, let c): return "\(ContractPointer.appending(path(c) == "/" ? "" : path(c), key.stringValue)): key not found: \(c.debugDescription)"
    case .dataCorrupted(let c): return "\(path(c)): data corrupted: \(c.debugDescription)"
    @unknown default: return String(describing: error)
    }
}

/// The JSON pointer of a `DecodingError` (where `JSONDecoder` gave up).
func decodingErrorPointer(_ error: any Error) -> String? {
    guard let error = error as? DecodingError else { return nil }
    switch error {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
        return ContractPointer.string(c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
    case .keyNotFound(let key, let c):
        return ContractPointer.string((c.codingPath + [key]).map { $0.intValue.map(String.init) ?? $0.stringValue })
    @unknown default: return nil
    }
}
