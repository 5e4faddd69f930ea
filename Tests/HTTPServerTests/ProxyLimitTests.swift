import Foundation
import HTTPProxy
import HTTPServer
import HTTPTestSupport
import XCTest

/// The proxy's connection limits and deadlines are the direct port's: a per-client-address cap
/// (connections beyond it closed at once), room made by closing the connection that waited
/// longest for its head, a 503 only when every slot is a tunnel, and a TLS handshake deadline
/// that trickled bytes do not extend. Every test client comes from 127.0.0.1.
final class ProxyLimitTests: XCTestCase {
    /// A connection that has sent the start of an absolute-form request and holds its slot.
    private func holder(_ port: UInt16, path: String) throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: port)
        try client.write("GET http://maps.vietmap.vn\(path) HTTP/1.1\r\n")
        return client
    }

    func testConnectionsBeyondThePerClientLimitAreClosedAtOnce() throws {
        let setup = try startProxy(maxConnections: 64, maxConnectionsPerClient: 2)
        let first = try holder(setup.proxy.port, path: "/first")
        let second = try holder(setup.proxy.port, path: "/second")
        XCTAssertTrue(eventually { setup.proxy.openConnections == 2 })

        // A third connection from the same address: closed without a byte, its request unread.
        let third = try RawHTTPClient(port: setup.proxy.port)
        try? third.write("GET http://maps.vietmap.vn/third HTTP/1.1\r\n\r\n")
        let (data, _) = third.readToEnd()
        XCTAssertEqual(data.count, 0, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(setup.proxy.counters.overClientLimit, 1)

        // The cap's worth are served.
        try first.write("\r\n")
        XCTAssertEqual(try first.readResponse().status, 200)
        try second.write("\r\n")
        XCTAssertEqual(try second.readResponse().status, 200)
        // Once they are gone, the address may connect again.
        XCTAssertTrue(eventually { setup.proxy.openConnections == 0 })
        XCTAssertEqual(try exchange(setup.proxy.port, "GET http://maps.vietmap.vn/fourth HTTP/1.1\r\n\r\n").status, 200)
        XCTAssertEqual(setup.backendSeen.all.map(\.path).sorted(), ["/first", "/fourth", "/second"])
    }

    func testRoomIsMadeByClosingTheConnectionWaitingLongestForItsHead() throws {
        let setup = try startProxy(maxConnections: 2)
        let oldest = try holder(setup.proxy.port, path: "/oldest")
        XCTAssertTrue(eventually { setup.proxy.openConnections == 1 })
        let younger = try holder(setup.proxy.port, path: "/younger")
        XCTAssertTrue(eventually { setup.proxy.openConnections == 2 })

        // A client that sends its request at once is served; the oldest waiting one lost its slot.
        let prompt = try exchange(setup.proxy.port, "GET http://maps.vietmap.vn/prompt HTTP/1.1\r\n\r\n")
        XCTAssertEqual(prompt.status, 200)
        XCTAssertEqual(oldest.readToEnd().data.count, 0)
        XCTAssertEqual(setup.proxy.counters.evicted, 1)
        try younger.write("\r\n")
        XCTAssertEqual(try younger.readResponse().status, 200)
        XCTAssertEqual(setup.backendSeen.all.map(\.path).sorted(), ["/prompt", "/younger"])
    }

    func testA503OnlyWhenEverySlotIsATunnel() throws {
        let setup = try startProxy(maxConnections: 1)
        let tunnel = try RawHTTPClient(port: setup.proxy.port)
        try tunnel.write("CONNECT maps.vietmap.vn:80 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try tunnel.readHead(), "HTTP/1.1 200 Connection established")
        let response = try exchange(setup.proxy.port, "CONNECT maps.vietmap.vn:443 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(response.status, 503)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("PROXY_BUSY"))
        // The tunnel still works.
        try tunnel.write("GET /in-tunnel HTTP/1.1\r\nHost: maps.vietmap.vn\r\n\r\n")
        let inside = try tunnel.readResponse()
        XCTAssertTrue(String(decoding: inside.body, as: UTF8.self).contains(#""path":"/in-tunnel""#))
    }

    /// A ClientHello trickled a byte at a time does not extend the handshake deadline (GnuTLS's
    /// own timeout restarts with every read): the connection is closed although bytes keep coming.
    func testATrickledTLSHelloIsClosedAtTheHandshakeDeadline() throws {
        let setup = try startProxy(handshakeTimeout: 0.5)
        let client = try RawHTTPClient(port: setup.proxy.port, receiveTimeout: 1)
        try client.write("CONNECT maps.vietmap.vn:443 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try client.readHead(), "HTTP/1.1 200 Connection established")
        // A TLS 1.2 handshake record of 512 bytes announced, its bytes sent one by one.
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + [UInt8](repeating: 0x41, count: 501)
        var closed = false
        for byte in hello {
            if (try? client.write(Data([byte]))) == nil { closed = true; break }
            if setup.proxy.openConnections == 0 { closed = true; break }
            usleep(30_000)  // a byte every 30 ms: 15 s for the whole record
        }
        XCTAssertTrue(closed, "the trickled handshake was not cut off")
        XCTAssertTrue(eventually { setup.proxy.openConnections == 0 })
        XCTAssertGreaterThanOrEqual(setup.proxy.counters.timedOut, 1)
        XCTAssertEqual(setup.backendSeen.count, 0)
    }
}
