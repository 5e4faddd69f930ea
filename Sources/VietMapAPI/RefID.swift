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
    /// Prefixes of the base64 forms accepted on input.
    static let acceptedPrefixes = ["auto:", "geocode:"]
    /// The v3 form's prefix: `vm:KIND:HEX`.
    static let v3Prefix = "vm:"

    /// How an id is written: autocomplete v4 hands out `auto:…`, search v4 `geocode:…`, the v3
    /// endpoints `vm:POI:…` / `vm:ADDRESS:…` (uppercase hex). Every form decodes to the same place
    /// in every place endpoint.
    public enum Style: Sendable {
        case autocomplete, geocode
        /// `vm:` + the kind word + `:` + hex.
        case v3(PlaceKind)
    }

    /// The `auto:` form.
    public var encoded: String { encoded(.autocomplete) }

    public func encoded(_ style: Style) -> String {
        let scrambled = scrambledBytes
        switch style {
        case .autocomplete: return "auto:" + Self.base64URL(scrambled)
        case .geocode: return "geocode:" + Self.base64URL(scrambled)
        case .v3(let kind): return Self.v3Prefix + (kind == .poi ? "POI:" : "ADDRESS:") + Self.hex(scrambled)
        }
    }

    private var scrambledBytes: [UInt8] {
        var plain: [UInt8] = []
        plain.reserveCapacity(key.utf8.count + 4)
        plain.append(Self.version)
        plain.append(UInt8(format.rawValue))
        plain.append(contentsOf: key.utf8)
        let check = Self.checksum(plain)
        plain.append(UInt8(check >> 8))
        plain.append(UInt8(check & 0xFF))
        return Self.scramble(plain)
    }

    /// `nil` for anything that is not an intact id of ours.
    public init?(decoding text: String) {
        let data: [UInt8]
        if text.hasPrefix(Self.v3Prefix) {
            // vm:KIND:HEX — the kind word is not checked (the bytes carry the place).
            let rest = text.utf8.dropFirst(Self.v3Prefix.utf8.count)
            guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let hex = rest[rest.index(after: colon)...]
            guard hex.count >= 8, hex.count < 8192, let decoded = Self.decodeHex(hex) else { return nil }
            data = decoded
        } else {
            guard let prefix = Self.acceptedPrefixes.first(where: { text.hasPrefix($0) }) else { return nil }
            let encoded = text.utf8.dropFirst(prefix.utf8.count)
            guard encoded.count >= 6, encoded.count < 4096, let decoded = Self.decodeBase64URL(encoded) else { return nil }
            data = decoded
        }
        guard data.count >= 4 else { return nil }
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

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Uppercase hex, two digits a byte.
    static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Hex of either case; nil on an odd length or another byte.
    static func decodeHex<C: Collection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
        guard text.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var high: UInt8?
        for c in text {
            guard let value = nibble(c) else { return nil }
            if let h = high { out.append(h << 4 | value); high = nil } else { high = value }
        }
        return out
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
