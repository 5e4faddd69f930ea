/// Writes `JSONValue`s as indented UTF-8 JSON for files people read and edit (scenario files):
/// two spaces per level, and any array or object whose compact form fits in `inlineWidth`
/// bytes on one line. Parsing the output gives the same value back.
public enum JSONPrettyPrinter {
    public static func string(_ value: JSONValue, inlineWidth: Int = 100) -> String {
        var out: [UInt8] = []
        write(value, indent: 0, inlineWidth: inlineWidth, into: &out)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
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

    private static func write(_ value: JSONValue, indent: Int, inlineWidth: Int, into out: inout [UInt8]) {
        let compact = inline(value)
        let isEmptyContainer: Bool
        switch value {
        case .array(let items): isEmptyContainer = items.isEmpty
        case .object(let object): isEmptyContainer = object.count == 0
        default:
            out.append(contentsOf: compact)
            return
        }
        if isEmptyContainer || compact.count + indent <= inlineWidth {
            out.append(contentsOf: compact)
            return
        }
        let inner = Array(repeating: UInt8(ascii: " "), count: indent + 2)
        switch value {
        case .array(let items):
            out.append(contentsOf: Array("[\n".utf8))
            for (index, item) in items.enumerated() {
                out.append(contentsOf: inner)
                write(item, indent: indent + 2, inlineWidth: inlineWidth, into: &out)
                out.append(contentsOf: Array((index + 1 < items.count ? ",\n" : "\n").utf8))
            }
            out.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: indent))
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(contentsOf: Array("{\n".utf8))
            for (index, member) in object.members.enumerated() {
                out.append(contentsOf: inner)
                out.append(contentsOf: JSONSerializer.bytes(.string(member.key)))
                out.append(contentsOf: Array(": ".utf8))
                write(member.value, indent: indent + 2, inlineWidth: inlineWidth, into: &out)
                out.append(contentsOf: Array((index + 1 < object.count ? ",\n" : "\n").utf8))
            }
            out.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: indent))
            out.append(UInt8(ascii: "}"))
        default:
            break
        }
    }
}
