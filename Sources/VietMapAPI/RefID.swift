import Foundation
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
        var plain: [UInt8] = [Self.version, UInt8(format.rawValue)] + Array(key.utf8)
        let check = Self.checksum(plain)
        plain += [UInt8(check >> 8), UInt8(check & 0xFF)]
        let scrambled = Self.scramble(plain)
        return "auto:" + Data(scrambled).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `nil` for anything that is not an intact id of ours.
    public init?(decoding text: String) {
        guard let prefix = Self.acceptedPrefixes.first(where: { text.hasPrefix($0) }) else { return nil }
        var b64 = String(text.dropFirst(prefix.count))
        guard !b64.isEmpty, b64.count < 4096,
              b64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        b64 = b64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), data.count >= 4 else { return nil }
        let plain = Self.scramble(Array(data))
        let body = Array(plain.dropLast(2))
        let check = UInt16(plain[plain.count - 2]) << 8 | UInt16(plain[plain.count - 1])
        guard Self.checksum(body) == check, body[0] == Self.version,
              let format = AddressFormat(rawValue: Int(body[1])),
              let key = String(validating: body.dropFirst(2), as: UTF8.self) else { return nil }
        self.init(key: key, format: format)
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
