import Foundation
import HTTPServer
import Platform
import HTTPTestSupport
import XCTest

/// Graceful shutdown (drain) and refusing ports that `localhost` would share with another server.
final class ShutdownAndBindTests: XCTestCase {
    // MARK: Drain

    func testDrainLetsDelayedRequestsFinish() throws {
        let received = Recorder<Int>()
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 2)) { request, response in
            received.append(1)
            // Answered later from another queue: the request is suspended meanwhile.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
                response.send(.json(Data(#"{"late":true}"#.utf8)))
            }
        }
        try server.start()
        let port = server.port
        let clients = try (0..<12).map { _ in try RawHTTPClient(port: port) }
        for client in clients { try client.get("/slow") }
        XCTAssertTrue(received.wait(forCount: clients.count))
        let idle = try RawHTTPClient(port: port)  // connected, no request: closed at once

        let stopped = Recorder<Int>()
        let started = Date()
        DispatchQueue.global().async { stopped.append(server.stop(drainTimeout: 5)) }
        for client in clients {
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"late":true}"#)
            XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        }
        XCTAssertTrue(idle.readToEnd().data.isEmpty)
        XCTAssertTrue(stopped.wait(forCount: 1))
        XCTAssertEqual(stopped.all, [0], "no connection had to be cut off")
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertThrowsError(try RawHTTPClient(port: port), "no longer accepting")
    }

    /// 200 requests sent before the stop while both workers are busy: most of them are
    /// still in the listen queue or unread in their socket. Every one is answered.
    func testDrainAnswersRequestsQueuedBehindBusyWorkers() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 2)) { request, response in
            if request.path == "/sleep" {
                usleep(20_000)  // holds the worker thread: nothing else is accepted or read meanwhile
                response.send(.text("slept"))
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { response.send(.text("late")) }
            }
        }
        try server.start()
        let port = server.port
        let clients = try (0..<200).map { index in
            let client = try RawHTTPClient(port: port, receiveTimeout: 30)
            try client.get(index.isMultiple(of: 2) ? "/sleep" : "/suspend")
            return client
        }
        usleep(50_000)  // the last requests reach the server's socket buffers
        let stopped = Recorder<Int>()
        DispatchQueue.global().async { stopped.append(server.stop(drainTimeout: 25)) }
        var answered = 0
        var failures: [String] = []
        for (index, client) in clients.enumerated() {
            do {
                let response = try client.readResponse()
                let expected = index.isMultiple(of: 2) ? "slept" : "late"
                if response.status == 200, String(decoding: response.body, as: UTF8.self) == expected { answered += 1 }
            } catch {
                failures.append("#\(index): \(error)")
            }
        }
        XCTAssertEqual(answered, 200, "unanswered: \(failures.prefix(5))")
        XCTAssertTrue(stopped.wait(forCount: 1, timeout: 30))
        XCTAssertEqual(stopped.all, [0], "no connection had to be cut off")
        XCTAssertThrowsError(try RawHTTPClient(port: port), "no longer accepting")
    }

    /// A keep-alive connection whose next request is unread when the stop begins gets it answered.
    func testDrainAnswersTheNextRequestOfAKeepAliveConnection() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 1)) { request, response in
            if request.path == "/sleep" { usleep(300_000) }
            response.send(.text(request.path))
        }
        try server.start()
        let keptAlive = try RawHTTPClient(port: server.port, receiveTimeout: 10)
        try keptAlive.get("/first")
        XCTAssertEqual(try keptAlive.readResponse().status, 200)
        let busy = try RawHTTPClient(port: server.port, receiveTimeout: 10)
        try busy.get("/sleep")  // occupies the only worker
        usleep(50_000)
        try keptAlive.get("/next")  // not read before the worker is free
        let stopped = Recorder<Int>()
        DispatchQueue.global().async { stopped.append(server.stop(drainTimeout: 5)) }
        XCTAssertEqual(String(decoding: try busy.readResponse().body, as: UTF8.self), "/sleep")
        XCTAssertEqual(String(decoding: try keptAlive.readResponse().body, as: UTF8.self), "/next")
        XCTAssertTrue(stopped.wait(forCount: 1))
        XCTAssertEqual(stopped.all, [0])
    }

    func testDrainTimeoutCutsOffWhatIsStillOpen() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 1)) { _, _ in }  // never answers
        try server.start()
        let client = try RawHTTPClient(port: server.port)
        try client.get("/never")
        usleep(100_000)
        let started = Date()
        XCTAssertEqual(server.stop(drainTimeout: 0.3), 1)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 2)
        XCTAssertTrue(client.readToEnd().data.isEmpty)
    }

    // MARK: Bind conflicts

    func testIPv6LoopbackRefusesAPortTakenOnIPv4Loopback() throws {
        let (listener, port) = try listen(family: AF_INET)
        defer { close(listener) }
        for host in ["::1", "::"] {
            let server = HTTPServer(configuration: HTTPServerConfiguration(host: host, port: port, threads: 1)) { _, response in
                response.send(.text("mine"))
            }
            XCTAssertThrowsError(try server.start(), host) { error in
                XCTAssertTrue("\(error)".contains("port \(port) is already in use on 127.0.0.1"), "\(error)")
            }
            XCTAssertFalse(server.isRunning)
        }
    }

    func testIPv4LoopbackRefusesAPortTakenOnIPv6Loopback() throws {
        let (listener, port) = try listen(family: AF_INET6)
        defer { close(listener) }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "localhost", port: port, threads: 1)) { _, response in
            response.send(.text("mine"))
        }
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertTrue("\(error)".contains("already in use on ::1"), "\(error)")
        }
    }

    func testFreePortOnBothFamiliesStarts() throws {
        let server = try startServer(HTTPServerConfiguration(host: "::1", port: 0, threads: 1)) { _, response in
            response.send(.text("ok"))
        }
        XCTAssertNotEqual(server.port, 0)
        XCTAssertTrue(server.isRunning)
    }

    /// A listening TCP socket on the loopback address of `family`, on an ephemeral port.
    private func listen(family: Int32) throws -> (Int32, UInt16) {
        let fd = Sockets.makeStream(family: family)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var one: Int32 = 1
        if family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            XCTAssertEqual(result, 0)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            XCTAssertEqual(result, 0)
        }
        XCTAssertEqual(Sockets.listen(fd, 8), 0)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
            family == AF_INET6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (fd, port)
    }
}
