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
/// 3. With a token, `Authorization: Bearer <token>` → else 401 `token`.
/// 4. A state-changing request (any method but GET/HEAD) must not be a CORS "simple" request:
///    it needs `X-VietMap-Sim-Admin: 1` or `Content-Type: application/json`, which a page can
///    only send cross-origin after a preflight the admin API never grants → else 403 `simple-request`.
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
            let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
            let marked = request.headers[Self.headerName] != nil
            if !marked, !contentType.hasPrefix("application/json") {
                return Refusal(status: 403, reason: "simple-request",
                               message: "a state-changing admin request needs the header '\(Self.headerName): 1' or 'Content-Type: application/json'")
            }
        }
        return nil
    }

    /// Whether `host` (a `Host` header: name or address, optional `:port`) may reach the admin API.
    func allowed(host: String) -> Bool {
        let name = Self.hostName(host).lowercased()
        if name == "localhost" || name == "::1" || name.hasPrefix("127.") && Self.isIPv4(name) { return true }
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
