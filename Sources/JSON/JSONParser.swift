/// A strict RFC 8259 parser producing `JSONValue`s (object key order kept).
public struct JSONParser {
    /// Where and why parsing failed.
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    public static func parse(_ text: String) throws(JSONParser.Error) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse<C: Collection>(_ bytes: C) throws(JSONParser.Error) -> JSONValue where C.Element == UInt8 {
        var parser = JSONParser(bytes: Array(bytes))
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the document") }
        return value
    }

    /// Parses `bytes` and says where each value is in them: the byte range of every value by its
    /// JSON Pointer (`""` the document, `/response/body`…), for copying a value's text verbatim.
    public static func parseWithSpans<C: Collection>(_ bytes: C) throws(JSONParser.Error) -> (value: JSONValue, spans: [String: Range<Int>])
    where C.Element == UInt8 {
        var parser = JSONParser(bytes: Array(bytes))
        parser.spans = [:]
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the document") }
        return (value, parser.spans ?? [:])
    }

    private let bytes: [UInt8]
    private var index = 0
    /// With `parseWithSpans`: the spans found so far, and the pointer of the value being parsed.
    private var spans: [String: Range<Int>]?
    private var pointer = ""
    private static let maxDepth = 512

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> Error { Error(offset: index, reason: reason) }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth)") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        guard spans == nil else {
            let start = index
            let value = try parseBareValue(depth: depth)
            spans?[pointer] = start..<index
            return value
        }
        return try parseBareValue(depth: depth)
    }

    /// The value at `index` (depth and end of input checked).
    private mutating func parseBareValue(depth: Int) throws(JSONParser.Error) -> JSONValue {
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func expect(_ literal: String) throws(JSONParser.Error) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal, expected \(literal)") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject()) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value: JSONValue
            if spans == nil {
                value = try parseValue(depth: depth + 1)
            } else {
                let outer = pointer
                pointer += "/" + JSONPointer.escape(key)
                defer { pointer = outer }
                value = try parseValue(depth: depth + 1)
            }
            if seen.insert(key).inserted { members.append((key, value)) } else {
                // Duplicate keys: the last one wins, as in most parsers.
                if let i = members.firstIndex(where: { $0.0 == key }) { members[i].1 = value }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("expected ',' or '}'")
        }
        return .object(JSONObject(members))
    }

    private mutating func parseArray(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array([]) }
        while true {
            skipWhitespace()
            if spans == nil {
                items.append(try parseValue(depth: depth + 1))
            } else {
                let outer = pointer
                pointer += "/\(items.count)"
                defer { pointer = outer }
                items.append(try parseValue(depth: depth + 1))
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']'")
        }
        return .array(items)
    }

    private mutating func parseHex4() throws(JSONParser.Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(JSONParser.Error) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") { index += 1; break }
            if c < 0x20 { throw error("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid code point") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
        return s
    }

    private mutating func parseNumber() throws(JSONParser.Error) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw error("invalid number: no digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw error("invalid number: no exponent digits") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int(text) { return .integer(i) }
        guard let d = Double(text) else { throw error("invalid number") }
        return .number(d)
    }
}
