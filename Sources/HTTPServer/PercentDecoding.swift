/// Percent-decoding of URL components (RFC 3986 `%XX` escapes).
enum PercentDecoding {
    enum Failure: Error {
        case invalidEscape
        case invalidUTF8
    }

    /// Strictly decodes `component`: every `%` must start a two-hex-digit escape and
    /// the decoded bytes must be valid UTF-8. `plusIsSpace` turns `+` into a space
    /// (form encoding, used for query strings).
    static func decodeStrict(_ component: Substring, plusIsSpace: Bool) throws(Failure) -> String {
        let utf8 = component.utf8
        // Fast path: nothing to decode.
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(component)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { throw .invalidEscape }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex,
                      let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
                else { throw .invalidEscape }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
                continue
            }
            bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return decoded
    }

    /// Leniently decodes a path: valid `%XX` escapes are decoded, anything else is kept
    /// as received, and invalid UTF-8 is repaired with U+FFFD. `+` stays `+`.
    static func decodeLenient(_ component: Substring) -> String {
        let utf8 = component.utf8
        guard utf8.contains(UInt8(ascii: "%")) else { return String(component) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex,
                       let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
            }
            bytes.append(byte)
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
