/// Writes `JSONValue`s as indented UTF-8 JSON for files people read and edit (scenario files):
/// two spaces per level, and any array or object whose compact form fits in `inlineWidth`
/// bytes on one line. Parsing the output gives the same value back.
public enum JSONPrettyPrinter {
    /// The output would have been longer than the limit; `pointer` is where it went over
    /// (a JSON pointer: `/rules/3/respond/text`).
    public struct Overflow: Error, Sendable {
        public fileprivate(set) var components: [String] = []
        public var pointer: String {
            components.map { component in
                "/" + component.map { $0 == "~" ? "~0" : $0 == "/" ? "~1" : String($0) }.joined()
            }.joined()
        }
    }

    public static func string(_ value: JSONValue, inlineWidth: Int = 100) -> String {
        String(decoding: (try? bytes(value, inlineWidth: inlineWidth, limit: .max)) ?? [], as: UTF8.self)
    }

    /// The indented UTF-8 (ending in a newline), or `Overflow` as soon as it would pass `limit`
    /// bytes: a big string is measured before it is copied, so memory stays within the limit.
    public static func bytes(_ value: JSONValue, inlineWidth: Int = 100, limit: Int) throws(Overflow) -> [UInt8] {
        var out: [UInt8] = []
        try write(value, indent: 0, inlineWidth: inlineWidth, limit: limit, into: &out)
        out.append(UInt8(ascii: "\n"))
        guard out.count <= limit else { throw Overflow() }
        return out
    }

    /// The length of `inline(value)` when it is at most `limit`, else nil — without building
    /// it, and stopping as soon as the limit is passed (big documents stay linear).
    private static func inlineLength(_ value: JSONValue, limit: Int) -> Int? {
        guard limit >= 0 else { return nil }
        switch value {
        case .string(let text):
            guard text.utf8.count + 2 <= limit else { return nil }
            let length = JSONSerializer.bytes(value).count
            return length <= limit ? length : nil
        case .array(let items):
            var length = 2 + max(0, items.count - 1) * 2
            for item in items {
                guard length <= limit, let itemLength = inlineLength(item, limit: limit - length) else { return nil }
                length += itemLength
            }
            return length <= limit ? length : nil
        case .object(let object):
            var length = 2 + max(0, object.count - 1) * 2
            for member in object.members {
                guard length <= limit, let keyLength = inlineLength(.string(member.key), limit: limit - length - 2) else { return nil }
                length += keyLength + 2
                guard let valueLength = inlineLength(member.value, limit: limit - length) else { return nil }
                length += valueLength
            }
            return length <= limit ? length : nil
        default:
            let length = JSONSerializer.bytes(value).count
            return length <= limit ? length : nil
        }
    }

    /// One line, with a space after `,` and `:`.
    private static func inline(_ value: JSONValue) -> [UInt8] {
        switch value {
        case .array(let items):
            return Array("[".utf8) + Array(items.map(inline).joined(separator: Array(", ".utf8))) + Array("]".utf8)
        case .object(let object):
            let members = object.members.map { JSONSerializer.bytes(.string($0.key)) + Array(": ".utf8) + inline($0.value) }
            return Array("{".utf8) + Array(members.joined(separator: Array(", ".utf8))) + Array("}".utf8)
        default:
            return JSONSerializer.bytes(value)
        }
    }

    private static func write(_ value: JSONValue, indent: Int, inlineWidth: Int, limit: Int,
                              into out: inout [UInt8]) throws(Overflow) {
        switch value {
        case .array, .object:
            if inlineLength(value, limit: inlineWidth - indent) != nil {
                out.append(contentsOf: inline(value))
                guard out.count <= limit else { throw Overflow() }
                return
            }
        case .string(let text):
            guard out.count + JSONSerializer.serializedLength(text) <= limit else { throw Overflow() }
            JSONSerializer.write(value, into: &out)
            return
        default:
            out.append(contentsOf: JSONSerializer.bytes(value))
            guard out.count <= limit else { throw Overflow() }
            return
        }
        let inner = Array(repeating: UInt8(ascii: " "), count: indent + 2)
        switch value {
        case .array(let items):
            out.append(contentsOf: Array("[\n".utf8))
            for (index, item) in items.enumerated() {
                out.append(contentsOf: inner)
                do {
                    try write(item, indent: indent + 2, inlineWidth: inlineWidth, limit: limit, into: &out)
                } catch {
                    var located = error
                    located.components.insert(String(index), at: 0)
                    throw located
                }
                out.append(contentsOf: Array((index + 1 < items.count ? ",\n" : "\n").utf8))
            }
            out.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: indent))
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(contentsOf: Array("{\n".utf8))
            for (index, member) in object.members.enumerated() {
                out.append(contentsOf: inner)
                guard out.count + JSONSerializer.serializedLength(member.key) <= limit else {
                    throw Overflow(components: [member.key])
                }
                JSONSerializer.writeString(member.key, into: &out)
                out.append(contentsOf: Array(": ".utf8))
                do {
                    try write(member.value, indent: indent + 2, inlineWidth: inlineWidth, limit: limit, into: &out)
                } catch {
                    var located = error
                    located.components.insert(member.key, at: 0)
                    throw located
                }
                out.append(contentsOf: Array((index + 1 < object.count ? ",\n" : "\n").utf8))
            }
            out.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: indent))
            out.append(UInt8(ascii: "}"))
        default:
            break
        }
    }
}
