import JSON

/// The shape of one or more JSON documents — per location, the JSON types seen (integers count as
/// numbers), the keys of objects and how often each is present — for "same keys, types and
/// nullability" comparisons such as a recorded live fixture against a simulator answer.
package final class JSONShape: @unchecked Sendable {
    // @unchecked: built once in init, immutable afterwards.
    package private(set) var types: Set<String> = []
    package private(set) var objectCount = 0
    package private(set) var keys: [(key: String, count: Int, shape: JSONShape)] = []
    package private(set) var element: JSONShape?

    package init(_ values: [JSONValue]) {
        for value in values { add(value) }
    }

    public convenience init(_ value: JSONValue) { self.init([value]) }

    private func add(_ value: JSONValue) {
        let type = value.typeName == "integer" ? "number" : value.typeName
        types.insert(type)
        switch value {
        case .object(let object):
            objectCount += 1
            for (key, member) in object {
                if let index = keys.firstIndex(where: { $0.key == key }) {
                    keys[index].count += 1
                    keys[index].shape.add(member)
                } else {
                    keys.append((key, 1, JSONShape([member])))
                }
            }
        case .array(let items):
            for item in items {
                if let element { element.add(item) } else { element = JSONShape([item]) }
            }
        default:
            break
        }
    }

    /// Differences of `actual` from `expected` (e.g. a fixture): every type `expected` has at a
    /// location must occur in `actual` there, every key of `expected` must exist in `actual`, and
    /// with `exact` every key `actual` always has must exist in `expected`.
    package static func differences(expected: JSONShape, actual: JSONShape, exact: Bool, path: String = "") -> [String] {
        var out: [String] = []
        let at = path.isEmpty ? "/" : path
        let missingTypes = expected.types.subtracting(actual.types)
        if !missingTypes.isEmpty {
            out.append("\(at): expected \(missingTypes.sorted().joined(separator: "|")), got \(actual.types.sorted().joined(separator: "|"))")
        }
        for entry in expected.keys {
            let keyPath = ContractPointer.appending(path, entry.key)
            guard let other = actual.keys.first(where: { $0.key == entry.key }) else {
                out.append("\(keyPath): missing (the expected shape has it)")
                continue
            }
            if entry.count == expected.objectCount && other.count < actual.objectCount {
                out.append("\(keyPath): not always present (\(other.count) of \(actual.objectCount) objects)")
            }
            out += differences(expected: entry.shape, actual: other.shape, exact: exact, path: keyPath)
        }
        if exact {
            for entry in actual.keys where entry.count == actual.objectCount && !expected.keys.contains(where: { $0.key == entry.key }) {
                out.append("\(ContractPointer.appending(path, entry.key)): extra key (not in the expected shape)")
            }
        }
        if let e = expected.element, let a = actual.element {
            out += differences(expected: e, actual: a, exact: exact, path: path + "/*")
        } else if expected.element != nil && actual.types.contains("array") && actual.element == nil {
            out.append("\(at)/*: no elements to compare")
        }
        return out
    }
}
