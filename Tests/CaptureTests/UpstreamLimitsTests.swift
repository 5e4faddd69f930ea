import Capture
import Foundation
import Zlib
import HTTPServer
import VietMapClient
import TestExpectations
import Testing

/// `serve --upstream` does not trust the upstream: hostile upstreams on loopback (a redirect to
/// another host, a body without end, a gzip bomb, a trickled head or body, status 999) end in
/// the upstream's own 3xx, a 502 or a 504 within the deadline, and nothing past a limit is recorded.
extension CaptureTests {
    static let route = "/api/route/v4?apikey=\(clientKey)&point=10.7725,106.6980&point=10.7769,106.7009"

    func hostile(_ script: @escaping @Sendable (HostileUpstream.Connection) -> Void) throws -> HostileUpstream {
        let upstream = try HostileUpstream(script: script)
        addTeardownBlock { upstream.stop() }
        return upstream
    }

    static func url(_ upstream: HostileUpstream) -> URL { URL(string: "http://127.0.0.1:\(upstream.port)")! }

    func files(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func text(_ reply: Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    @Test func testARedirectToAnotherHostIsPassedOnNotFollowed() throws {
        let hits = Counter()
        let other = try start { _, handle in hits.add(); handle.send(.json(Data("{\"other-host\":true}".utf8))) }
        let redirecting = try start { request, handle in
            var response = HTTPResponse(status: request.path.hasPrefix("/api/route") ? 307 : 301, body: Data("moved".utf8))
            response.headers.set("Location", "http://127.0.0.1:\(other.port)\(request.path)?\(request.rawQuery)")
            handle.send(response)
        }
        let directory = try temporaryDirectory()
        let proxy = try proxy(to: Self.url(redirecting), record: directory)
        let permanent = try get(proxy, Self.session[0])
        expectEqual(permanent.status, 301)
        expectEqual(text(permanent), "moved")
        expectTrue(permanent.header("Location")?.hasPrefix("http://127.0.0.1:\(other.port)/api/autocomplete/v4?") ?? false,
                      "\(permanent.headers)")
        let temporary = try get(proxy, Self.route)
        expectEqual(temporary.status, 307)
        expectEqual(hits.value, 0, "the other host was never asked")
        let recorded = try VMRecording.load(directory: directory)
        expectEqual(recorded.map(\.response.status), [301, 307], "the upstream's own answers are recorded")
        for file in try files(directory) {
            expectFalse(try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).contains("other-host"), file)
        }
    }

    @Test func testABodyPastTheCapIs502AndNotRecorded() throws {
        // 200 MiB offered in 64 KiB chunks; the proxy takes 1 MiB.
        let chunk = Data(String(format: "%x\r\n", 65536).utf8) + Data(repeating: 0x20, count: 65536) + Data("\r\n".utf8)
        let endless = try hostile { connection in
            guard connection.emit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            for _ in 0..<3200 { guard connection.emit(chunk) else { return } }
            _ = connection.emit("0\r\n\r\n")
        }
        let directory = try temporaryDirectory()
        let proxy = try proxy(to: Self.url(endless), record: directory, maxBodyBytes: 1 << 20)
        let reply = try get(proxy, Self.route)
        expectEqual(reply.status, 502)
        expectTrue(text(reply).contains("upstream answer larger than 1048576 bytes"), text(reply))
        expectTrue(text(reply).contains("\"paths\":null"), "the route envelope: \(text(reply))")
        expectTrue(endless.waitForScripts(10), "the upstream's writer ended: the proxy closed the connection")
        expectLessThan(endless.bytesSent, 32 << 20, "the proxy stopped reading near the cap, not at 200 MiB")
        expectEqual(try files(directory), [])

        // A declared length over the cap is refused from the head.
        let declared = try hostile { connection in
            _ = connection.emit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n")
            _ = connection.pause(3)
        }
        let second = try self.proxy(to: Self.url(declared), record: directory, maxBodyBytes: 1 << 20)
        let refused = try get(second, Self.session[0])
        expectEqual(refused.status, 502)
        expectTrue(text(refused).contains("\"code\":\"BAD_GATEWAY\""), text(refused))
        expectEqual(try files(directory), [])
    }

    @Test func testAGzipBombPastTheCapIs502AndOnlyGzipIsAskedFor() throws {
        let zeros = Data(repeating: 0, count: 1 << 20)
        let bomb = try Self.gzip(zeros)
        expectLessThan(bomb.count, 8 * 1024)
        let upstream = try hostile { connection in
            _ = connection.emit("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n")
            _ = connection.emit(bomb)
        }
        let directory = try temporaryDirectory()
        let small = try proxy(to: Self.url(upstream), record: directory, maxBodyBytes: 64 * 1024)
        let reply = try get(small, Self.session[0])
        expectEqual(reply.status, 502)
        expectTrue(text(reply).contains("larger than 65536 bytes"), text(reply))
        expectEqual(try files(directory), [])
        let head = upstream.requestHeads.first?.lowercased() ?? ""
        expectTrue(head.contains("accept-encoding: gzip\r\n"), head)

        // Under the cap the inflated body is passed on, without the encoding header.
        let large = try proxy(to: Self.url(upstream), record: directory, maxBodyBytes: 2 << 20)
        let inflated = try get(large, Self.session[0])
        expectEqual(inflated.status, 200)
        expectEqual(inflated.body, zeros)
        expectNil(inflated.header("Content-Encoding"))
        expectEqual(try files(directory).count, 1)
    }

    @Test func testATrickledHeadOrBodyEndsAtTheDeadline() throws {
        let trickledHead = try hostile { connection in
            guard connection.emit("HTTP/1.1 200 OK\r\nX-Slow: ") else { return }
            for _ in 0..<300 { guard connection.emit("a"), connection.pause(0.1) else { return } }
        }
        let trickledBody = try hostile { connection in
            guard connection.emit("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n") else { return }
            for _ in 0..<300 { guard connection.emit(" "), connection.pause(0.1) else { return } }
        }
        let directory = try temporaryDirectory()
        for upstream in [trickledHead, trickledBody] {
            let proxy = try proxy(to: Self.url(upstream), timeout: 1, record: directory)
            let started = Date()
            let reply = try get(proxy, Self.route)
            let elapsed = Date().timeIntervalSince(started)
            expectEqual(reply.status, 504)
            expectTrue(text(reply).contains("\"code\":\"GATEWAY_TIMEOUT\"") || text(reply).contains("GATEWAY_TIMEOUT"), text(reply))
            expectLessThan(elapsed, 2, "one deadline for head and body")
        }
        expectEqual(try files(directory), [])
    }

    @Test func testAStatusOutside100To599Is502() throws {
        let odd = try hostile { connection in
            _ = connection.emit("HTTP/1.1 999 Odd\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]")
        }
        let directory = try temporaryDirectory()
        let proxy = try proxy(to: Self.url(odd), record: directory)
        let reply = try get(proxy, Self.session[0])
        expectEqual(reply.status, 502)
        expectTrue(text(reply).contains("status 999"), text(reply))
        expectEqual(try files(directory), [])

        let withFallback = try self.proxy(to: Self.url(odd), fallback: true)
        let answered = try get(withFallback, Self.session[0])
        expectEqual(answered.status, 200)
        expectEqual(answered.header("X-VietMap-Sim-Fallback"), "simulator; upstream answered status 999, outside 100-599")
    }

    /// `data` as one gzip member.
    static func gzip(_ data: Data) throws -> Data {
        Deflate.compressedData(data, format: .gzip, level: 9)
    }
}
