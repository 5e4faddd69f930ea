import Foundation
import HTTPProxy
import HTTPServer
import HTTPTestSupport
import XCTest

/// The proxy reads a request head exactly as strictly as it must so that no second request
/// hides in the first (request smuggling): bare LF or CR, folded lines, control characters and
/// ambiguous body framing get a 400 and a close; an absolute-form request goes on as one head and
/// exactly its `Content-Length` of body — nothing after it — with `Host` taken from its target.
final class ProxyFramingTests: XCTestCase {
    /// Sends `raw` on a new connection; every byte until the proxy closes.
    private func everything(_ port: UInt16, _ raw: String) throws -> String {
        let client = try RawHTTPClient(port: port)
        try client.write(raw)
        return String(decoding: client.readToEnd().data, as: UTF8.self)
    }

    private func answerCount(_ text: String) -> Int {
        text.components(separatedBy: "HTTP/1.1 ").count - 1
    }

    func testABareLFCannotSmuggleASecondRequest() throws {
        let setup = try startProxy()
        let smuggled = "GET http://maps.vietmap.vn/api/a HTTP/1.1\r\nHost: maps.vietmap.vn\r\nX-A: b\n\n"
            + "GET /__sim/journal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let text = try everything(setup.proxy.port, smuggled)
        XCTAssertEqual(answerCount(text), 1, text)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 400 "), text)
        XCTAssertTrue(text.contains("PROXY_BAD_REQUEST") && text.contains("bare LF"), text)
        XCTAssertEqual(setup.backendSeen.count, 0, "nothing reached the backend: \(setup.backendSeen.all.map(\.path))")

        // A head whose every line ends with a bare LF is refused as soon as it arrives, not at the deadline (408).
        let bare = try exchange(setup.proxy.port, "CONNECT maps.vietmap.vn:443 HTTP/1.1\nHost: maps.vietmap.vn\n\n")
        XCTAssertEqual(bare.status, 400)
        XCTAssertEqual(setup.backendSeen.count, 0)
    }

    func testAmbiguousHeadsGetA400AndAClose() throws {
        let setup = try startProxy()
        let target = "GET http://maps.vietmap.vn/api/a HTTP/1.1\r\nHost: maps.vietmap.vn\r\n"
        let cases: [(String, String)] = [
            (target + "X-A: b\r\n c\r\n\r\n", "obs-fold"),
            (target + "X-A: b\rGET /__sim/journal HTTP/1.1\r\n\r\n", "bare CR"),
            (target + "X-A: b\u{0}c\r\n\r\n", "control character"),
            (target + "X A: b\r\n\r\n", "malformed header line"),
            (target + "Content-Length: 0\r\nContent-Length: 0\r\n\r\n", "more than one Content-Length"),
            (target + "Content-Length: 0\r\nContent-Length: 40\r\n\r\n", "more than one Content-Length"),
            (target + "Content-Length: 0, 40\r\n\r\n", "malformed Content-Length"),
            (target + "Content-Length: +4\r\n\r\nbody", "malformed Content-Length"),
            (target + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "Transfer-Encoding"),
            (target + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", "Transfer-Encoding"),
            (target + "Host: 127.0.0.1\r\n\r\n", "more than one Host"),
            ("CONNECT maps.vietmap.vn:443 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", "has no body"),
            ("GET http://maps.vietmap.vn/a\tb HTTP/1.1\r\n\r\n", "malformed request line"),
        ]
        for (raw, needle) in cases {
            let text = try everything(setup.proxy.port, raw)
            XCTAssertEqual(answerCount(text), 1, "\(raw.debugDescription): \(text)")
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 400 "), "\(raw.debugDescription): \(text)")
            XCTAssertTrue(text.contains("Connection: close") && text.contains(needle), "\(raw.debugDescription): \(text)")
        }
        XCTAssertEqual(setup.backendSeen.count, 0, "nothing reached the backend: \(setup.backendSeen.all.map(\.path))")
    }

    func testOnlyTheDeclaredBodyIsForwardedNothingAfterIt() throws {
        let setup = try startProxy()
        let behindEmptyBody = "GET http://maps.vietmap.vn/api/a HTTP/1.1\r\nContent-Length: 0\r\n\r\n"
            + "GET /__sim/journal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let first = try everything(setup.proxy.port, behindEmptyBody)
        XCTAssertEqual(answerCount(first), 1, first)
        XCTAssertTrue(first.contains(#""path":"/api/a""#), first)

        let behindBody = "POST http://maps.vietmap.vn/api/b HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody"
            + "GET /__sim/journal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let second = try everything(setup.proxy.port, behindBody)
        XCTAssertEqual(answerCount(second), 1, second)
        XCTAssertTrue(second.contains(#""path":"/api/b""#), second)

        // A body that arrives in pieces, after the head.
        let client = try RawHTTPClient(port: setup.proxy.port)
        try client.write("POST http://maps.vietmap.vn/api/c HTTP/1.1\r\nContent-Length: 10\r\n\r\nfirst")
        try client.write("-halfGET /__sim/journal HTTP/1.1\r\n\r\n")
        let third = String(decoding: client.readToEnd().data, as: UTF8.self)
        XCTAssertEqual(answerCount(third), 1, third)

        // A client that waits for `100 Continue` before its body gets it through the proxy.
        let waiting = try RawHTTPClient(port: setup.proxy.port)
        try waiting.write("POST http://maps.vietmap.vn/api/d HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(try waiting.readHead(), "HTTP/1.1 100 Continue")
        try waiting.write("later")
        XCTAssertEqual(try waiting.readResponse().status, 200)

        XCTAssertEqual(setup.backendSeen.all.map(\.path), ["/api/a", "/api/b", "/api/c", "/api/d"])
        XCTAssertEqual(setup.backendSeen.all.map(\.body), [Data(), Data("body".utf8), Data("first-half".utf8), Data("later".utf8)])
    }

    /// RFC 9112 §3.2.2: the target's authority is the request's `Host`, whatever header was sent,
    /// and hop-by-hop headers stay with the proxy.
    func testTheTargetDecidesTheHostHeader() throws {
        let setup = try startProxy()
        let response = try exchange(setup.proxy.port, "GET http://maps.vietmap.vn/api/a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
            + "Connection: keep-alive, X-Hop\r\nX-Hop: 1\r\nX-Kept: 2\r\nProxy-Authorization: Basic eA==\r\nUpgrade: h2c\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains(#""host":"maps.vietmap.vn""#))
        let request = try XCTUnwrap(setup.backendSeen.all.last)
        XCTAssertEqual(request.headers.values(for: "Host"), ["maps.vietmap.vn"])
        XCTAssertEqual(request.headers["X-Kept"], "2")
        XCTAssertNil(request.headers["X-Hop"])
        XCTAssertNil(request.headers["Proxy-Authorization"])
        XCTAssertNil(request.headers["Upgrade"])
        XCTAssertEqual(request.headers["Connection"], "close")
    }
}
