/// A JSON Patch (RFC 6902): `add`, `remove`, `replace`, `move`, `copy` and `test`, applied in
/// order and atomically — if one operation fails, the document is left as it was.
///
/// Two extensions, both spelled so that they cannot be mistaken for RFC syntax:
/// - **Wildcard `*`**: a `*` token that meets an array stands for each of its elements, so
///   `{"op":"remove","path":"/*/ref_id"}` removes `ref_id` from every item. Several wildcards
///   nest (`/paths/*/points/coordinates/*`). For `move`/`copy` the wildcards of `from` are
///   expanded and substituted, in order, into the `*` tokens of `path`
///   (`{"op":"move","from":"/*/lat","path":"/*/latitude"}`). A `*` that meets an object is
///   the member named `*`, as in RFC 6901. An empty array makes the operation a no-op.
/// - **`x-reverse`**: reverses the array at `path` (`[lng,lat]` → `[lat,lng]`).
///
///     let patch = JSONPatch([.replace(path: try JSONPointer(parsing: "/paths"), value: [])])
///     let mutated = try patch.apply(to: response)
public struct JSONPatch: Sendable, Equatable {
    /// One patch operation.
    public enum Operation: Sendable, Equatable {
        case add(path: JSONPointer, value: JSONValue)
        case remove(path: JSONPointer)
        case replace(path: JSONPointer, value: JSONValue)
        case move(from: JSONPointer, path: JSONPointer)
        case copy(from: JSONPointer, path: JSONPointer)
        case test(path: JSONPointer, value: JSONValue)
        /// Extension `x-reverse`: reverse the array at `path`.
        case reverse(path: JSONPointer)

        /// The `op` name as written in a patch document.
        public var name: String {
            switch self {
            case .add: return "add"
            case .remove: return "remove"
            case .replace: return "replace"
            case .move: return "move"
            case .copy: return "copy"
            case .test: return "test"
            case .reverse: return "x-reverse"
            }
        }

