import Search

/// The `ref_id` the simulator hands out: `auto:` + URL-safe base64 of the place's stable key and
/// the address format it was shown in (place v4 answers in that format, as live does).
///
/// The bytes are scrambled with a fixed keystream and carry a 16-bit checksum, so ids look opaque
/// like the live ones, stay identical across rebuilds of the same data, and a mangled id is a 404
/// rather than some other place.
public struct RefID: Sendable, Equatable {
    public var key: String
    public var format: AddressFormat

    public init(key: String, format: AddressFormat) {
        self.key = key
        self.format = format
    }

    static let version: UInt8 = 1
    /// Prefixes accepted on input; `auto:` is the one we emit.
    static let acceptedPrefixes = ["auto:", "geocode:"]

    public var encoded: String {
        var plain: [UInt8] = []
        plain.reserveCapacity(key.utf8.count + 4)
        plain.append(Self.version)
        plain.append(UInt8(format.rawValue))
        plain.append(contentsOf: key.utf8)
        let check = Self.checksum(plain)
        plain.append(UInt8(check >> 8))
        plain.append(UInt8(check & 0xFF))
        let scrambled = Self.scramble(plain)
        return "auto:" + Self.base64URL(scrambled)
    }

    /// `nil` for anything that is not an intact id of ours.
    public init?(decoding text: String) {
        guard let prefix = Self.acceptedPrefixes.first(where: { text.hasPrefix($0) }) else { return nil }
        let encoded = text.utf8.dropFirst(prefix.utf8.count)
        guard encoded.count >= 6, encoded.count < 4096, let data = Self.decodeBase64URL(encoded) else { return nil }
        let plain = Self.scramble(data)
        let body = Array(plain.dropLast(2))
        let check = UInt16(plain[plain.count - 2]) << 8 | UInt16(plain[plain.count - 1])
        guard Self.checksum(body) == check, body[0] == Self.version,
              let format = AddressFormat(rawValue: Int(body[1])),
              let key = String(validating: body.dropFirst(2), as: UTF8.self) else { return nil }
        self.init(key: key, format: format)
    }

    /// Decodes unpadded URL-safe base64; `nil` on any other byte or an impossible length.
    static func decodeBase64URL<C: Collection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in text {
            let value: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // A lone trailing character (6 bits) cannot come from any byte string.
        return bits >= 6 ? nil : out
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = base64Alphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            if i + 1 < bytes.count { out.append(alphabet[Int(triple >> 6 & 63)]) }
            if i + 2 < bytes.count { out.append(alphabet[Int(triple & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// XOR with a fixed pseudo-random keystream (its own inverse).
    static func scramble(_ bytes: [UInt8]) -> [UInt8] {
        var state: UInt32 = 0x9E37_79B9
        return bytes.map { byte in
            state = state &* 1_664_525 &+ 1_013_904_223
            return byte ^ UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt16 {
        var hash: UInt32 = 0x811C_9DC5
        for b in bytes { hash = (hash ^ UInt32(b)) &* 0x0100_0193 }
        return UInt16(truncatingIfNeeded: hash ^ (hash >> 16))
    }
}
