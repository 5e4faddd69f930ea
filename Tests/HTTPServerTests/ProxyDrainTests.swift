import Foundation
import HTTPProxy
import HTTPServer
import HTTPTestSupport
import XCTest

/// `ProxyServer.stop(drainTimeout:drainingBackend:)`: requests already sent into tunnels (plain
/// and TLS) and absolute-form requests are answered — the backend drains them — before the
/// proxy closes; connections that sent nothing are closed at once; nothing new is accepted.
final class ProxyDrainTests: XCTestCase {
    /// The backend has one worker thread and spends a while on each request, so when the drain
    /// begins most requests wait in its socket buffers, unread. A head deadline past the drain
    /// timeout: a connection the drain did not close would be cut off (and counted).
    private func busyProxy() throws -> ProxySetup {
        try startProxy(headTimeout: 60, backendThreads: 1) { _ in usleep(40_000) }
    }

    private func drain(_ setup: ProxySetup) -> Int {
        setup.proxy.stop(drainTimeout: 20) { remaining in _ = setup.backend.stop(drainTimeout: remaining) }
    }

    func testRequestsInPlainTunnelsAndAbsoluteFormAreAnswered() throws {
        let setup = try busyProxy()
        var clients: [RawHTTPClient] = []
        for index in 0..<12 {
            let client = try RawHTTPClient(port: setup.proxy.port, receiveTimeout: 20)
            if index % 3 == 0 {
                try client.write("GET http://maps.vietmap.vn/absolute/\(index) HTTP/1.1\r\n\r\n")
            } else {
                try client.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
                XCTAssertEqual(try client.readHead(), "HTTP/1.1 200 Connection established")
                try client.write("GET /tunnel/\(index) HTTP/1.1\r\nHost: maps.vietmap.vn\r\n\r\n")
            }
            clients.append(client)
        }
        let idle = try RawHTTPClient(port: setup.proxy.port)  // sends nothing
        XCTAssertTrue(setup.backendSeen.wait(forCount: 1))
        XCTAssertLessThan(setup.backendSeen.count, 12, "the drain must begin with requests still unanswered")

        XCTAssertEqual(drain(setup), 0, "every connection ended by itself")
        var answered = 0
        for (index, client) in clients.enumerated() {
            let text = String(decoding: client.readToEnd().data, as: UTF8.self)
            let path = index % 3 == 0 ? "/absolute/\(index)" : "/tunnel/\(index)"
            if text.contains(" 200 OK"), text.contains(#""path":"\#(path)""#) { answered += 1 } else { XCTFail("\(path): \(text)") }
        }
        XCTAssertEqual(answered, 12)
        XCTAssertEqual(idle.readToEnd().data.count, 0, "a connection that sent nothing is closed")
        XCTAssertThrowsError(try RawHTTPClient(port: setup.proxy.port), "no longer accepting")
    }

    /// Requests the backend is still working on (answers due 1 s later) when the drain begins.
    func testRequestsInTLSTunnelsAreAnswered() throws {
        try requireCurl()
        let setup = try startProxy(answerDelay: 1)
        let proxy = "http://127.0.0.1:\(setup.proxy.port)"
        let runs = try (0..<6).map { index in
            try startCurl(["--proxy", proxy, "--cacert", setup.caPath, "--max-time", "20", "https://maps.vietmap.vn/tls/\(index)"])
        }
        XCTAssertTrue(setup.backendSeen.wait(forCount: 6, timeout: 15))
        XCTAssertEqual(drain(setup), 0)
        for (index, run) in runs.enumerated() {
            let (status, output) = run.finish()
            XCTAssertEqual(status, 0, "\(index): \(output)")
            XCTAssertTrue(output.contains(#""path":"/tls/\#(index)""#), "\(index): \(output)")
        }
    }

    /// What a client sends into an open tunnel after the drain began still reaches the backend
    /// while the tunnel is open; an idle tunnel is closed by the backend's drain.
    func testAnIdleTunnelIsClosedWithoutWaitingForTheTimeout() throws {
        let setup = try startProxy()
        let tunnel = try RawHTTPClient(port: setup.proxy.port)
        try tunnel.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try tunnel.readHead(), "HTTP/1.1 200 Connection established")
        try tunnel.write("GET /first HTTP/1.1\r\nHost: maps.vietmap.vn\r\n\r\n")
        XCTAssertEqual(try tunnel.readResponse().status, 200)
        // Keep-alive inside the tunnel: the backend holds the connection between requests.
        XCTAssertEqual(drain(setup), 0, "the idle tunnel was not held until the drain timeout")
        XCTAssertEqual(tunnel.readToEnd().data.count, 0)
    }
}
