import Foundation

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
/// Names are compared exactly (case-sensitive), as the query string is. Parsed ones keep the
/// text they were read from (`receivedText`) until their items change: one query, never two
/// copies to keep in step.
public struct QueryParameters: Sendable, Equatable {
    public var items: [(name: String, value: String)] {
        didSet { receivedText = nil }
    }

    /// The text these parameters were parsed from, exactly as received (`text=ben%20thanh`); nil
    /// for parameters built in code or changed since (`text` then encodes the items).
    public private(set) var receivedText: String?

    public init(_ items: [(name: String, value: String)] = []) {
        self.items = items
    }

    /// The query as text: as received, else the items percent-encoded (`name=value&…`).
    public var text: String {
        if let receivedText { return receivedText }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        func encode(_ part: String) -> String { part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part }
        return items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Parses a raw query (without the leading `?`): `&`-separated `name=value` pairs,
    /// `+` means space, `%XX` escapes must be valid and decode to UTF-8.
    /// Empty pairs (`a=1&&b=2`) are skipped; a pair without `=` has the value `""`.
    /// Works on the UTF-8 bytes: `&`, `=`, `%` and `+` are ASCII, so they never occur inside
    /// a multi-byte character.
    public init(parsing rawQuery: String) throws(QueryParseError) {
        var query = rawQuery
        let parsed = query.withUTF8 { Self.parse($0) }
        switch parsed {
        case .success(let items): self.items = items
        case .failure(let error): throw error
        }
        receivedText = rawQuery
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[(name: String, value: String)], QueryParseError> {
        var items: [(name: String, value: String)] = []
        var start = 0
        let count = bytes.count
        // One allocation for a usual query: at most one parameter more than there are `&` (room for
        // 16 at first, so a URL of empty `&&&…` parts reserves nothing large).
        if count > 0 {
            var separators = 0
            for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
            items.reserveCapacity(min(separators + 1, 16))
        }
        while start < count {
            var end = start
            var equals = -1
            while end < count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "&") { break }
                if byte == UInt8(ascii: "="), equals < 0 { equals = end }
                end += 1
            }
            if end > start {
                let nameEnd = equals >= 0 ? equals : end
                let name: String, value: String
                switch decode(UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])) {
                case .success(let decoded): name = decoded
                case .failure(let error): return .failure(error)
                }
                if equals >= 0 {
                    switch decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end])) {
                    case .success(let decoded): value = decoded
                    case .failure(let error): return .failure(error)
                    }
                } else {
                    value = ""
                }
                items.append((name, value))
            }
            start = end + 1
        }
        return .success(items)
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

    private static func decode(_ component: UnsafeBufferPointer<UInt8>) -> Result<String, QueryParseError> {
        switch PercentDecoding.decodeStrict(bytes: component, plusIsSpace: true) {
        case .success(let decoded): return .success(decoded)
        case .failure(.invalidEscape): return .failure(.invalidPercentEscape(component: String(decoding: component, as: UTF8.self)))
        case .failure(.invalidUTF8): return .failure(.invalidUTF8(component: String(decoding: component, as: UTF8.self)))
        }
    }
}
