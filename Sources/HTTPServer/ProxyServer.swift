import CGnuTLS
import Foundation
import Platform

/// `shutdown(2)` directions (the same numbers on Linux and Darwin; the static-stdlib release build
/// does not see Glibc's `SHUT_RDWR` from this file).
private let shutWrite: Int32 = 1
private let shutReadWrite: Int32 = 2

/// An HTTP proxy in front of a plain-HTTP backend (the simulator's own handler chain on a
/// loopback port): `CONNECT HOST:443` for a simulated host is answered `200 Connection
/// established`, TLS is terminated here with a certificate for HOST, and the decrypted bytes go
/// to the backend; `GET http://HOST/…` (absolute form) goes to the backend in origin form. Any
/// other host gets a 403 and is never contacted — unless it is in the pass-through allow-list,
/// where CONNECT is a plain TCP tunnel and absolute-form requests are forwarded as they are.
///
/// libmicrohttpd has no CONNECT, so this is its own accept loop: one thread per client
/// connection (at most `maxConnections`), the first head read within `headTimeout` and
/// `maxHeadBytes`, then a tunnel with two 16 KiB buffers and an idle timeout.
public final class ProxyServer: @unchecked Sendable {
    public let configuration: ProxyConfiguration
    /// Called with one line for what a user should see (a refused host, a failed TLS handshake).
    private let log: @Sendable (String) -> Void

    private let lock = NSLock()
    private let drained = NSCondition()
    private var listener: Int32 = -1
    private var boundPort: UInt16 = 0
    private var stopping = false
    private var open: Set<Int32> = []
    private var credentials: gnutls_certificate_credentials_t?
    private var acceptThreadRunning = false
    private var counts = Counters()

    /// What the proxy did so far.
    public struct Counters: Sendable, Equatable {
        /// Client connections accepted.
        public var accepted = 0
        /// Requests answered by the proxy itself (403, 400, 408, 431, 502, 503).
        public var refused = 0
        /// Tunnels and requests that reached the backend.
        public var simulated = 0
        /// Connections the proxy opened to pass-through hosts.
        public var passThroughConnections = 0
    }

    public init(configuration: ProxyConfiguration, log: @escaping @Sendable (String) -> Void = { _ in }) {
        var configuration = configuration
        configuration.simulatedHosts = configuration.simulatedHosts.map(ProxyConfiguration.normalized)
        self.configuration = configuration
        self.log = log
    }

    deinit { stop() }

    public var port: UInt16 { lock.withLock { boundPort } }

    public var counters: Counters { lock.withLock { counts } }

