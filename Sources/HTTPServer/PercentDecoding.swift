/// Percent-decoding of URL components (RFC 3986 `%XX` escapes).
enum PercentDecoding {
    enum Failure: Error {
        case invalidEscape
        case invalidUTF8
    }

    /// Strictly decodes `bytes` (valid UTF-8 apart from the escapes: a slice of a `String`'s
    /// bytes cut at ASCII delimiters): every `%` must start a two-hex-digit escape and the
    /// decoded bytes must be valid UTF-8. `plusIsSpace` turns `+` into a space (form
    /// encoding, used for query strings).
    static func decodeStrict(bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> Result<String, Failure> {
        var needsDecoding = false
        for byte in bytes where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            needsDecoding = true
            break
        }
        // Fast path: nothing to decode.
        if !needsDecoding { return .success(String(decoding: bytes, as: UTF8.self)) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < count,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return .failure(.invalidEscape) }
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        guard let string = String(validating: decoded, as: UTF8.self) else { return .failure(.invalidUTF8) }
        return .success(string)
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
