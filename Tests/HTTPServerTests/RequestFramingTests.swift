import Foundation
@testable import HTTPServer
import HTTPTestSupport
import XCTest

/// Request bodies whose length is ambiguous are refused at once (RFC 9112 §6), over raw
/// sockets: the cases a client library would never send.
final class RequestFramingTests: XCTestCase {
    /// A server echoing the body it received, so a wrong framing would show in the answer.
    private func startEchoServer() throws -> HTTPServer {
        try startServer { request, response in
            response.send(.text("got \(request.body.count): \(String(decoding: request.body, as: UTF8.self))"))
        }
    }

    /// Sends `head` (plus `body`) and returns the answer, and the seconds it took.
    private func exchange(_ server: HTTPServer, _ head: String, body: String = "") throws
        -> (response: RawHTTPClient.Response, seconds: TimeInterval, client: RawHTTPClient) {
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 10)
        let started = Date()
        try client.write(head + "\r\n" + body)
        let response = try client.readResponse()
        return (response, Date().timeIntervalSince(started), client)
    }

    func testConflictingContentLengthsAre400AndClose() throws {
        let server = try startEchoServer()
        let (response, _, client) = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 11\r\n",
                                                 body: "hello world")
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("conflicting Content-Length"))
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        XCTAssertTrue(client.readToEnd().data.isEmpty, "the connection ends after the 400: the body is never taken for a request")
    }

    func testConflictingValuesInOneFieldAre400() throws {
        let server = try startEchoServer()
        let (response, _, _) = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n", body: "hello!")
        XCTAssertEqual(response.status, 400)
    }

    func testRepeatedIdenticalContentLengthIsAccepted() throws {
        let server = try startEchoServer()
        let (response, _, _) = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n", body: "hello")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "got 5: hello")
    }

    func testUnknownTransferCodingIsRefusedAtOnce() throws {
        let server = try startEchoServer()
        for (coding, status) in [("gzip", 400), ("gzip, chunked", 501), ("chunked, gzip", 400), ("", 400)] {
            let (response, seconds, client) = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n",
                                                           body: "5\r\nhello\r\n0\r\n\r\n")
            XCTAssertEqual(response.status, status, coding)
            XCTAssertLessThan(seconds, 5, "answered at once, not held until a timeout (\(coding))")
            XCTAssertEqual(response.header("Connection")?.lowercased(), "close", coding)
            XCTAssertTrue(client.readToEnd().data.isEmpty, coding)
        }
    }

    func testTransferEncodingWithContentLengthIs400() throws {
        let server = try startEchoServer()
        let (response, _, _) = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                                            body: "5\r\nhello\r\n0\r\n\r\n")
        XCTAssertEqual(response.status, 400)
    }

    func testChunkedAndPlainBodiesStillWork() throws {
        let server = try startEchoServer()
        let chunked = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n",
                                   body: "5\r\nhello\r\n0\r\n\r\n")
        XCTAssertEqual(chunked.response.status, 200)
        XCTAssertEqual(String(decoding: chunked.response.body, as: UTF8.self), "got 5: hello")
        // Keep-alive survives: a second request on the same connection.
        try chunked.client.get("/again")
        XCTAssertEqual(try chunked.client.readResponse().status, 200)
        let plain = try exchange(server, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n", body: "hello")
        XCTAssertEqual(String(decoding: plain.response.body, as: UTF8.self), "got 5: hello")
    }

    func testRejectionRules() {
        func status(_ fields: [(String, String)]) -> Int? {
            RequestFraming.rejection(for: HTTPHeaders(fields.map { (name: $0.0, value: $0.1) }))?.status
        }
        XCTAssertNil(status([]))
        XCTAssertNil(status([("content-length", "3")]))
        XCTAssertNil(status([("Content-Length", "3"), ("CONTENT-LENGTH", " 3 ")]))
        XCTAssertEqual(status([("Content-Length", "3"), ("Content-Length", "4")]), 400)
        XCTAssertNil(status([("Transfer-Encoding", "CHUNKED")]))
        XCTAssertEqual(status([("Transfer-Encoding", "gzip")]), 400)
        XCTAssertEqual(status([("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]), 501)
        XCTAssertEqual(status([("Transfer-Encoding", "chunked"), ("Content-Length", "3")]), 400)
    }
}
