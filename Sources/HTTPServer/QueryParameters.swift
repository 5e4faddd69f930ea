/// Why a raw query string could not be decoded. The API layer answers such requests with 400.
public enum QueryParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `%` not followed by two hex digits, e.g. `%G1` or a trailing `%`.
    case invalidPercentEscape(component: String)
    /// The escapes decode to bytes that are not UTF-8, e.g. the truncated `%E1%BB`.
    case invalidUTF8(component: String)

    public var description: String {
        switch self {
        case .invalidPercentEscape(let component):
            return "invalid percent-escape in query component \"\(component)\""
        case .invalidUTF8(let component):
            return "query component \"\(component)\" does not decode to UTF-8"
        }
    }
}

/// Decoded `application/x-www-form-urlencoded` query parameters.
///
/// Keeps the order of the query and repeated names (`point=1,2&point=3,4`).
/// Names are compared exactly (case-sensitive), as the query string is.
public struct QueryParameters: Sendable, Equatable {
    public var items: [(name: String, value: String)]

    public init(_ items: [(name: String, value: String)] = []) {
        self.items = items
    }

    /// Parses a raw query (without the leading `?`): `&`-separated `name=value` pairs,
    /// `+` means space, `%XX` escapes must be valid and decode to UTF-8.
    /// Empty pairs (`a=1&&b=2`) are skipped; a pair without `=` has the value `""`.
    public init(parsing rawQuery: String) throws(QueryParseError) {
        var items: [(name: String, value: String)] = []
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            items.append((try Self.decode(name), try Self.decode(value)))
        }
        self.items = items
    }

    /// The value of the first parameter called `name`.
    public func first(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// The values of every parameter called `name`, in query order.
    public func all(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// The value of the first parameter whose name is any of `names` (aliases such as
    /// `["display_type", "displayType"]`), in query order.
    public func first(anyOf names: [String]) -> String? {
        items.first { names.contains($0.name) }?.value
    }

    /// Whether any parameter is called `name`.
    public func contains(_ name: String) -> Bool {
        items.contains { $0.name == name }
    }

    public var isEmpty: Bool { items.isEmpty }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.name == $1.name && $0.value == $1.value }
    }

    private static func decode(_ component: Substring) throws(QueryParseError) -> String {
        do {
            return try PercentDecoding.decodeStrict(component, plusIsSpace: true)
        } catch {
            switch error {
            case .invalidEscape: throw .invalidPercentEscape(component: String(component))
            case .invalidUTF8: throw .invalidUTF8(component: String(component))
            }
        }
    }
}
