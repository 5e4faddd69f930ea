import Foundation
import HTTPProxy
import HTTPServer
import Platform
import HTTPTestSupport
import XCTest

/// `ProxyServer` over real loopback sockets: curl through the proxy (CONNECT + TLS with the local
/// CA, absolute-form http, `HTTPS_PROXY`), refusals with their status and JSON, and the promise
/// that a host which is neither simulated nor allow-listed is never contacted — a loopback
/// listener counts the connections it gets.
final class ProxyTests: XCTestCase {
    private let autocomplete = "/api/autocomplete/v4?apikey=k&text=ben%20thanh"

    func testHTTPSThroughConnectReachesTheBackendWithTheCA() throws {
        try requireCurl()
        let setup = try startProxy()
        let proxy = "http://127.0.0.1:\(setup.proxy.port)"
        let (status, output) = try curl(["--proxy", proxy, "--cacert", setup.caPath, "https://maps.vietmap.vn\(autocomplete)"])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, #"{"path":"/api/autocomplete/v4","query":"apikey=k&text=ben%20thanh","host":"maps.vietmap.vn"}"#)

        // The way CI sets it: HTTPS_PROXY in the environment.
        let (viaEnvironment, environmentOutput) = try curl(["--cacert", setup.caPath, "https://maps.vietmap.vn\(autocomplete)"],
                                                           environment: ["HTTPS_PROXY": proxy, "https_proxy": proxy])
        XCTAssertEqual(viaEnvironment, 0, environmentOutput)
        XCTAssertTrue(environmentOutput.contains(#""host":"maps.vietmap.vn""#), environmentOutput)

        // Several requests on one tunnel (keep-alive inside TLS).
        let (twice, twiceOutput) = try curl(["--proxy", proxy, "--cacert", setup.caPath,
                                             "https://maps.vietmap.vn/a", "https://maps.vietmap.vn/b"])
        XCTAssertEqual(twice, 0, twiceOutput)
        XCTAssertTrue(twiceOutput.contains(#""path":"/a""#) && twiceOutput.contains(#""path":"/b""#), twiceOutput)

        // Without the CA the certificate is refused: the TLS is really terminated with it.
        let (untrusted, _) = try curl(["--proxy", proxy, "https://maps.vietmap.vn\(autocomplete)"])
        XCTAssertEqual(untrusted, 60)
        XCTAssertEqual(setup.proxy.counters.passThroughConnections, 0)
    }

    func testConnectToAnAddressIsRoutedByTheTLSServerName() throws {
        try requireCurl()
        let setup = try startProxy()
        let proxy = "http://127.0.0.1:\(setup.proxy.port)"
        // What the Android emulator's -http-proxy sends: CONNECT ADDRESS:443, the name only in the TLS hello.
        let (status, output) = try curl(["--proxy", proxy, "--cacert", setup.caPath, "--verbose",
                                         "--connect-to", "maps.vietmap.vn:443:192.0.2.10:443", "https://maps.vietmap.vn\(autocomplete)"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("CONNECT 192.0.2.10:443"), output)
        XCTAssertTrue(output.contains(#"{"path":"/api/autocomplete/v4","query":"apikey=k&text=ben%20thanh","host":"maps.vietmap.vn"}"#), output)
        // Another name: closed after the hello, nothing contacted.
        let (other, otherOutput) = try curl(["--proxy", proxy, "--cacert", setup.caPath,
                                             "--connect-to", "api.example.com:443:192.0.2.10:443", "https://api.example.com/"])
        XCTAssertNotEqual(other, 0, otherOutput)
        // Not TLS at all: closed too.
        let client = try RawHTTPClient(port: setup.proxy.port)
        try client.write("CONNECT 192.0.2.10:443 HTTP/1.1\r\n\r\n")
        let deadline = Date().addingTimeInterval(5)
        while !client.hasReceivedSomething, Date() < deadline { usleep(10_000) }
        try client.write("GET / HTTP/1.1\r\n\r\n")
        XCTAssertEqual(String(decoding: client.readToEnd().data, as: UTF8.self), "HTTP/1.1 200 Connection established\r\n\r\n")
        // Another port on an address is an ordinary 403.
        XCTAssertEqual(try exchange(setup.proxy.port, "CONNECT 192.0.2.10:8443 HTTP/1.1\r\n\r\n").status, 403)
        XCTAssertEqual(setup.proxy.counters.passThroughConnections, 0)
        XCTAssertEqual(setup.backendSeen.count, 1)
    }

    func testAbsoluteFormHTTPReachesTheBackendInOriginForm() throws {
        try requireCurl()
        let setup = try startProxy()
        let (status, output) = try curl(["--proxy", "http://127.0.0.1:\(setup.proxy.port)", "http://maps.vietmap.vn\(autocomplete)"])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, #"{"path":"/api/autocomplete/v4","query":"apikey=k&text=ben%20thanh","host":"maps.vietmap.vn"}"#)
        let request = try XCTUnwrap(setup.backendSeen.all.last)
        XCTAssertNil(request.headers["Proxy-Connection"])
        XCTAssertEqual(request.headers["Connection"], "close")

        // CONNECT :80 (curl --proxytunnel): a plain tunnel to the backend.
        let (tunnelled, tunnelOutput) = try curl(["--proxytunnel", "--proxy", "http://127.0.0.1:\(setup.proxy.port)",
                                                  "http://maps.vietmap.vn\(autocomplete)"])
        XCTAssertEqual(tunnelled, 0, tunnelOutput)
        XCTAssertEqual(tunnelOutput, output)

        // Raw: a POST with a body, uppercase host, no Host header.
        let client = try RawHTTPClient(port: setup.proxy.port)
        try client.write("POST http://MAPS.VIETMAP.VN./api/x?q=1 HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"path":"/api/x","query":"q=1","host":"maps.vietmap.vn"}"#)
        XCTAssertEqual(setup.backendSeen.all.last?.body, Data("body".utf8))
    }

    func testOtherHostsGetA403AndAreNeverContacted() throws {
        let listener = try CountingListener()
        addTeardownBlock { listener.stop() }
        let setup = try startProxy()
        let target = "127.0.0.1:\(listener.port)"
        for head in ["CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n",
                     "GET http://\(target)/api/autocomplete/v4?apikey=k HTTP/1.1\r\nHost: \(target)\r\n\r\n",
                     "GET http://localhost:\(listener.port)/ HTTP/1.1\r\n\r\n",
                     "CONNECT example.com:443 HTTP/1.1\r\n\r\n",
                     "CONNECT vietmap.vn:443 HTTP/1.1\r\n\r\n",
                     "CONNECT maps.vietmap.vn.evil.example:443 HTTP/1.1\r\n\r\n"] {
            let response = try exchange(setup.proxy.port, head)
            XCTAssertEqual(response.status, 403, head)
            let body = String(decoding: response.body, as: UTF8.self)
            XCTAssertTrue(body.contains(#""code":"PROXY_HOST_NOT_SIMULATED""#), body)
            XCTAssertTrue(body.contains("was not contacted") && body.contains("--proxy-pass"), body)
            XCTAssertTrue(body.contains(#""simulated":["maps.vietmap.vn"]"#), body)
            XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
            let (status, output) = try curl(["--proxy", "http://127.0.0.1:\(setup.proxy.port)", "--cacert", setup.caPath,
                                             "https://\(target)/"])
            XCTAssertEqual(status, 56, output)  // CONNECT tunnel failed, response 403
            XCTAssertTrue(output.contains("403"), output)
        }
        usleep(100_000)
        XCTAssertEqual(listener.accepted, 0, "the proxy opened a connection to a host it does not simulate")
        XCTAssertEqual(setup.proxy.counters.passThroughConnections, 0)
        XCTAssertEqual(setup.backendSeen.count, 0)
    }

    func testMalformedOversizeAndWrongPortRequestsGetClearErrors() throws {
        let setup = try startProxy(headTimeout: 0.5)
        let cases: [(String, Int, String)] = [
            ("CONNECT maps.vietmap.vn:8443 HTTP/1.1\r\n\r\n", 403, "PROXY_PORT_NOT_SIMULATED"),
            ("GET http://maps.vietmap.vn:8080/api HTTP/1.1\r\n\r\n", 403, "PROXY_PORT_NOT_SIMULATED"),
            ("CONNECT maps.vietmap.vn HTTP/1.1\r\n\r\n", 400, "expected HOST:PORT"),
            ("CONNECT maps.vietmap.vn:99999 HTTP/1.1\r\n\r\n", 400, "malformed CONNECT target"),
            ("CONNECT user@maps.vietmap.vn:443 HTTP/1.1\r\n\r\n", 400, "malformed CONNECT target"),
            ("CONNECT maps.vietmap.vn:443\r\n\r\n", 400, "malformed request line"),
            ("GET /api/autocomplete/v4 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "proxy port"),
            ("GET ftp://maps.vietmap.vn/ HTTP/1.1\r\n\r\n", 400, "unsupported scheme"),
            ("GET http://maps.vietmap.vn/ HTTP/1.1\r\nno colon here\r\n\r\n", 400, "malformed header line"),
            ("GET http://maps.vietmap.vn/ HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431, "PROXY_HEAD_TOO_LARGE"),
        ]
        for (head, status, needle) in cases {
            let response = try exchange(setup.proxy.port, head)
            let body = String(decoding: response.body, as: UTF8.self)
            XCTAssertEqual(response.status, status, "\(head.prefix(80)): \(body)")
            XCTAssertTrue(body.contains(needle), "\(head.prefix(80)): \(body)")
            XCTAssertEqual(response.header("Connection"), "close")
        }
        // A head that never ends: 408 at the deadline, however slowly it trickles.
        let slow = try RawHTTPClient(port: setup.proxy.port)
        try slow.write("CONNECT maps.vietmap.vn:443 HTTP/1.1\r\n")
        let started = Date()
        let timedOut = try slow.readResponse()
        XCTAssertEqual(timedOut.status, 408)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(setup.backendSeen.count, 0)
    }

    func testPassThroughTunnelsToAnAllowListedHostOnly() throws {
        try requireCurl()
        let listener = try CountingListener()
        addTeardownBlock { listener.stop() }
        let other = try CountingListener()
        addTeardownBlock { other.stop() }
        let setup = try startProxy(passThrough: [ProxyPassThrough(parsing: "127.0.0.1:\(listener.port)")!])
        let proxy = "http://127.0.0.1:\(setup.proxy.port)"
        // CONNECT (curl --proxytunnel): a plain TCP tunnel to the real host.
        let (tunnelled, output) = try curl(["--proxytunnel", "--proxy", proxy, "http://127.0.0.1:\(listener.port)/hello"])
        XCTAssertEqual(tunnelled, 0, output)
        XCTAssertEqual(output, "from the listener")
        XCTAssertTrue(listener.requests.first?.hasPrefix("GET /hello HTTP/1.1") ?? false, "\(listener.requests)")
        // Absolute form: forwarded in origin form.
        let (forwarded, forwardedOutput) = try curl(["--proxy", proxy, "http://127.0.0.1:\(listener.port)/again"])
        XCTAssertEqual(forwarded, 0, forwardedOutput)
        XCTAssertEqual(forwardedOutput, "from the listener")
        XCTAssertTrue(listener.requests.last?.hasPrefix("GET /again HTTP/1.1") ?? false, "\(listener.requests)")
        XCTAssertEqual(listener.accepted, 2)
        XCTAssertEqual(setup.proxy.counters.passThroughConnections, 2)

        // The same host on another port is not allowed.
        let response = try exchange(setup.proxy.port, "CONNECT 127.0.0.1:\(other.port) HTTP/1.1\r\n\r\n")
        XCTAssertEqual(response.status, 403)
        usleep(100_000)
        XCTAssertEqual(other.accepted, 0)
    }

    func testSilentTLSClientsAndIdleTunnelsAreClosedAtTheirDeadlines() throws {
        let listener = try CountingListener(answers: false)
        addTeardownBlock { listener.stop() }
        let setup = try startProxy(passThrough: [ProxyPassThrough(host: "127.0.0.1", port: listener.port)],
                                   handshakeTimeout: 0.5, idleTimeout: 0.5)
        for target in ["maps.vietmap.vn:443", "127.0.0.1:\(listener.port)"] {
            let client = try RawHTTPClient(port: setup.proxy.port, receiveTimeout: 10)
            try client.write("CONNECT \(target) HTTP/1.1\r\n\r\n")  // then silence
            let started = Date()
            let (data, _) = client.readToEnd()
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "HTTP/1.1 200 Connection established\r\n\r\n", target)
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertGreaterThan(elapsed, 0.3, target)
            XCTAssertLessThan(elapsed, 3, target)
        }
        XCTAssertEqual(listener.accepted, 1)
    }

    /// The simulator's own ports on this machine are never a pass-through target (its admin API
    /// answers there): a 403, and nothing is contacted — even with the host allowed.
    func testPassThroughNeverReachesTheSimulatorsOwnPorts() throws {
        let own = try CountingListener()
        addTeardownBlock { own.stop() }
        let setup = try startProxy(passThrough: [ProxyPassThrough(host: "127.0.0.1"), ProxyPassThrough(host: "localhost")],
                                   protectedPorts: [own.port])
        for head in ["CONNECT 127.0.0.1:\(own.port) HTTP/1.1\r\n\r\n", "CONNECT localhost:\(own.port) HTTP/1.1\r\n\r\n",
                     "GET http://127.0.0.1:\(own.port)/__sim/journal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                     "CONNECT 127.0.0.1:\(setup.backend.port) HTTP/1.1\r\n\r\n",
                     "CONNECT 127.0.0.1:\(setup.proxy.port) HTTP/1.1\r\n\r\n"] {
            let response = try exchange(setup.proxy.port, head)
            let body = String(decoding: response.body, as: UTF8.self)
            XCTAssertEqual(response.status, 403, "\(head.prefix(60)): \(body)")
            XCTAssertTrue(body.contains(#""code":"PROXY_TARGET_IS_SIMULATOR""#), body)
        }
        XCTAssertEqual(own.accepted, 0, "the proxy connected to a protected port")
        XCTAssertEqual(setup.backendSeen.count, 0)
        XCTAssertEqual(setup.proxy.counters.passThroughConnections, 0)
    }

    func testStopEndsOpenConnections() throws {
        let setup = try startProxy()
        let client = try RawHTTPClient(port: setup.proxy.port)
        try client.write("CONNECT maps.vietmap.vn:443 HTTP/1.1\r\n\r\n")  // 200, then the proxy waits for a TLS hello
        let deadline = Date().addingTimeInterval(5)
        while !client.hasReceivedSomething, Date() < deadline { usleep(10_000) }
        let started = Date()
        setup.proxy.stop()
        let (data, _) = client.readToEnd()
        XCTAssertTrue(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200 Connection established\r\n"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }
}

/// A loopback TCP listener that counts the connections it accepts and answers each with a fixed
/// HTTP response.
final class CountingListener: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let lock = NSLock()
    private var count = 0
    private var seen: [String] = []

    /// - Parameter answers: false: accept, then stay silent until the peer closes.
    init(answers: Bool = true) throws {
        let listening = Sockets.makeStream(family: AF_INET)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) == 0 && getsockname(listening, $0, &length) == 0 }
        }
        guard bound, listen(listening, 16) == 0 else { throw RawHTTPClient.Failure.system("listen", errno) }
        fd = listening
        port = UInt16(bigEndian: address.sin_port)
        let fd = listening
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                lock.withLock { count += 1 }
                guard answers else {
                    Thread {
                        var byte: UInt8 = 0
                        while recv(client, &byte, 1, 0) > 0 {}
                        close(client)
                    }.start()
                    continue
                }
                var timeout = timeval(tv_sec: 2, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var buffer = [UInt8](repeating: 0, count: 4096)
                let received = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                lock.withLock { seen.append(String(decoding: buffer[0..<max(0, received)], as: UTF8.self)) }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 17\r\nConnection: close\r\n\r\nfrom the listener".utf8)
                _ = answer.withUnsafeBytes { Sockets.send(client, $0.baseAddress!, $0.count) }
                close(client)
            }
        }.start()
    }

    var accepted: Int { lock.withLock { count } }
    var requests: [String] { lock.withLock { seen } }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
