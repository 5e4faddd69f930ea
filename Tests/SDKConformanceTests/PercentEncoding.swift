/// Percent-encoding of UTF-8 text the way the SDKs' HTTP libraries do it: ASCII letters and digits
/// always kept, a given set of other ASCII characters kept, every other byte as `%XX` (upper-case
/// hex, as JavaScript's `encodeURIComponent` and Dart's `Uri.encodeComponent` write it).
enum PercentEncoding {
    /// - Parameters:
    ///   - keeping: the ASCII characters besides letters and digits left as they are.
    ///   - spaceAsPlus: a space becomes `+` (axios) instead of `%20` (dio).
    static func encode(_ text: String, keeping: String, spaceAsPlus: Bool) -> String {
        let kept = Set(keeping.utf8)
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where kept.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where spaceAsPlus:
                out += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
