/// The scheme and authority a client reached the simulator by (`http://10.0.2.2:8080`, or
/// `https://maps.vietmap.vn` in proxy mode): the base of the absolute URLs inside a generated
/// style (reference map-screens §4 — an Android emulator reaches the host as `10.0.2.2`, GL JS
/// refuses relative sprite URLs, the style spec wants absolute glyph URLs).
///
/// Read from the request's `Host` (or `X-Forwarded-Host`/`X-Forwarded-Proto` when a proxy in
/// front set them). A value that is not a plausible `host[:port]` — a path, a query, spaces,
/// CR/LF, an `@`, a port out of range: host-header injection — is never echoed; the listening
/// address stands in for it.
public struct MapBaseURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// `host[:port]`, lower-cased (`10.0.2.2:8080`, `[::1]:8080`, `maps.vietmap.vn`).
    public let authority: String

    /// Nil when `scheme` is not http(s) or `authority` is not a plausible `host[:port]`.
    public init?(scheme: String, authority: String) {
        let scheme = scheme.lowercased()
        guard scheme == "http" || scheme == "https", Self.isPlausibleAuthority(authority) else { return nil }
        self.scheme = scheme
        self.authority = authority.lowercased()
    }

    /// `scheme://authority`, no trailing `/`.
    public var description: String { scheme + "://" + authority }

    /// The base a request names: `X-Forwarded-Host` (its first entry) over `Host`, `X-Forwarded-Proto`
    /// (first entry, http or https) over `fallback`'s scheme; `fallback` (the listening address) when
    /// the host named is missing or not plausible.
    public static func resolve(host: String?, forwardedHost: String? = nil, forwardedProto: String? = nil,
                               fallback: MapBaseURL) -> MapBaseURL {
        func first(_ list: String?) -> String? {
            guard let list else { return nil }
            let item = list.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = item.trimmingSpaces
            return trimmed.isEmpty ? nil : trimmed
        }
        var scheme = fallback.scheme
        if let proto = first(forwardedProto)?.lowercased(), proto == "http" || proto == "https" { scheme = proto }
        let named = first(forwardedHost) ?? host.map(\.trimmingSpaces)
        guard let named, let base = MapBaseURL(scheme: scheme, authority: named) else { return fallback }
        return base
    }

    /// The most bytes of an authority echoed (a DNS name is at most 253, a port adds 6).
    public static let maxAuthorityBytes = 260

    /// `host[:port]`: a DNS name or IPv4 address (letters, digits, `-`, `.`; no empty label), or an
    /// IPv6 literal in brackets (hex digits, `:`, `.`), then optionally `:` and a port 1…65535.
    public static func isPlausibleAuthority(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maxAuthorityBytes else { return false }
        var hostEnd = bytes.count
        var index = 0
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
            guard bytes[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
            index = close + 1
            hostEnd = close + 1
            if index < bytes.count, bytes[index] != UInt8(ascii: ":") { return false }
        } else {
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) { hostEnd = colon }
            let host = bytes[0..<hostEnd]
            guard !host.isEmpty, host.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else { return false }
            // No empty label (`a..b`, a leading dot); one trailing dot is a fully-qualified name.
            var labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
            guard !labels.contains(where: \.isEmpty) else { return false }
            index = hostEnd
        }
        guard index < bytes.count else { return true }
        // `:port`
        let port = bytes[(index + 1)...]
        guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        let value = port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (1...65_535).contains(value)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
