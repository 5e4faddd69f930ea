import Foundation
import HTTPServer
import JSON

/// The first request head a client sends to the proxy port, parsed: `CONNECT host:port`, an
/// absolute-form request (`GET http://host/path HTTP/1.1`) or an origin-form one.
struct ProxyRequestHead {
    enum Target: Equatable {
        /// `CONNECT host:port` (authority-form).
        case connect(host: String, port: UInt16)
        /// `METHOD scheme://host[:port]/path?query`; `pathAndQuery` starts with `/`.
        case absolute(scheme: String, host: String, port: UInt16, pathAndQuery: String)
        /// `METHOD /path`: a request meant for a server, not a proxy.
        case origin(String)
    }

    var method: String
    var target: Target
    var version: String
    /// Header lines as sent (name, value), in order.
    var headers: [(name: String, value: String)]
    /// The body's length (`Content-Length`; 0 without one). `Transfer-Encoding` is refused.
    var contentLength: Int

    /// Parses `head` (the bytes up to and including the blank line), strictly: the proxy must
    /// read a head exactly as the server behind it will, or a second request could hide in the
    /// first (request smuggling). So lines end with CRLF only (a bare LF or CR is refused),
    /// folded lines (obs-fold) and control characters are refused, names are tokens, and the
    /// body's framing is unambiguous: at most one `Host`, at most one `Content-Length` (digits),
    /// no `Transfer-Encoding` (the proxy forwards one body of known length), none of either
    /// on CONNECT. Throws a refusal (400) naming what is wrong.
    static func parse(_ head: [UInt8]) throws(ProxyRefusal) -> ProxyRequestHead {
        if let problem = lineEndingProblem(head) { throw .badRequest(problem) }
        guard let text = String(validating: head, as: UTF8.self) else {
            throw .badRequest("the request head is not valid UTF-8")
        }
        var lines = text.components(separatedBy: "\r\n")
        while lines.last == "" { lines.removeLast() }
        guard let requestLine = lines.first, !requestLine.isEmpty else { throw .badRequest("empty request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0",
              !parts[1].utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .badRequest("malformed request line '\(printable(requestLine.prefix(200)))' (expected 'METHOD TARGET HTTP/1.1')")
        }
        let method = String(parts[0])
        guard method.utf8.allSatisfy({ (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "-") }) else {
            throw .badRequest("malformed method '\(printable(method.prefix(40)))'")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                throw .badRequest("a header line starts with whitespace (obs-fold, a folded header): '\(printable(line.prefix(200)))'; "
                    + "send each header on one line")
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].utf8.allSatisfy(isTokenByte) else {
                throw .badRequest("malformed header line '\(printable(line.prefix(200)))'")
            }
            let value = line[line.index(after: colon)...]
            guard !value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw .badRequest("a control character in the value of header '\(line[..<colon].prefix(100))'")
            }
            headers.append((String(line[..<colon]), value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))))
        }
        let contentLength = try framing(method: method, headers: headers)
        let rawTarget = String(parts[1])
        let target: Target
        if method == "CONNECT" {
            guard let (host, port) = parseAuthority(rawTarget, defaultPort: nil) else {
                throw .badRequest("malformed CONNECT target '\(rawTarget.prefix(200))' (expected HOST:PORT, e.g. CONNECT maps.vietmap.vn:443)")
            }
            target = .connect(host: host, port: port)
        } else if rawTarget.hasPrefix("/") {
            target = .origin(rawTarget)
        } else if let schemeEnd = rawTarget.range(of: "://") {
            let scheme = rawTarget[..<schemeEnd.lowerBound].lowercased()
            let rest = rawTarget[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var pathAndQuery = String(rest[authorityEnd...])
            if let fragment = pathAndQuery.firstIndex(of: "#") { pathAndQuery = String(pathAndQuery[..<fragment]) }
            if !pathAndQuery.hasPrefix("/") { pathAndQuery = "/" + pathAndQuery }
            let defaultPort: UInt16? = scheme == "http" ? 80 : scheme == "https" ? 443 : nil
            guard let defaultPort else {
                throw .badRequest("unsupported scheme '\(scheme.prefix(20))' in '\(rawTarget.prefix(200))' (http:// or CONNECT only)")
            }
            guard let (host, port) = parseAuthority(String(rest[..<authorityEnd]), defaultPort: defaultPort) else {
                throw .badRequest("malformed host in '\(rawTarget.prefix(200))'")
            }
            target = .absolute(scheme: scheme, host: host, port: port, pathAndQuery: pathAndQuery)
        } else {
            throw .badRequest("malformed request target '\(rawTarget.prefix(200))'")
        }
        return ProxyRequestHead(method: method, target: target, version: String(parts[2]), headers: headers,
                                contentLength: contentLength)
    }

    /// Where `head` has a CR or LF that is not part of a CRLF pair, described; nil when none.
    static func lineEndingProblem(_ head: [UInt8]) -> String? {
        for (index, byte) in head.enumerated() {
            if byte == 10, index == 0 || head[index - 1] != 13 {
                return "a bare LF (line feed without carriage return) in the request head at byte \(index); lines end with CRLF"
            }
            if byte == 13, index + 1 < head.count, head[index + 1] != 10 {
                return "a bare CR (carriage return without line feed) in the request head at byte \(index); lines end with CRLF"
            }
        }
        return nil
    }

    /// The body length the head declares, or a refusal when its framing is ambiguous or not
    /// what the proxy forwards (RFC 9112 §6.3, §3.2).
    private static func framing(method: String, headers: [(name: String, value: String)]) throws(ProxyRefusal) -> Int {
        func named(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name }.map(\.value)
        }
        if named("host").count > 1 {
            throw .badRequest("more than one Host header")
        }
        if !named("transfer-encoding").isEmpty {
            throw .badRequest("Transfer-Encoding is not accepted by the proxy: it forwards one request with a Content-Length "
                + "(or use CONNECT)")
        }
        let lengths = named("content-length")
        guard let length = lengths.first else { return 0 }
        guard lengths.count == 1 else { throw .badRequest("more than one Content-Length header") }
        guard !length.isEmpty, length.count <= 15, length.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(length) else {
            throw .badRequest("malformed Content-Length '\(printable(length.prefix(40)))' (expected one number of bytes)")
        }
        if method == "CONNECT", value > 0 {
            throw .badRequest("a CONNECT request has no body (Content-Length \(value))")
        }
        return value
    }

    /// RFC 9110 `tchar`: the bytes of a header name or method.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `text` with control characters shown as `\u{…}` escapes, for messages.
    private static func printable<S: StringProtocol>(_ text: S) -> String {
        String(text).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    /// `host:port`, `[v6]:port`, or (with a default port) `host` / `[v6]`; the host lower-cased
    /// without a trailing dot. Userinfo (`user@host`) is refused.
    static func parseAuthority(_ text: String, defaultPort: UInt16?) -> (String, UInt16)? {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = text.lastIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text[...]
            }
            if host.hasSuffix(".") { host = host.dropLast() }
            guard !host.isEmpty, host.count <= 253,
                  host.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber
                                                       || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")) })
            else { return nil }
        }
        let port: UInt16
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                  let value = UInt16(portText), value > 0 else { return nil }
            port = value
        } else {
            guard let defaultPort else { return nil }
            port = defaultPort
        }
        return (host.lowercased(), port)
    }

    /// The head to send on for an absolute-form request: origin-form target, the same headers
    /// without the hop-by-hop ones (`Connection` and the fields it names, `Keep-Alive`,
    /// `Proxy-*`, `TE`, `Trailer`, `Upgrade`), `Host` set to the target's authority whatever
    /// the client sent (RFC 9112 §3.2.2: a `Host` header cannot steer the request elsewhere),
    /// and `Connection: close` — one request per proxied connection, so every request's host
    /// is checked.
    func forwardedHead(pathAndQuery: String, host: String, port: UInt16, defaultPort: UInt16) -> [UInt8] {
        var text = "\(method) \(pathAndQuery) \(version)\r\n"
        var dropped: Set<String> = ["host", "connection", "keep-alive", "te", "trailer", "upgrade"]
        for (name, value) in headers where name.lowercased() == "connection" {
            for option in value.split(separator: ",") { dropped.insert(option.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        dropped.remove("content-length")  // the framing the proxy checked stays with the request
        let literal = host.contains(":") ? "[\(host)]" : host
        text += "Host: \(port == defaultPort ? literal : "\(literal):\(port)")\r\n"
        for (name, value) in headers {
            let lowered = name.lowercased()
            guard !dropped.contains(lowered), !lowered.hasPrefix("proxy-") else { continue }
            text += "\(name): \(value)\r\n"
        }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }
}

/// An answer the proxy gives itself, instead of forwarding: always JSON, always
/// `Connection: close`.
struct ProxyRefusal: Error {
    var status: Int
    var reason: String
    var code: String
    var message: String
    var extra: [(String, JSONValue)] = []

    static func badRequest(_ message: String) -> ProxyRefusal {
        ProxyRefusal(status: 400, reason: "Bad Request", code: "PROXY_BAD_REQUEST", message: message)
    }

    /// The response bytes: status line, headers, JSON body `{"code", "message", …}`.
    var bytes: [UInt8] {
        let body = String(decoding: CodeMessageBody.bytes(code: code, message: message, extra: extra), as: UTF8.self) + "\n"
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\nProxy-Agent: vietmap-sim\r\n\r\n"
        return Array((head + body).utf8)
    }
}
