/// How recordings tell requests that differ only in their key apart without holding the key.
///
/// A key becomes a token: `<redacted:empty>` for `apikey=` and `<redacted:key#1a2b3c>` (24 bits
/// of FNV-1a of the key) for any other — enough to keep a 401 for a wrong key apart from a 200
/// for the right one, far too little to recover or confirm a key. A token stays itself, so a
/// recording read back from a file keeps its class.
public enum VMKeyRedaction {
    static let prefix = "<redacted:"

    /// The token for an `apikey` value (the value itself when it already is a token).
    public static func token(for key: String) -> String {
        if isToken(key) { return key }
        if key.isEmpty { return prefix + "empty>" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash >> 40, radix: 16)
        return prefix + "key#" + String(repeating: "0", count: 6 - digits.count) + digits + ">"
    }

    /// Whether `value` is a redaction token rather than a key.
    public static func isToken(_ value: String) -> Bool { value.hasPrefix(prefix) && value.hasSuffix(">") }
}