    /// Binds, listens and starts accepting.
    public func start() throws(HTTPServerError) {
        let config = configuration
        guard config.maxConnections >= 1, config.maxHeadBytes >= 256, config.headTimeout > 0, config.idleTimeout > 0,
              config.handshakeTimeout > 0, config.connectTimeout > 0 else {
            throw HTTPServerError("invalid proxy configuration: limits must be positive")
        }
        guard let address = ListeningAddress(host: config.host, port: config.port) else {
            throw HTTPServerError("invalid proxy host \"\(config.host)\": expected an IPv4 or IPv6 address literal")
        }
        var error = [CChar](repeating: 0, count: 256)
        guard let made = vmsim_tls_server_credentials(config.credentials.certificatePEM, config.credentials.keyPEM,
                                                      &error, error.count) else {
            throw HTTPServerError("proxy: \(Self.text(error))")
        }
        Signals.ignoreBrokenPipes()
        let fd = Sockets.makeStream(family: address.isIPv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else {
            vmsim_tls_free_credentials(made)
            throw HTTPServerError("proxy: socket: \(String(cString: strerror(errno)))")
        }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {  // as the simulator's own port: `::` is IPv6 only (docs/limits.md)
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSockaddr { pointer in
            bind(fd, pointer, socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size))
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            vmsim_tls_free_credentials(made)
            throw HTTPServerError("proxy: cannot listen on \(config.host):\(config.port): \(reason) (choose another --proxy port)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let port = withUnsafeMutablePointer(to: &storage) { pointer -> UInt16 in
            _ = pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        lock.withLock {
            listener = fd
            boundPort = port
            credentials = made
            stopping = false
            acceptThreadRunning = true
        }
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "vietmap-sim proxy accept"
        thread.start()
    }

    /// Stops accepting, ends every open tunnel and waits (up to 5 s) for their threads. Idempotent.
    public func stop() {
        let fd: Int32 = lock.withLock {
            guard !stopping, listener >= 0 else { return -1 }
            stopping = true
            for client in open { shutdown(client, shutReadWrite) }
            return listener
        }
        guard fd >= 0 else { return }
        shutdown(fd, shutReadWrite)  // wakes accept(2)
        let deadline = Date().addingTimeInterval(5)
        drained.lock()
        while lock.withLock({ !open.isEmpty || acceptThreadRunning }), Date() < deadline {
            _ = drained.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
        }
        drained.unlock()
        lock.withLock {
            close(listener)
            listener = -1
            if open.isEmpty, let credentials {
                vmsim_tls_free_credentials(credentials)
                self.credentials = nil
            }
        }
    }

    // MARK: Accepting

    private func acceptLoop(_ fd: Int32) {
        defer {
            lock.withLock { acceptThreadRunning = false }
            drained.broadcast()
        }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if lock.withLock({ stopping }) { return }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000); continue }
                return
            }
            let admitted = lock.withLock { () -> Bool? in
                if stopping { return nil }
                counts.accepted += 1
                guard open.count < configuration.maxConnections else { counts.refused += 1; return false }
                open.insert(client)
                return true
            }
            switch admitted {
            case nil:
                close(client)
                return
            case false?:
                vmsim_socket_timeouts(client, 1_000)
                _ = sendAll(client, ProxyRefusal(status: 503, reason: "Service Unavailable", code: "PROXY_BUSY",
                                                 message: "the proxy already has \(configuration.maxConnections) connections open").bytes)
                close(client)
            case true?:
                let thread = Thread { [self] in
                    serve(client)
                    lock.withLock {
                        open.remove(client)
                        close(client)
                    }
                    drained.broadcast()
                }
                thread.name = "vietmap-sim proxy connection"
                thread.stackSize = 512 * 1024
                thread.start()
            }
        }
    }

    // MARK: One connection

    private func serve(_ client: Int32) {
        let head: [UInt8], leftover: [UInt8]
        switch readHead(client) {
        case .head(let bytes, let rest):
            (head, leftover) = (bytes, rest)
        case .closed:
            return
        case .refused(let refusal):
            refuse(client, refusal)
            return
        }
        let request: ProxyRequestHead
        do {
            request = try ProxyRequestHead.parse(head)
        } catch {
            refuse(client, error)
            return
        }
        switch request.target {
        case .connect(let host, let port):
            tunnel(client, host: host, port: port, leftover: leftover)
        case .absolute(let scheme, let host, let port, let pathAndQuery):
            forward(client, request, scheme: scheme, host: host, port: port, pathAndQuery: pathAndQuery, leftover: leftover)
        case .origin(let target):
            refuse(client, .badRequest("this is vietmap-sim's proxy port: it takes CONNECT and absolute-form requests "
                + "(curl --proxy http://HOST:PORT …), not '\(request.method) \(target.prefix(100))'; the simulator itself "
                + "listens on its own port"))
        }
    }

    private func isSimulated(_ host: String) -> Bool {
        configuration.simulatedHosts.contains(host)
    }

    private func isPassThrough(_ host: String, _ port: UInt16) -> Bool {
        configuration.passThrough.contains { $0.allows(host: host, port: port) }
    }

    /// The answer to an accepted CONNECT: a bare status line, no headers (the Android
    /// emulator's `-http-proxy` client takes nothing else).
    private static let established = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)

    private func tunnel(_ client: Int32, host: String, port: UInt16, leftover: [UInt8]) {
        if isSimulated(host), port == 80 {
            // `curl --proxytunnel http://HOST/…`: a plain tunnel to the simulator.
            guard let backend = openBackend() else {
                refuse(client, ProxyRefusal(status: 502, reason: "Bad Gateway", code: "PROXY_BACKEND_DOWN",
                                            message: "the simulator's loopback port \(configuration.backendPort) refused the connection"))
                return
            }
            defer { close(backend) }
            lock.withLock { counts.simulated += 1 }
            guard sendAll(client, Self.established), leftover.isEmpty || sendAll(backend, leftover) else { return }
            _ = vmsim_tunnel(nil, client, backend, milliseconds(configuration.idleTimeout), nil, nil, nil)
        } else if isSimulated(host) {
            guard port == 443 else {
                refuse(client, ProxyRefusal(status: 403, reason: "Forbidden", code: "PROXY_PORT_NOT_SIMULATED",
                                            message: "\(host) is simulated on ports 443 (TLS) and 80 only (CONNECT \(host):443); "
                                                + "port \(port) was not contacted",
                                            extra: [("host", ProxyRefusal.quote(host)), ("port", String(port))]))
                return
            }
            guard leftover.isEmpty else {
                refuse(client, .badRequest("bytes arrived after the CONNECT head before `200 Connection established`"))
                return
            }
            guard sendAll(client, Self.established) else { return }
            terminateTLS(client, host: host)
        } else if isPassThrough(host, port) {
            guard let upstream = openPassThrough(client, host: host, port: port) else { return }
            defer { close(upstream) }
            guard sendAll(client, Self.established), leftover.isEmpty || sendAll(upstream, leftover) else { return }
            _ = vmsim_tunnel(nil, client, upstream, milliseconds(configuration.idleTimeout), nil, nil, nil)
        } else if port == 443, leftover.isEmpty, Self.isIPLiteral(host) {
            // A client that resolved the name itself and sends the address (the Android emulator's
            // `-http-proxy`): the TLS ClientHello's server name decides. Nothing is contacted either way.
            guard sendAll(client, Self.established) else { return }
            switch peekServerName(client) {
            case .name(let name) where isSimulated(name):
                terminateTLS(client, host: name)
            case .name(let name):
                lock.withLock { counts.refused += 1 }
                log("proxy: refused CONNECT \(host):443 for \(name.prefix(253)) (not simulated, not in --proxy-pass; "
                    + "closed after the TLS hello, nothing contacted)")
            case .none:
                lock.withLock { counts.refused += 1 }
                log("proxy: refused CONNECT \(host):443 (no TLS server name to go by; not simulated, not in --proxy-pass)")
            }
        } else {
            refuse(client, notSimulated(host: host, port: port, how: "CONNECT \(host):\(port)"))
        }
    }

    /// TLS with the simulated hosts' certificate, then the decrypted stream to the backend.
    private func terminateTLS(_ client: Int32, host: String) {
        guard let credentials = lock.withLock({ self.credentials }) else { return }
        var error = [CChar](repeating: 0, count: 256)
        guard let session = vmsim_tls_accept(credentials, client, milliseconds(configuration.handshakeTimeout),
                                             &error, error.count) else {
            log("proxy: TLS handshake for \(host) failed: \(Self.text(error)) "
                + "(does the client trust the simulator's CA? see docs/proxy.md)")
            return
        }
        defer { vmsim_tls_end(session) }
        guard let backend = openBackend() else {
            log("proxy: the simulator's loopback port \(configuration.backendPort) refused the connection")
            return
        }
        defer { close(backend) }
        lock.withLock { counts.simulated += 1 }
        _ = vmsim_tunnel(session, client, backend, milliseconds(configuration.idleTimeout), nil, nil, nil)
    }

    private enum ServerName {
        case name(String)
        case none
    }

    /// The server name (SNI) of the TLS ClientHello waiting on `fd`, read with MSG_PEEK so that
    /// the handshake still sees every byte; waits up to `handshakeTimeout` for the whole first record.
    private func peekServerName(_ fd: Int32) -> ServerName {
        let deadline = Date().addingTimeInterval(configuration.handshakeTimeout)
        var buffer = [UInt8](repeating: 0, count: 5 + 16_384)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, max(1, milliseconds(deadline.timeIntervalSinceNow))) > 0 else { continue }
            vmsim_socket_timeouts(fd, 1_000)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            guard count > 0 else { return .none }
            switch TLSClientHello.serverName(Array(buffer[0..<count])) {
            case .incomplete:
                usleep(5_000)  // the rest of the record is on its way; peeking again at once would spin
            case .name(let name):
                return .name(ProxyConfiguration.normalized(name))
            case .absent:
                return .none
            }
        }
        return .none
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private func forward(_ client: Int32, _ request: ProxyRequestHead, scheme: String, host: String, port: UInt16,
                         pathAndQuery: String, leftover: [UInt8]) {
        let upstream: Int32
        if isSimulated(host) {
            guard scheme == "http", port == 80 else {
                let how = scheme == "https" ? "https:// in a plain proxy request (clients use CONNECT for https)"
                    : "port \(port)"
                refuse(client, ProxyRefusal(status: 403, reason: "Forbidden", code: "PROXY_PORT_NOT_SIMULATED",
                                            message: "\(host) is simulated at http://\(host)/ and through CONNECT \(host):443, "
                                                + "not by \(how); nothing was contacted",
                                            extra: [("host", ProxyRefusal.quote(host)), ("port", String(port))]))
                return
            }
            guard let backend = openBackend() else {
                refuse(client, ProxyRefusal(status: 502, reason: "Bad Gateway", code: "PROXY_BACKEND_DOWN",
                                            message: "the simulator's loopback port \(configuration.backendPort) refused the connection"))
                return
            }
            lock.withLock { counts.simulated += 1 }
            upstream = backend
        } else if isPassThrough(host, port), scheme == "http" {
            guard let opened = openPassThrough(client, host: host, port: port) else { return }
            upstream = opened
        } else {
            refuse(client, notSimulated(host: host, port: port, how: "\(request.method) \(scheme)://\(host)"))
            return
        }
        defer { close(upstream) }
        let head = request.forwardedHead(pathAndQuery: pathAndQuery, host: host, port: port, defaultPort: 80)
        guard sendAll(upstream, head), leftover.isEmpty || sendAll(upstream, leftover) else { return }
        _ = vmsim_tunnel(nil, client, upstream, milliseconds(configuration.idleTimeout), nil, nil, nil)
    }

    private func notSimulated(host: String, port: UInt16, how: String) -> ProxyRefusal {
        let literal = host.contains(":") ? "[\(host)]" : host
        log("proxy: refused \(how.prefix(300)) (not simulated, not in --proxy-pass)")
        return ProxyRefusal(
            status: 403, reason: "Forbidden", code: "PROXY_HOST_NOT_SIMULATED",
            message: "\(literal):\(port) is not simulated by vietmap-sim and was not contacted. Simulated hosts: "
                + configuration.simulatedHosts.joined(separator: ", ")
                + ". To simulate it: serve --proxy-host \(literal); to let the proxy connect to the real host: "
                + "serve --proxy-pass \(literal) (or \(literal):\(port))",
            extra: [("host", ProxyRefusal.quote(host)), ("port", String(port)),
                    ("simulated", "[" + configuration.simulatedHosts.map(ProxyRefusal.quote).joined(separator: ",") + "]")])
    }

    // MARK: Sockets

    private enum HeadResult {
        case head([UInt8], leftover: [UInt8])
        case closed
        case refused(ProxyRefusal)
    }

    /// Reads up to the blank line that ends the head, within `headTimeout` overall (trickling
    /// does not extend it) and `maxHeadBytes`.
    private func readHead(_ fd: Int32) -> HeadResult {
        let deadline = Date().addingTimeInterval(configuration.headTimeout)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var searchFrom = 0
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                return buffer.isEmpty ? .closed
                    : .refused(ProxyRefusal(status: 408, reason: "Request Timeout", code: "PROXY_HEAD_TIMEOUT",
                                            message: "the request head did not arrive within \(Int(configuration.headTimeout)) s"))
            }
            vmsim_socket_timeouts(fd, max(1, milliseconds(remaining)))
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { continue }  // the deadline check above ends it
            guard count > 0 else { return .closed }
            buffer += chunk[0..<count]
            if let end = Self.headEnd(buffer, from: searchFrom) {
                guard end <= configuration.maxHeadBytes else { return .refused(tooLarge) }
                return .head(Array(buffer[..<end]), leftover: Array(buffer[end...]))
            }
            guard buffer.count <= configuration.maxHeadBytes else { return .refused(tooLarge) }
            searchFrom = max(0, buffer.count - 3)
        }
    }

    private var tooLarge: ProxyRefusal {
        ProxyRefusal(status: 431, reason: "Request Header Fields Too Large", code: "PROXY_HEAD_TOO_LARGE",
                     message: "the request head is larger than \(configuration.maxHeadBytes) bytes")
    }

    /// The index just past `\r\n\r\n`, searching from `start`.
    static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = max(0, start)
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    private func refuse(_ fd: Int32, _ refusal: ProxyRefusal) {
        lock.withLock { counts.refused += 1 }
        vmsim_socket_timeouts(fd, 2_000)
        _ = sendAll(fd, refusal.bytes)
        // Let the client read the answer before the close (no reset for unread request bytes).
        shutdown(fd, shutWrite)
        var sink = [UInt8](repeating: 0, count: 4096)
        vmsim_socket_timeouts(fd, 200)
        for _ in 0..<16 where sink.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            vmsim_tunnel_write(nil, fd, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count) == 0
        }
    }

    private func openBackend() -> Int32? {
        Self.connectTCP(host: configuration.backendHost, port: configuration.backendPort,
                        timeoutMilliseconds: milliseconds(configuration.connectTimeout))
    }

    /// Connects to an allow-listed host; on failure answers the client with a 502.
    private func openPassThrough(_ client: Int32, host: String, port: UInt16) -> Int32? {
        lock.withLock { counts.passThroughConnections += 1 }
        guard let fd = Self.connectTCP(host: host, port: port, timeoutMilliseconds: milliseconds(configuration.connectTimeout)) else {
            refuse(client, ProxyRefusal(status: 502, reason: "Bad Gateway", code: "PROXY_PASS_THROUGH_FAILED",
                                        message: "could not connect to the pass-through host \(host):\(port)"))
            return nil
        }
        return fd
    }

    /// A blocking TCP connection to host:port (resolved with getaddrinfo, each address tried in
    /// turn), or nil.
    static func connectTCP(host: String, port: UInt16, timeoutMilliseconds: Int32) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sockets.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let fd = Sockets.makeStream(family: entry.pointee.ai_family)
            guard fd >= 0 else { continue }
            vmsim_socket_timeouts(fd, timeoutMilliseconds)  // Linux bounds connect(2) by SO_SNDTIMEO (macOS by its own ~75 s)
            if connect(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 { return fd }
            close(fd)
        }
        return nil
    }

    private func milliseconds(_ seconds: TimeInterval) -> Int32 {
        Int32(clamping: Int((seconds * 1000).rounded(.up)))
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
