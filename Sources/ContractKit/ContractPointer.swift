import JSON

/// String-form JSON pointers as the contract reports them, over `JSON.JSONPointer`, plus the
/// `*` wildcard patterns the contract uses for "every element" (`/paths/*/points`).
package enum ContractPointer {
    /// `"/paths/0/points"` → `["paths", "0", "points"]`; `""` → `[]`. `nil` when not a pointer.
    package static func tokens(_ pointer: String) -> [String]? { JSONPointer.tokens(pointer) }

    package static func string(_ tokens: [String]) -> String { JSONPointer(tokens: tokens).description }

    package static func appending(_ pointer: String, _ token: String) -> String { pointer + "/" + JSONPointer.escape(token) }

    package static func appending(_ pointer: String, _ index: Int) -> String { pointer + "/" + String(index) }

    /// The value at `pointer` in `value`, or nil.
    package static func resolve(_ pointer: String, in value: JSONValue) -> JSONValue? {
        (try? JSONPointer(parsing: pointer))?.resolve(in: value)
    }

    /// Array indexes replaced by `*`: `/paths/0/points` → `/paths/*/points`.
    package static func pattern(_ pointer: String) -> String {
        guard let tokens = tokens(pointer) else { return pointer }
        return string(tokens.map { JSONPointer.arrayIndex($0) != nil ? "*" : $0 })
    }

    /// `true` when `pointer` is matched by `pattern` (where `*` matches one token) or lies below it.
    package static func matches(_ pattern: String, _ pointer: String) -> Bool {
        guard let p = tokens(pattern), let t = tokens(pointer), t.count >= p.count else { return false }
        for (a, b) in zip(p, t) where a != "*" && a != b { return false }
        return true
    }
}
