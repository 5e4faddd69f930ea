import Foundation
import HTTPServer
import HTTPTestSupport
import XCTest

/// Fault injection seen from a raw socket client.
final class TransportBehaviourTests: XCTestCase {
    private let body = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0) })

    /// A server answering every request with `body` and the behaviour named by `?t=`.
    private func startFaultyServer(deferred: Bool = false) throws -> HTTPServer {
        let body = self.body
        return try startServer { request, response in
            var reply = HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: body)
            switch request.query.first("t") {
            case "close": reply.transport = .closeWithoutResponse
            case "reset": reply.transport = .reset
            case "truncate": reply.transport = .truncate(afterBytes: 10)
            case "dribble": reply.transport = .dribble(chunks: 4, intervalMilliseconds: 100)
            case "length": reply.headers.set("Content-Length", "5000")
            default: break
            }
            if deferred {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { [reply] in response.send(reply) }
            } else {
                response.send(reply)
            }
        }
    }

    func testCloseWithoutResponseSendsNothing() throws {
        let server = try startFaultyServer()
        let client = try RawHTTPClient(port: server.port)
        try client.get("/x")  // a normal reply first: the fault also works mid-connection
        XCTAssertEqual(try client.readResponse().body, body)
        try client.get("/x?t=close")
        let (data, error) = client.readToEnd()
        XCTAssertNil(error)
        XCTAssertEqual(data.count, 0)
    }

    func testResetGivesECONNRESET() throws {
        for deferred in [false, true] {
            let server = try startFaultyServer(deferred: deferred)
            let client = try RawHTTPClient(port: server.port)
            try client.get("/x?t=reset")
            let (data, error) = client.readToEnd()
            XCTAssertEqual(error, ECONNRESET, "deferred: \(deferred)")
            XCTAssertEqual(data.count, 0)
        }
    }

    func testTruncateSendsFewerBytesThanAnnounced() throws {
        let server = try startFaultyServer()
        let client = try RawHTTPClient(port: server.port)
        try client.get("/x?t=truncate")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), "4000")
        XCTAssertTrue(response.truncated)
        XCTAssertEqual(response.body, body.prefix(10))
    }

    func testDribbleSpreadsTheBodyWithoutHoldingAThread() throws {
        let server = try startFaultyServer(deferred: true)
        let start = Date()
        // Two at once on a 2-thread server, plus a normal request that must not wait.
        let clients = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients { try client.get("/x?t=dribble") }
        let plain = try RawHTTPClient(port: server.port)
        try plain.get("/x")
        XCTAssertEqual(try plain.readResponse().body, body)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.28)

        for client in clients {
            let response = try client.readResponse()
            XCTAssertFalse(response.truncated)
            XCTAssertEqual(response.body, body)
        }
        let elapsed = Date().timeIntervalSince(start)
        // 3 intervals of 100 ms after the first chunk, plus the 20 ms deferral.
        XCTAssertGreaterThanOrEqual(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 0.7)
    }

    func testExplicitWrongContentLength() throws {
        let server = try startFaultyServer()
        let client = try RawHTTPClient(port: server.port)
        try client.get("/x?t=length")
        let response = try client.readResponse()
        XCTAssertEqual(response.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value), ["5000"])
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        XCTAssertTrue(response.truncated)
        XCTAssertEqual(response.body, body)
    }

    func testStopDuringDribbleIsSafe() throws {
        let server = try startFaultyServer()
        let client = try RawHTTPClient(port: server.port)
        try client.get("/x?t=dribble")
        usleep(50_000)  // first chunk sent, connection paused
        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        let (data, _) = client.readToEnd()
        XCTAssertLessThan(data.count, 4000 + 200)
        usleep(400_000)  // the pending resume timers fire after the stop: no crash
    }
}
