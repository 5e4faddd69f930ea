import Foundation
import HTTPServer

/// Keeps web pages away from the admin API (CSRF and DNS rebinding), checked on every
/// `/__sim/` request before it is routed:
///
/// 1. `Host` (when sent) must be a loopback name or address (`localhost`, `127.0.0.0/8`, `[::1]`)
///    or one of `extraHosts` (the `--host` address). With a wildcard in `extraHosts`
///    (`0.0.0.0`, `::`) any IP literal is accepted too — a rebinding attack needs a DNS name.
///    Otherwise 403 `host`.
/// 2. `Origin` (when sent) must be this server: `http(s)://` + the `Host` header. `Origin: null`
///    and any other origin → 403 `origin`.
/// 3. With a token, `Authorization: Bearer <token>` → else 401 `token`. (`ScenarioEngine` makes
///    one up when the server listens on a non-loopback address and none was given: a `Host`
///    header proves nothing about where a request comes from.)
/// 4. A state-changing request (any method but GET/HEAD) must come from no other site and must
///    not be a CORS "simple" request, however it is typed:
///    - `Sec-Fetch-Site` (sent by browsers), when present, must be `same-origin` or `none` (the
///      user typed it) — `same-site` and `cross-site` → 403 `cross-site`;
///    - it needs `X-VietMap-Sim-Admin: 1`, or a `Content-Type` whose media type is exactly
///      `application/json` with at most a `charset` parameter — which a page on another origin
///      can only send after a preflight the admin API never grants. `application/json;x` or
///      `text/plain` → 403 `simple-request`.
struct AdminGuard: Sendable {
    /// Why a request was refused: status, a short machine-readable reason and a message.
    struct Refusal: Sendable, Equatable {
        let status: Int
        let reason: String
        let message: String
    }

    static let headerName = "X-VietMap-Sim-Admin"

    let token: String?
    let extraHosts: [String]

    /// - Parameter tokenRequired: false for files that hold no data (the dashboard page itself, which
    ///   a browser loads by navigation and cannot send a token with).
    func check(_ request: HTTPRequest, tokenRequired: Bool = true) -> Refusal? {
        let host = request.headers["Host"]
        if let host, !allowed(host: host) {
            return Refusal(status: 403, reason: "host",
                           message: "Host '\(host.prefix(100))' is not a loopback name or the server's address (DNS rebinding guard)")
        }
        if let origin = request.headers["Origin"] {
            let sameOrigin = host.map { host in
                ["http://", "https://"].contains { origin.caseInsensitiveCompare($0 + host) == .orderedSame }
            } ?? false
            if !sameOrigin {
                return Refusal(status: 403, reason: "origin",
                               message: "cross-origin admin request from '\(origin.prefix(100))' refused")
            }
        }
        if let token, tokenRequired {
            let given = request.headers["Authorization"].flatMap { value -> String? in
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
            guard let given, Self.constantTimeEqual(given, token) else {
                return Refusal(status: 401, reason: "token", message: "the admin API needs 'Authorization: Bearer <admin token>'")
            }
        }
        if request.method != "GET", request.method != "HEAD" {
            let fetchSites = request.headers.values(for: "Sec-Fetch-Site").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if let site = fetchSites.first(where: { $0 != "same-origin" && $0 != "none" }) {
                return Refusal(status: 403, reason: "cross-site",
                               message: "a state-changing admin request from another site (Sec-Fetch-Site: \(site.prefix(40))) refused")
            }
            let marked = request.headers[Self.headerName] != nil
            let contentTypes = request.headers.values(for: "Content-Type")
            if !marked, contentTypes.count != 1 || !Self.isJSONMediaType(contentTypes[0]) {
                return Refusal(status: 403, reason: "simple-request",
                               message: "a state-changing admin request needs the header '\(Self.headerName): 1' or "
                                   + "'Content-Type: application/json' (at most a charset parameter)")
            }
        }
        return nil
    }

    /// Whether `contentType` is the media type `application/json` with no parameter but an
    /// optional `charset` (`application/json; charset=utf-8`).
    static func isJSONMediaType(_ contentType: String) -> Bool {
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
        guard parts[0].lowercased() == "application/json", parts.count <= 2 else { return false }
        guard parts.count == 2 else { return true }
        let parameter = parts[1].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parameter.count == 2, parameter[0].lowercased() == "charset" else { return false }
        var value = Substring(parameter[1])
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        return !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: ";") }
    }

    /// Whether `host` (a `--host` value or a `Host` header's name) is a loopback name or address.
    static func isLoopback(_ host: String) -> Bool {
        let name = hostName(host).lowercased()
        return name == "localhost" || name == "::1" || name.hasPrefix("127.") && isIPv4(name)
    }

    /// Whether `host` (a `Host` header: name or address, optional `:port`) may reach the admin API.
    func allowed(host: String) -> Bool {
        let name = Self.hostName(host).lowercased()
        if Self.isLoopback(name) { return true }
        let extras = extraHosts.map { Self.hostName($0).lowercased() }
        if extras.contains(name) { return true }
        let wildcard = extras.contains { $0 == "0.0.0.0" || $0 == "::" }
        return wildcard && (Self.isIPv4(name) || name.contains(":"))
    }

    /// `[::1]:8080` → `::1`, `localhost:8080` → `localhost`, `::1` → `::1`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            return String(host[..<colon])
        }
        return host
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255
        }
    }

    /// A fresh admin token: 128 random bits as 32 hex digits.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
