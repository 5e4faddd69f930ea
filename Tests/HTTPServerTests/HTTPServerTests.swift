import Foundation
import HTTPServer
import HTTPTestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class HTTPServerTests: XCTestCase {
    // MARK: Requests

    func testHandlerSeesDecodedRequest() async throws {
        let seen = Recorder<HTTPRequest>()
        let server = try startServer { request, response in
            seen.append(request)
            response.send(.json(Data(#"{"ok":true}"#.utf8)))
        }
        var request = URLRequest(url: url(server, "/api/place%20x/v4?point=1,2&text=Nh%C3%A0%20th%E1%BB%9D&point=3,4&q=a+b&empty=&flag"))
        request.setValue("yes", forHTTPHeaderField: "X-Custom")
        let (response, data) = try await fetch(makeSession(), request)

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"ok":true}"#)
        let received = try XCTUnwrap(seen.all.first)
        XCTAssertEqual(received.method, "GET")
        XCTAssertEqual(received.path, "/api/place x/v4")
        XCTAssertEqual(received.rawQuery, "point=1,2&text=Nh%C3%A0%20th%E1%BB%9D&point=3,4&q=a+b&empty=&flag")
        XCTAssertNil(received.queryError)
        XCTAssertEqual(received.query.all("point"), ["1,2", "3,4"])
        XCTAssertEqual(received.query.first("text"), "Nhà thờ")
        XCTAssertEqual(received.query.first("q"), "a b")
        XCTAssertEqual(received.query.first("empty"), "")
        XCTAssertEqual(received.query.first("flag"), "")
        XCTAssertEqual(received.headers["x-custom"], "yes")
        XCTAssertTrue(received.body.isEmpty)
    }

    func testBadEscapesReachHandlerAsQueryError() throws {
        let seen = Recorder<HTTPRequest>()
        let server = try startServer { request, response in
            seen.append(request)
            response.send(.json(Data(#"{"code":"bad"}"#.utf8), status: request.queryError == nil ? 200 : 400))
        }
        let client = try RawHTTPClient(port: server.port)
        for target in ["/s?text=%G1", "/s?text=%E1%BB", "/s?a=1&b=%", "/s?ok=%C3%A0"] {
            try client.get(target)
            XCTAssertEqual(try client.readResponse().status, target.hasPrefix("/s?ok") ? 200 : 400)
        }
        // Raw (unescaped) bytes that are not UTF-8.
        try client.write(Data("GET /s?text=".utf8) + Data([0xE1, 0xBB]) + Data(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(try client.readResponse().status, 400)
        let requests = seen.all
        XCTAssertEqual(requests.count, 5)
        XCTAssertEqual(requests[0].queryError, .invalidPercentEscape(component: "%G1"))
        XCTAssertEqual(requests[1].queryError, .invalidUTF8(component: "%E1%BB"))
        XCTAssertEqual(requests[2].queryError, .invalidPercentEscape(component: "%"))
        XCTAssertTrue(requests[0].query.isEmpty)
        XCTAssertNil(requests[3].queryError)
        XCTAssertEqual(requests[3].query.first("ok"), "à")
        XCTAssertEqual(requests[4].queryError, .invalidUTF8(component: "text=\u{FFFD}"))
    }

    func testPostBodyArrivesWhole() async throws {
        let seen = Recorder<HTTPRequest>()
        let server = try startServer { request, response in
            seen.append(request)
            response.send(HTTPResponse(status: 200, body: Data("\(request.body.count)".utf8)))
        }
        let payload = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var request = URLRequest(url: url(server, "/upload"))
        request.httpMethod = "POST"
        request.httpBody = payload
        let (response, data) = try await fetch(makeSession(), request)

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "1000000")
        let received = try XCTUnwrap(seen.all.first)
        XCTAssertEqual(received.method, "POST")
        XCTAssertEqual(received.body, payload)
    }

    func testOversizedBodyGets413() async throws {
        let calls = Recorder<Int>()
        let server = try startServer(HTTPServerConfiguration(threads: 1, maxBodyBytes: 1000)) { _, response in
            calls.append(1)
            response.send(HTTPResponse(status: 200))
        }
        var request = URLRequest(url: url(server, "/upload"))
        request.httpMethod = "POST"
        request.httpBody = Data(count: 5000)
        let (response, data) = try await fetch(makeSession(), request)
        XCTAssertEqual(response.statusCode, 413)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"code":"INVALID_REQUEST","message":"request body too large"}"#)

        // Without Content-Length (chunked), the limit is enforced while reading.
        let client = try RawHTTPClient(port: server.port)
        let chunk = String(repeating: "x", count: 600)
        try client.write("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 413)

        // Exactly at the limit is fine.
        request.httpBody = Data(count: 1000)
        let (atLimit, _) = try await fetch(makeSession(), request)
        XCTAssertEqual(atLimit.statusCode, 200)
        XCTAssertEqual(calls.count, 1)
    }

    func testOverlongURLGets414JSON() async throws {
        let server = try startServer(HTTPServerConfiguration(threads: 1, maxURLLength: 2048)) { _, response in
            response.send(HTTPResponse(status: 200))
        }
        let target = "/api?text=" + String(repeating: "a", count: 3000)
        let (response, data) = try await fetch(makeSession(), URLRequest(url: url(server, target)))
        XCTAssertEqual(response.statusCode, 414)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"code":"INVALID_REQUEST","message":"request URI too long"}"#)

        // Beyond the per-connection memory: libmicrohttpd answers by itself, without crashing.
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api?text=" + String(repeating: "b", count: 100_000))
        let tooBig = try client.readResponse()
        XCTAssertEqual(tooBig.status, 414, "\(tooBig.statusLine) \(tooBig.headers) \(String(decoding: tooBig.body, as: UTF8.self))")
        let (stillFine, _) = try await fetch(makeSession(), URLRequest(url: url(server, "/ok")))
        XCTAssertEqual(stillFine.statusCode, 200)
    }

    func testServerMadeErrorsCarryTheConfiguredHeaders() async throws {
        var configuration = HTTPServerConfiguration(threads: 1, maxURLLength: 2048, maxBodyBytes: 1000)
        configuration.errorResponseHeaders = ["Access-Control-Allow-Origin": "*", "X-Made-By": "server"]
        let server = try startServer(configuration) { _, response in response.send(.text("ok")) }
        let (uriTooLong, _) = try await fetch(makeSession(), URLRequest(url: url(server, "/api?text=" + String(repeating: "a", count: 3000))))
        XCTAssertEqual(uriTooLong.statusCode, 414)
        XCTAssertEqual(uriTooLong.value(forHTTPHeaderField: "Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(uriTooLong.value(forHTTPHeaderField: "X-Made-By"), "server")
        XCTAssertEqual(uriTooLong.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8")
        var upload = URLRequest(url: url(server, "/upload"))
        upload.httpMethod = "POST"
        upload.httpBody = Data(count: 5000)
        let (bodyTooLarge, _) = try await fetch(makeSession(), upload)
        XCTAssertEqual(bodyTooLarge.statusCode, 413)
        XCTAssertEqual(bodyTooLarge.value(forHTTPHeaderField: "Access-Control-Allow-Origin"), "*")
        // The chunked body's 413 (sent when the request is complete) too.
        let client = try RawHTTPClient(port: server.port)
        let chunk = String(repeating: "x", count: 600)
        try client.write("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        let chunked = try client.readResponse()
        XCTAssertEqual(chunked.status, 413)
        XCTAssertEqual(chunked.header("Access-Control-Allow-Origin"), "*")
        // The handler's own answers are not touched.
        let (ok, _) = try await fetch(makeSession(), URLRequest(url: url(server, "/ok")))
        XCTAssertEqual(ok.statusCode, 200)
        XCTAssertNil(ok.value(forHTTPHeaderField: "X-Made-By"))

        // Without configuration: no extra header.
        let plain = try startServer(HTTPServerConfiguration(threads: 1, maxURLLength: 2048)) { _, response in response.send(.text("ok")) }
        let (bare, _) = try await fetch(makeSession(), URLRequest(url: url(plain, "/api?text=" + String(repeating: "a", count: 3000))))
        XCTAssertEqual(bare.statusCode, 414)
        XCTAssertNil(bare.value(forHTTPHeaderField: "Access-Control-Allow-Origin"))
    }

    // MARK: Connections

    func testKeepAliveAndPipelining() throws {
        let seen = Recorder<String>()
        let server = try startServer { request, response in
            seen.append(request.path)
            response.send(.json(Data(#"{"path":"\#(request.path)"}"#.utf8)))
        }
        let client = try RawHTTPClient(port: server.port)
        try client.get("/one")
        let first = try client.readResponse()
        XCTAssertEqual(first.status, 200)
        XCTAssertNil(first.header("Connection"), "a keep-alive reply must not say Connection: close")
        try client.get("/two")
        let second = try client.readResponse()
        XCTAssertEqual(String(decoding: second.body, as: UTF8.self), #"{"path":"/two"}"#)

        // Two pipelined requests in one write.
        try client.write("GET /three HTTP/1.1\r\nHost: x\r\n\r\nGET /four HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(String(decoding: try client.readResponse().body, as: UTF8.self), #"{"path":"/three"}"#)
        XCTAssertEqual(String(decoding: try client.readResponse().body, as: UTF8.self), #"{"path":"/four"}"#)
        XCTAssertEqual(seen.all, ["/one", "/two", "/three", "/four"])
    }

    func testURLSessionRepliesAreKeepAlive() async throws {
        let server = try startServer { _, response in response.send(.json(Data("{}".utf8))) }
        let session = makeSession()
        for _ in 0..<3 {
            let (response, _) = try await fetch(session, URLRequest(url: url(server, "/k")))
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertNil(response.value(forHTTPHeaderField: "Connection"))
        }
    }

    func testDeferredSendFromAnotherQueue() async throws {
        let server = try startServer { request, response in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
                response.send(.json(Data(#"{"late":true}"#.utf8), status: 202))
            }
        }
        let start = Date()
        let (response, data) = try await fetch(makeSession(), URLRequest(url: url(server, "/late")))
        XCTAssertEqual(response.statusCode, 202)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"late":true}"#)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.19)
    }

    func testDeferredRequestsHoldNoThread() async throws {
        let server = try startServer(HTTPServerConfiguration(threads: 2)) { request, response in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(500)) {
                response.send(HTTPResponse(status: 200, body: Data(request.rawQuery.utf8)))
            }
        }
        let session = makeSession(maxConnections: 250)
        let start = Date()
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                let request = URLRequest(url: url(server, "/slow?i=\(index)"))
                group.addTask {
                    let (data, _) = try await session.data(for: request)
                    return String(decoding: data, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(bodies, Set((0..<200).map { "i=\($0)" }))
        // Threads held by the delays would take 200 × 0.5 s / 2 = 50 s; 5 s leaves room for a loaded machine.
        XCTAssertLessThan(elapsed, 5, "200 requests deferred 500 ms each on 2 threads took \(elapsed) s")
    }

    func testSecondSendAndLateSendAreIgnored() async throws {
        let handles = Recorder<ResponseHandle>()
        let server = try startServer { _, response in
            response.send(HTTPResponse(status: 201))
            response.send(HTTPResponse(status: 500))
            handles.append(response)
        }
        let (response, _) = try await fetch(makeSession(), URLRequest(url: url(server, "/twice")))
        XCTAssertEqual(response.statusCode, 201)
        handles.all.first?.send(HTTPResponse(status: 500))  // after completion: a no-op
    }

    func testClientGoneBeforeDeferredSend() throws {
        let handles = Recorder<ResponseHandle>()
        let server = try startServer { _, response in handles.append(response) }
        do {
            let client = try RawHTTPClient(port: server.port)
            try client.get("/gone")
            XCTAssertTrue(handles.wait(forCount: 1))
        }  // client socket closed while the request is suspended
        handles.all[0].send(.json(Data("{}".utf8)))
        // The server still works.
        let client = try RawHTTPClient(port: server.port)
        try client.get("/next")
        XCTAssertTrue(handles.wait(forCount: 2))
        handles.all[1].send(HTTPResponse(status: 204))
        XCTAssertEqual(try client.readResponse().status, 204)
    }

    // MARK: Lifecycle

    func testStopWithSuspendedRequestsIsPromptAndSafe() throws {
        let handles = Recorder<ResponseHandle>()
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 2)) { _, response in
            handles.append(response)
        }
        try server.start()
        let clients = try (0..<5).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients { try client.get("/never") }
        XCTAssertTrue(handles.wait(forCount: 5))

        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
        XCTAssertFalse(server.isRunning)
        for handle in handles.all { handle.send(HTTPResponse(status: 200)) }  // no-ops
        for client in clients {
            let (data, _) = client.readToEnd()
            XCTAssertTrue(data.isEmpty)
        }
        server.stop()  // idempotent
    }

    func testBusyPortGivesClearError() throws {
        let first = try startServer { _, response in response.send(HTTPResponse(status: 200)) }
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: first.port)) { _, response in
            response.send(HTTPResponse(status: 200))
        }
        XCTAssertThrowsError(try second.start()) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("could not start the HTTP daemon on 127.0.0.1:\(first.port)"), message)
        }
        XCTAssertFalse(second.isRunning)
        XCTAssertThrowsError(try first.start(), "starting twice is an error")
    }

    func testInvalidHostIsRejected() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "not-an-ip")) { _, _ in }
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertTrue(String(describing: error).contains("not-an-ip"))
        }
    }

    func testRestartAfterStop() async throws {
        let server = try startServer { _, response in response.send(HTTPResponse(status: 204)) }
        server.stop()
        try server.start()
        let (response, _) = try await fetch(makeSession(), URLRequest(url: url(server, "/again")))
        XCTAssertEqual(response.statusCode, 204)
    }
}
