import Foundation
import HTTPServer
import HTTPTestSupport
import XCTest

/// Connection limits, request-head deadlines and requests that must all get an answer.
final class ConnectionLimitTests: XCTestCase {
    private func echoCountServer(_ configuration: HTTPServerConfiguration) throws -> HTTPServer {
        try startServer(configuration) { request, response in
            let count = request.query.items.count
            response.send(.json(Data(#"{"parameters":\#(count)}"#.utf8), status: request.queryError == nil ? 200 : 400))
        }
    }

    // MARK: Every request gets an answer

    func testHundredsOfParametersStillGetAnAnswer() throws {
        let server = try echoCountServer(HTTPServerConfiguration(threads: 2))
        let client = try RawHTTPClient(port: server.port)
        // ~500 empty parameters used to exhaust MHD's per-connection memory (no answer at all).
        try client.get("/s?" + String(repeating: "&x", count: 600))
        let empties = try client.readResponse()
        XCTAssertEqual(empties.status, 200)
        XCTAssertEqual(String(decoding: empties.body, as: UTF8.self), #"{"parameters":600}"#)

        let points = (0..<370).map { "point=10.7\($0 % 10),106.6\($0 % 10)" }.joined(separator: "&")
        try client.get("/api/route/v4?" + points)
        XCTAssertEqual(String(decoding: try client.readResponse().body, as: UTF8.self), #"{"parameters":370}"#)

        // Right at the documented 16 KiB limit: ~8,000 parameters, still parsed.
        let target = "/s?" + String(repeating: "&x", count: (16 * 1024 - 3) / 2)
        precondition(target.utf8.count <= 16 * 1024, "the test's own target must stay within the limit")
        try client.get(target)
        let full = try client.readResponse()
        XCTAssertEqual(full.status, 200)
        XCTAssertEqual(String(decoding: full.body, as: UTF8.self), #"{"parameters":\#((16 * 1024 - 3) / 2)}"#)
    }

    func testTargetsOverTheLimitGetTheServersJSON414() throws {
        let server = try echoCountServer(HTTPServerConfiguration(threads: 2))
        for target in ["/s?" + String(repeating: "&x", count: 9_000), "/s?q=" + String(repeating: "a", count: 40_000)] {
            let client = try RawHTTPClient(port: server.port)
            try client.get(target)
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 414, "target of \(target.utf8.count) bytes")
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self),
                           #"{"code":"INVALID_REQUEST","message":"request URI too long"}"#)
        }
    }

    // MARK: Deadlines

    func testTrickledHeadIsClosedAtTheHeaderDeadline() throws {
        var configuration = HTTPServerConfiguration(threads: 2)
        configuration.headerTimeout = 1
        let server = try echoCountServer(configuration)
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 6)
        try client.write("GET /s HTTP/1.1\r\nHost: x\r\n")
        let started = Date()
        // Keep trickling a byte-sized header line every 200 ms: it must not extend the deadline.
        let trickle = DispatchQueue(label: "trickle")
        let stop = Recorder<Bool>()
        let writer = UncheckedBox(client)
        trickle.async {
            let client = writer.value
            var index = 0
            while stop.count == 0, Date().timeIntervalSince(started) < 5 {
                do { try client.write("X-\(index): y\r\n") } catch { return }
                index += 1
                usleep(200_000)
            }
        }
        let (data, _) = client.readToEnd()
        stop.append(true)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(data.isEmpty, "no answer for an incomplete head")
        XCTAssertGreaterThan(elapsed, 0.8)
        XCTAssertLessThan(elapsed, 3.5, "closed at the 1 s header deadline (+ sweep interval), not by the idle timeout")
        XCTAssertEqual(server.connectionCounters?.timedOut, 1)
        trickle.sync {}
    }

    func testSlowBodyIsClosedAtTheBodyDeadline() throws {
        var configuration = HTTPServerConfiguration(threads: 2)
        configuration.bodyTimeout = 1
        let server = try echoCountServer(configuration)
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 6)
        try client.write("POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
        let started = Date()
        let (data, _) = client.readToEnd()
        XCTAssertTrue(data.isEmpty)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5)
        XCTAssertEqual(server.connectionCounters?.timedOut, 1)
    }

    func testKeepAliveConnectionSurvivesWhileItsRequestsArriveInTime() throws {
        var configuration = HTTPServerConfiguration(threads: 2)
        configuration.headerTimeout = 1
        let server = try echoCountServer(configuration)
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<4 {
            try client.get("/s?a=1")
            XCTAssertEqual(try client.readResponse().status, 200)
            usleep(600_000)  // each pause is shorter than the deadline; together they are longer
        }
        XCTAssertEqual(server.connectionCounters?.timedOut, 0)
    }

    // MARK: Limits

    func testSlowClientsCannotStarveANormalClient() throws {
        var configuration = HTTPServerConfiguration(threads: 2)
        configuration.maxConnections = 20
        configuration.maxConnectionsPerClient = 0
        let server = try echoCountServer(configuration)
        // Twice the limit of clients that never finish their head, from the same address.
        var slow: [RawHTTPClient] = []
        for _ in 0..<40 {
            let client = try RawHTTPClient(port: server.port, receiveTimeout: 1)
            try? client.write("GET /s HTTP/1.1\r\n")
            slow.append(client)
        }
        usleep(200_000)
        let normal = try RawHTTPClient(port: server.port, receiveTimeout: 12)
        let started = Date()
        try normal.get("/s?ok=1")
        XCTAssertEqual(try normal.readResponse().status, 200)
        // Starved, it would wait for the slow clients' 10 s head deadline; the bound leaves a
        // loaded machine room (Scripts/stress measures the real figure: milliseconds).
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let counters = try XCTUnwrap(server.connectionCounters)
        XCTAssertLessThanOrEqual(counters.open, 20 + 1)
        XCTAssertGreaterThanOrEqual(counters.evicted, 20)
        withExtendedLifetime(slow) {}
    }

    func testPerClientLimitRefusesOnlyThatAddress() throws {
        var configuration = HTTPServerConfiguration(threads: 1)
        configuration.maxConnectionsPerClient = 3
        let server = try echoCountServer(configuration)
        let held = try (0..<3).map { _ in try RawHTTPClient(port: server.port) }
        for client in held {
            try client.get("/s")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        let refused = try RawHTTPClient(port: server.port, receiveTimeout: 10)
        try? refused.get("/s")
        let started = Date()
        let (data, _) = refused.readToEnd()
        XCTAssertTrue(data.isEmpty, "a fourth connection from 127.0.0.1 is closed unanswered")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "closed by the server, not by the client's 10 s timeout")

        let other = try RawHTTPClient(port: server.port, sourceAddress: "127.0.0.2")
        try other.get("/s")
        XCTAssertEqual(try other.readResponse().status, 200)
    }
}

/// Hands a non-Sendable value to another queue whose use of it the test serializes.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