        /// The pointer the operation changes (or tests).
        public var path: JSONPointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path), .copy(_, let path),
                 .test(let path, _), .reverse(let path):
                return path
            }
        }
    }

    public let operations: [Operation]

    public init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// Applies every operation in order to a copy of `document`.
    /// - Throws: `JSONPatchError` naming the failing operation; nothing is applied then.
    public func apply(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        try apply(to: document, inputBytes: 0, sizeLimit: .max)
    }

    /// Applies the patch while the result stays within `sizeLimit` bytes (serialized, as
    /// estimated by `JSONSizeEstimate`): before each value is added or copied its size is
    /// estimated — walking it no further than the remaining budget — and the patch stops with
    /// `JSONPatchError.exceedsSizeLimit` instead of allocating past the limit.
    /// - Parameter inputBytes: the serialized size of `document` (the answer body's length).
    public func apply(to document: JSONValue, inputBytes: Int, sizeLimit: Int) throws(JSONPatchError) -> JSONValue {
        var result = document
        var budget = SizeBudget(used: inputBytes, limit: sizeLimit)
        for (index, operation) in operations.enumerated() {
            do {
                try Self.apply(operation, to: &result, budget: &budget)
            } catch {
                throw JSONPatchError(operationIndex: index,
                                     reason: "\(operation.name) \(operation.path): \(error.reason)",
                                     exceedsSizeLimit: error.exceedsSizeLimit)
            }
        }
        return result
    }

    /// The running upper bound of the document's size: additions are counted, removals are not.
    struct SizeBudget {
        var used: Int
        let limit: Int

        mutating func grow(by value: JSONValue) throws(Failure) {
            guard limit != .max else { return }
            let size = JSONSizeEstimate.bytes(of: value, limit: limit - min(used, limit))
            try grow(bytes: size)
        }

        mutating func grow(bytes: Int) throws(Failure) {
            guard limit != .max else { return }
            let (sum, overflow) = used.addingReportingOverflow(bytes)
            guard !overflow, sum <= limit else {
                throw Failure("the answer would pass the size limit of \(limit) bytes", exceedsSizeLimit: true)
            }
            used = sum
        }
    }

    public static let wildcard = "*"

    // MARK: One operation (with wildcard expansion)

    private static func apply(_ operation: Operation, to document: inout JSONValue,
                              budget: inout SizeBudget) throws(Failure) {
        switch operation {
        case .move(let from, let path), .copy(let from, let path):
            guard from.tokens.contains(wildcard) else { return try applyConcrete(operation, to: &document, budget: &budget) }
            for (concreteFrom, substitutions) in try expand(from, in: document).reversed() {
                let concretePath = try substitute(substitutions, into: path)
                let concrete: Operation
                if case .move = operation { concrete = .move(from: concreteFrom, path: concretePath) } else {
                    concrete = .copy(from: concreteFrom, path: concretePath)
                }
                try applyConcrete(concrete, to: &document, budget: &budget)
            }
        default:
            let path = operation.path
            guard path.tokens.contains(wildcard) else { return try applyConcrete(operation, to: &document, budget: &budget) }
            // Reverse document order: removing element 3 must not shift element 1.
            for (concretePath, _) in try expand(path, in: document).reversed() {
                try applyConcrete(operation.with(path: concretePath), to: &document, budget: &budget)
            }
        }
    }

    /// The concrete pointers `pointer` stands for in `document`, in document order, each with
    /// the tokens its array wildcards took.
    private static func expand(_ pointer: JSONPointer, in document: JSONValue) throws(Failure)
        -> [(JSONPointer, [String])] {
        var results: [(JSONPointer, [String])] = []
        try expand(pointer.tokens[...], value: document, prefix: [], substitutions: [], into: &results)
        return results
    }

    private static func expand(_ tokens: ArraySlice<String>, value: JSONValue?, prefix: [String], substitutions: [String],
                               into results: inout [(JSONPointer, [String])]) throws(Failure) {
        guard let token = tokens.first else {
            results.append((JSONPointer(tokens: prefix), substitutions))
            return
        }
        let rest = tokens.dropFirst()
        if token == wildcard, case .array(let items)? = value {
            for (index, item) in items.enumerated() {
                try expand(rest, value: item, prefix: prefix + [String(index)], substitutions: substitutions + [String(index)],
                           into: &results)
            }
            return
        }
        let substitutions = token == wildcard ? substitutions + [wildcard] : substitutions
        if rest.isEmpty {
            results.append((JSONPointer(tokens: prefix + [token]), substitutions))
            return
        }
        guard let value, let child = child(of: value, token) else {
            throw Failure("no value at \(JSONPointer(tokens: prefix + [token]))")
        }
        try expand(rest, value: child, prefix: prefix + [token], substitutions: substitutions, into: &results)
    }

    private static func substitute(_ substitutions: [String], into pointer: JSONPointer) throws(Failure) -> JSONPointer {
        var remaining = substitutions[...]
        var tokens: [String] = []
        for token in pointer.tokens {
            if token == wildcard {
                guard let next = remaining.popFirst() else {
                    throw Failure("'path' has more '*' than 'from'")
                }
                tokens.append(next)
            } else {
                tokens.append(token)
            }
        }
        return JSONPointer(tokens: tokens)
    }

    // MARK: RFC 6902 semantics on concrete pointers

    private static func applyConcrete(_ operation: Operation, to document: inout JSONValue,
                                      budget: inout SizeBudget) throws(Failure) {
        switch operation {
        case .add(let path, let value):
            try budget.grow(by: value)
            try add(value, at: path, in: &document)
        case .remove(let path):
            _ = try remove(at: path, in: &document)
        case .replace(let path, let value):
            try budget.grow(by: value)
            guard let last = path.tokens.last else { document = value; return }
            try mutateParent(of: path, in: &document) { (parent: inout JSONValue) throws(Failure) in
                switch parent {
                case .object(var object):
                    guard object[last] != nil else { throw Failure("no member '\(last)' to replace") }
                    parent = .null
                    object[last] = value
                    parent = .object(object)
                case .array(var items):
                    guard let index = JSONPointer.arrayIndex(last), index < items.count else {
                        throw Failure("no element '\(last)' to replace (array of \(items.count))")
                    }
                    parent = .null
                    items[index] = value
                    parent = .array(items)
                default:
                    throw Failure("the parent is a \(parent.typeName), not an object or array")
                }
            }
        case .move(let from, let path):
            guard from != path else { return }
            guard !(path.tokens.count > from.tokens.count && Array(path.tokens.prefix(from.tokens.count)) == from.tokens) else {
                throw Failure("cannot move a value into one of its own children")
            }
            try budget.grow(bytes: path.tokens.last?.utf8.count ?? 0)
            let value = try remove(at: from, in: &document)
            try add(value, at: path, in: &document)
        case .copy(let from, let path):
            guard let value = value(at: from, in: document) else { throw Failure("no value at 'from' \(from)") }
            try budget.grow(by: value)  // before the copy is made
            try add(value, at: path, in: &document)
        case .test(let path, let expected):
            guard let actual = value(at: path, in: document) else { throw Failure("no value to test") }
            guard jsonEqual(actual, expected) else {
                throw Failure("test failed: found \(JSONSerializer.string(actual).prefix(80))")
            }
        case .reverse(let path):
            guard let last = path.tokens.last else {
                guard case .array(let items) = document else { throw Failure("the document is not an array") }
                document = .array(items.reversed())
                return
            }
            try mutateParent(of: path, in: &document) { (parent: inout JSONValue) throws(Failure) in
                guard let target = child(of: parent, last) else { throw Failure("no value to reverse") }
                guard case .array(let items) = target else { throw Failure("x-reverse needs an array, found a \(target.typeName)") }
                try setChild(of: &parent, last, to: .array(items.reversed()))
            }
        }
    }

    private static func add(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue) throws(Failure) {
        guard let last = path.tokens.last else { document = value; return }
        try mutateParent(of: path, in: &document) { (parent: inout JSONValue) throws(Failure) in
            switch parent {
            case .object(var object):
                parent = .null
                object[last] = value
                parent = .object(object)
            case .array(var items):
                let index: Int
                if last == "-" {
                    index = items.count
                } else {
                    guard let parsed = JSONPointer.arrayIndex(last), parsed <= items.count else {
                        throw Failure("index '\(last)' is out of bounds for add (array of \(items.count))")
                    }
                    index = parsed
                }
                parent = .null
                items.insert(value, at: index)
                parent = .array(items)
            default:
                throw Failure("the parent is a \(parent.typeName), not an object or array")
            }
        }
    }

    private static func remove(at path: JSONPointer, in document: inout JSONValue) throws(Failure) -> JSONValue {
        guard let last = path.tokens.last else { throw Failure("cannot remove the whole document") }
        var removed = JSONValue.null
        try mutateParent(of: path, in: &document) { (parent: inout JSONValue) throws(Failure) in
            switch parent {
            case .object(var object):
                guard let value = object[last] else { throw Failure("no member '\(last)' to remove") }
                removed = value
                parent = .null
                object[last] = nil
                parent = .object(object)
            case .array(var items):
                guard let index = JSONPointer.arrayIndex(last), index < items.count else {
                    throw Failure("no element '\(last)' to remove (array of \(items.count))")
                }
                parent = .null
                removed = items.remove(at: index)
                parent = .array(items)
            default:
                throw Failure("the parent is a \(parent.typeName), not an object or array")
            }
        }
        return removed
    }

    /// Runs `body` on the parent of `path`'s target, in place. `path` must not be the root.
    private static func mutateParent(of path: JSONPointer, in document: inout JSONValue,
                                     _ body: (inout JSONValue) throws(Failure) -> Void) throws(Failure) {
        try mutate(&document, along: path.tokens.dropLast()[...], body)
    }

    private static func mutate(_ value: inout JSONValue, along tokens: ArraySlice<String>,
                               _ body: (inout JSONValue) throws(Failure) -> Void) throws(Failure) {
        guard let token = tokens.first else { return try body(&value) }
        guard var child = child(of: value, token) else { throw Failure("no value at '\(token)' on the way") }
        try mutate(&child, along: tokens.dropFirst(), body)
        try setChild(of: &value, token, to: child)
    }

    static func child(of value: JSONValue, _ token: String) -> JSONValue? {
        switch value {
        case .object(let object): return object[token]
        case .array(let items):
            guard let index = JSONPointer.arrayIndex(token), index < items.count else { return nil }
            return items[index]
        default: return nil
        }
    }

    private static func setChild(of value: inout JSONValue, _ token: String, to child: JSONValue) throws(Failure) {
        switch value {
        case .object(var object):
            value = .null  // drop the second reference so the write does not copy
            object[token] = child
            value = .object(object)
        case .array(var items):
            guard let index = JSONPointer.arrayIndex(token), index < items.count else { throw Failure("no element '\(token)'") }
            value = .null
            items[index] = child
            value = .array(items)
        default:
            throw Failure("a \(value.typeName) has no children")
        }
    }

    /// The value `pointer` refers to, or nil.
    static func value(at pointer: JSONPointer, in document: JSONValue) -> JSONValue? {
        var current = document
        for token in pointer.tokens {
            guard let next = child(of: current, token) else { return nil }
            current = next
        }
        return current
    }

    struct Failure: Error {
        let reason: String
        var exceedsSizeLimit = false
        init(_ reason: String, exceedsSizeLimit: Bool = false) {
            self.reason = reason
            self.exceedsSizeLimit = exceedsSizeLimit
        }
    }
}

extension JSONPatch.Operation {
    func with(path: JSONPointer) -> JSONPatch.Operation {
        switch self {
        case .add(_, let value): return .add(path: path, value: value)
        case .remove: return .remove(path: path)
        case .replace(_, let value): return .replace(path: path, value: value)
        case .move(let from, _): return .move(from: from, path: path)
        case .copy(let from, _): return .copy(from: from, path: path)
        case .test(_, let value): return .test(path: path, value: value)
        case .reverse: return .reverse(path: path)
        }
    }
}

/// Why a JSON Patch could not be applied.
public struct JSONPatchError: Error, Sendable, CustomStringConvertible {
    /// The index of the failing operation.
    public let operationIndex: Int
    public let reason: String
    /// The patch stopped because its result would pass the size limit it was given.
    public var exceedsSizeLimit = false

    public var description: String { "patch operation \(operationIndex) (\(reason))" }
}
