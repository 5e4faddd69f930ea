import JSON

/// RFC 6901 JSON pointers over `JSONValue`s, plus the `*` wildcard patterns the contract uses
/// for "every element" (`/paths/*/points`).
public enum JSONPointer {
    /// `"/paths/0/points"` → `["paths", "0", "points"]`; `""` → `[]`. `nil` when not a pointer.
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    public static func string(_ tokens: [String]) -> String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }

    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    public static func appending(_ pointer: String, _ index: Int) -> String { pointer + "/" + String(index) }

    /// The value at `pointer` in `value`, or nil.
    public static func resolve(_ pointer: String, in value: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = value
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), array.indices.contains(index), String(index) == token else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Array indexes replaced by `*`: `/paths/0/points` → `/paths/*/points`.
    public static func pattern(_ pointer: String) -> String {
        guard let tokens = tokens(pointer) else { return pointer }
        return string(tokens.map { token in
            !token.isEmpty && token.allSatisfy(\.isNumber) ? "*" : token
        })
    }

    /// `true` when `pointer` is matched by `pattern` (where `*` matches one token) or lies below it.
    public static func matches(_ pattern: String, _ pointer: String) -> Bool {
        guard let p = tokens(pattern), let t = tokens(pointer), t.count >= p.count else { return false }
        for (a, b) in zip(p, t) where a != "*" && a != b { return false }
        return true
    }
}
