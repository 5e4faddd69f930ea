/// A JSON Pointer (RFC 6901): `""` is the whole document, `/a/0/b~1c` the member `b/c` of
/// the first element of `a` (`~0` escapes `~`, `~1` escapes `/`).
///
///     let pointer = try JSONPointer(parsing: "/paths/0/points")
///     pointer.tokens  // ["paths", "0", "points"]
public struct JSONPointer: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens.
    public let tokens: [String]

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the string form.
    /// - Throws: `JSONPointer.SyntaxError` when it does not start with `/` (and is not empty),
    ///   or a `~` is not followed by `0` or `1`.
    public init(parsing text: String) throws(SyntaxError) {
        guard !text.isEmpty else { self.tokens = []; return }
        guard text.hasPrefix("/") else { throw SyntaxError(reason: "a JSON pointer must be empty or start with '/'") }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else { token.append(character); continue }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw SyntaxError(reason: "'~' must be followed by '0' or '1' in a JSON pointer")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The string form, tokens escaped.
    public var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// The pointer to a child of this one.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// `~` → `~0`, `/` → `~1`.
    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        var out = ""
        for character in token {
            switch character {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(character)
            }
        }
        return out
    }

    /// The tokens of `text`, or `nil` when it is not a valid pointer.
    public static func tokens(_ text: String) -> [String]? {
        (try? JSONPointer(parsing: text))?.tokens
    }

    /// The value this pointer designates in `document`, or `nil` when there is none.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Self.arrayIndex(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The array index a token denotes: decimal digits without leading zeros.
    public static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              token == "0" || !token.hasPrefix("0") else { return nil }
        return Int(token)
    }

    /// Why a pointer string is malformed.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }
}
