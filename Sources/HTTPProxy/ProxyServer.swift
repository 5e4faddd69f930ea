import CGnuTLS
import CMicroHTTPD
import Foundation
import HTTPServer
import JSON
import Platform

/// `shutdown(2)` directions (the same numbers on Linux and Darwin; the static-stdlib release build
/// does not see Glibc's `SHUT_RDWR` from this file).
private let shutWrite: Int32 = 1
private let shutReadWrite: Int32 = 2

/// The C tunnel's state another thread may read (`vmsim_tunnel_state`).
typealias TunnelState = vmsim_tunnel_state

/// An HTTP proxy in front of a plain-HTTP backend (the simulator's own handler chain on a
/// loopback port): `CONNECT HOST:443` for a simulated host is answered `200 Connection
/// established`, TLS is terminated here with a certificate for HOST, and the decrypted bytes go
/// to the backend; `GET http://HOST/…` (absolute form) goes to the backend in origin form. Any
/// other host gets a 403 and is never contacted — unless it is in the pass-through allow-list,
/// where CONNECT is a plain TCP tunnel and absolute-form requests are forwarded as they are.
///
/// libmicrohttpd has no CONNECT, so this is its own accept loop: one thread per client
/// connection, limited per client address and in all like the direct port
/// (`ProxyConnectionTable`); the first head read within `headTimeout` and `maxHeadBytes`, parsed
/// strictly (`ProxyRequestHead`), a TLS handshake within `handshakeTimeout` (a sweep closes
/// connections past their deadline, however slowly bytes trickle), then a tunnel with two
/// 16 KiB buffers and an idle timeout. `stop(drainTimeout:drainingBackend:)` drains.
public final class ProxyServer: @unchecked Sendable {
    public let configuration: ProxyConfiguration
    /// Called with one line for what a user should see (a refused host, a failed TLS handshake).
    private let log: @Sendable (String) -> Void

    private let lock = NSLock()
    /// Broadcast when a connection ends or the accept thread stops.
    private let ended = NSCondition()
    private var listener: Int32 = -1
    private var boundPort: UInt16 = 0
    /// Set once stopping or draining began: no new connection is accepted…
    private var stopping = false
    /// …except, while a drain takes it over, what waits in the listen queue.
    private var takingOverQueue = false
    private var table: ProxyConnectionTable
    private var credentials: gnutls_certificate_credentials_t?
    private var acceptThreadRunning = false
    private var counts = Counters()
    private var sweeper: (any DispatchSourceTimer)?

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
        /// Connections closed at once because their client address had `maxConnectionsPerClient` open.
        public var overClientLimit = 0
        /// Connections closed to make room (the longest waiting for a head or handshake).
        public var evicted = 0
        /// Connections closed at their head or handshake deadline by the sweep.
        public var timedOut = 0
    }

    public init(configuration: ProxyConfiguration, log: @escaping @Sendable (String) -> Void = { _ in }) {
        var configuration = configuration
        configuration.simulatedHosts = configuration.simulatedHosts.map(ProxyConfiguration.normalized)
        self.configuration = configuration
        self.log = log
        table = ProxyConnectionTable(maxTotal: configuration.maxConnections, maxPerClient: configuration.maxConnectionsPerClient)
    }

    deinit { stop() }

    public var port: UInt16 { lock.withLock { boundPort } }

    public var counters: Counters {
        lock.withLock {
            var counters = counts
            counters.overClientLimit = table.overClientLimit
            counters.evicted = table.evicted
            counters.timedOut = table.timedOut
            return counters
        }
    }

    /// Client connections open now.
    public var openConnections: Int { lock.withLock { table.count } }

    /// Binds, listens and starts accepting.
    public func start() throws(HTTPServerError) {
        let config = configuration
        guard config.maxConnections >= 1, config.maxConnectionsPerClient >= 0, config.maxHeadBytes >= 256,
              config.headTimeout > 0, config.idleTimeout > 0, config.handshakeTimeout > 0, config.connectTimeout > 0 else {
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
        // Three descriptors a connection in this process: the client's, the proxy's to the
        // backend, and the backend's end of that when it runs in-process (`serve --proxy`).
        ResourceLimits.raiseOpenFileLimit(to: 3 * config.maxConnections + 256)
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
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vietmap-sim proxy deadlines"))
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.closeExpired() }
        lock.withLock {
            listener = fd
            boundPort = port
            credentials = made
            stopping = false
            takingOverQueue = false
            acceptThreadRunning = true
            sweeper = timer
        }
        timer.resume()
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "vietmap-sim proxy accept"
        thread.start()
    }

    /// Stops accepting, ends every open connection at once and waits (up to 5 s) for their
    /// threads. Idempotent.
    public func stop() {
        _ = stop(drainTimeout: 0)
    }

    /// Stops gracefully, as the simulator's own port does (docs/limits.md, Shutdown): stops
    /// accepting at once (connections already in the listen queue are taken over first), closes
    /// connections that have sent nothing, lets heads and TLS handshakes under way finish and
    /// waits until every tunnel has passed on to the backend what its client sent so far; then
    /// calls `drainingBackend` with the seconds left — it should drain the backend server
    /// (`HTTPServer.stop(drainTimeout:)`), which answers those requests with `Connection:
    /// close` and closes its connections, so the tunnels end once their answers are through.
    /// After `drainTimeout` whatever is still open is closed (pass-through tunnels are closed
    /// when the simulator's are done). Returns how many simulated connections had to be cut off.
    @discardableResult
    public func stop(drainTimeout: TimeInterval, drainingBackend: (TimeInterval) -> Void = { _ in }) -> Int {
        let fd: Int32 = lock.withLock {
            guard !stopping, listener >= 0 else { return -1 }
            stopping = true
            takingOverQueue = drainTimeout > 0
            return listener
        }
        guard fd >= 0 else { return 0 }
        let deadline = Date().addingTimeInterval(max(0, drainTimeout))
        if drainTimeout > 0 {
            takeOverListenQueue(fd)
        }
        shutdown(fd, shutReadWrite)  // wakes accept(2)
        lock.withLock { takingOverQueue = false }
        var cutOff = 0
        if drainTimeout > 0 {
            // Everything received so far on its way to the backend, then the backend drains.
            while Date() < deadline {
                let done = lock.withLock { () -> Bool in
                    for socket in table.idleForDrain(hasUnreadBytes: { vmsim_tunnel_unread_bytes($0) > 0 }) {
                        shutdown(socket, shutReadWrite)
                    }
                    return table.flushed { socket, state in
                        vmsim_tunnel_unread_bytes(socket) == 0 && vmsim_tunnel_holding(state) == 0
                    }
                }
                if done { break }
                usleep(5_000)
            }
            drainingBackend(max(0.001, deadline.timeIntervalSinceNow))
            waitUntil(deadline) { !self.table.servesSimulator }
            cutOff = lock.withLock { table.entries.values.filter { !$0.closing && $0.phase != .passThrough }.count }
        }
        lock.withLock {
            for socket in table.closeAll() { shutdown(socket, shutReadWrite) }
        }
        waitUntil(Date().addingTimeInterval(5)) { self.table.count == 0 && !self.acceptThreadRunning }
        let timer = lock.withLock { () -> (any DispatchSourceTimer)? in
            close(listener)
            listener = -1
            if table.count == 0, let credentials {
                vmsim_tls_free_credentials(credentials)
                self.credentials = nil
            }
            defer { sweeper = nil }
            return sweeper
        }
        timer?.cancel()
        return cutOff
    }

    /// Waits until `condition` (read under the lock) holds or `deadline` passed.
    private func waitUntil(_ deadline: Date, _ condition: @escaping () -> Bool) {
        ended.lock()
        while !lock.withLock(condition), Date() < deadline {
            _ = ended.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
        }
        ended.unlock()
    }

    // MARK: Accepting

    private func acceptLoop(_ fd: Int32) {
        defer {
            lock.withLock { acceptThreadRunning = false }
            ended.broadcast()
        }
        while true {
            let (client, storage) = Self.acceptClient(fd)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if lock.withLock({ stopping }) { return }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000); continue }
                return
            }
            admit(client, from: Self.addressText(storage))
        }
    }

    /// `accept(2)` on `fd`: the client's socket (or -1 and `errno`) and its address.
    private static func acceptClient(_ fd: Int32) -> (Int32, sockaddr_storage) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
        }
        return (client, storage)
    }

    /// Accepts what waits in the listen queue (those clients connected before the stop; closing
    /// the listener would reset them, requests and all) and admits it as usual.
    private func takeOverListenQueue(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return }
        for _ in 0..<4096 {
            let (client, storage) = Self.acceptClient(fd)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL, 0) & ~O_NONBLOCK)  // accepted sockets may inherit it (Darwin)
            admit(client, from: Self.addressText(storage))
        }
    }

    private func admit(_ client: Int32, from address: String) {
        let admission = lock.withLock { () -> ProxyConnectionTable.Admission? in
            if stopping, !takingOverQueue { return nil }
            counts.accepted += 1
            let now = ConnectionGuard.now()
            // The sweep is a backstop: the head reader answers 408 at the deadline itself.
            let admission = table.admit(client, client: address, now: now, headDeadline: now + nanoseconds(configuration.headTimeout + 1))
            switch admission {
            case .admitted(let evicting?):
                shutdown(evicting, shutReadWrite)
            case .busy:
                counts.refused += 1
            default:
                break
            }
            return admission
        }
        switch admission {
        case nil, .overClientLimit?:
            close(client)
        case .busy?:
            vmsim_socket_timeouts(client, 1_000)
            _ = sendAll(client, ProxyRefusal(status: 503, reason: "Service Unavailable", code: "PROXY_BUSY",
                                             message: "the proxy already has \(configuration.maxConnections) connections open").bytes)
            close(client)
        case .admitted?:
            let thread = Thread { [self] in
                serve(client)
                lock.withLock {
                    table.remove(client)
                    close(client)
                }
                ended.broadcast()
            }
            thread.name = "vietmap-sim proxy connection"
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    /// Shuts down every connection past its deadline (the sweep, every 100 ms).
    private func closeExpired() {
        lock.withLock {
            for socket in table.expired(now: ConnectionGuard.now()) { shutdown(socket, shutReadWrite) }
        }
    }

    /// `socket` moved on to `phase`; its deadline `seconds` after the connection was accepted
    /// (nil: none). Returns the seconds left until that deadline.
    @discardableResult
    private func enter(_ phase: ProxyConnectionTable.Phase, _ socket: Int32, deadlineAfterOpening seconds: TimeInterval? = nil,
                       tunnel: UnsafeMutablePointer<TunnelState>? = nil) -> TimeInterval {
        lock.withLock {
            let now = ConnectionGuard.now()
            let deadline = seconds.map { (table.entries[socket]?.opened ?? now) + nanoseconds($0) }
            table.enter(phase, socket: socket, now: now, deadline: deadline, tunnel: tunnel)
            return deadline.map { $0 > now ? Double($0 - now) / 1e9 : 0 } ?? .infinity
        }
    }

    private func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }

    /// The client's address as text (the per-client limit's key).
    private static func addressText(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var bytes = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var bytes = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count))
                }
            }
        }
        return Self.text(buffer)
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
                refuse(client, backendDown)
                return
            }
            defer { close(backend) }
            lock.withLock { counts.simulated += 1 }
            enter(.forwardingRequest, client)
            guard sendAll(client, Self.established), leftover.isEmpty || sendAll(backend, leftover) else { return }
            runTunnel(nil, client, backend)
        } else if isSimulated(host) {
            guard port == 443 else {
                refuse(client, ProxyRefusal(status: 403, reason: "Forbidden", code: "PROXY_PORT_NOT_SIMULATED",
                                            message: "\(host) is simulated on ports 443 (TLS) and 80 only (CONNECT \(host):443); "
                                                + "port \(port) was not contacted",
                                            extra: [("host", .string(host)), ("port", .integer(Int(port)))]))
                return
            }
            guard leftover.isEmpty else {
                refuse(client, .badRequest("bytes arrived after the CONNECT head before `200 Connection established`"))
                return
            }
            let left = enter(.handshake, client, deadlineAfterOpening: configuration.handshakeTimeout)
            guard left > 0, sendAll(client, Self.established) else { return }
            terminateTLS(client, host: host, within: left)
        } else if isPassThrough(host, port) {
            enter(.passThrough, client)
            guard let upstream = openPassThrough(client, host: host, port: port) else { return }
            defer { close(upstream) }
            guard sendAll(client, Self.established), leftover.isEmpty || sendAll(upstream, leftover) else { return }
            _ = vmsim_tunnel(nil, client, upstream, milliseconds(configuration.idleTimeout), nil, nil, nil)
        } else if port == 443, leftover.isEmpty, Self.isIPLiteral(host) {
            // A client that resolved the name itself and sends the address (the Android emulator's
            // `-http-proxy`): the TLS ClientHello's server name decides. Nothing is contacted either way.
            // One deadline for the hello and the handshake together.
            let left = enter(.handshake, client, deadlineAfterOpening: configuration.handshakeTimeout)
            guard left > 0, sendAll(client, Self.established) else { return }
            let deadline = Date().addingTimeInterval(left)
            switch peekServerName(client, until: deadline) {
            case .name(let name) where isSimulated(name):
                terminateTLS(client, host: name, within: deadline.timeIntervalSinceNow)
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

    /// A tunnel between the client (through `session` when TLS) and the backend, its state
    /// registered for the drain.
    private func runTunnel(_ session: gnutls_session_t?, _ client: Int32, _ backend: Int32) {
        let state = UnsafeMutablePointer<TunnelState>.allocate(capacity: 1)
        vmsim_tunnel_state_init(state)
        enter(.tunnel, client, tunnel: state)
        _ = vmsim_tunnel(session, client, backend, milliseconds(configuration.idleTimeout), state, nil, nil)
        enter(.awaitingAnswer, client)  // unregisters the state before it is freed
        state.deallocate()
    }

    /// TLS with the simulated hosts' certificate, then the decrypted stream to the backend. The
    /// handshake's deadline (`within` seconds) is the `.handshake` phase's, set by the caller:
    /// the sweep closes the socket when it passes, however slowly the hello trickles (GnuTLS's
    /// own timeout restarts with every read).
    private func terminateTLS(_ client: Int32, host: String, within seconds: TimeInterval) {
        guard seconds > 0, let credentials = lock.withLock({ self.credentials }) else { return }
        var error = [CChar](repeating: 0, count: 256)
        guard let session = vmsim_tls_accept(credentials, client, milliseconds(seconds), &error, error.count) else {
            log("proxy: TLS handshake for \(host) failed: \(Self.text(error)) "
                + "(does the client trust the simulator's CA? see docs/proxy.md)")
            return
        }
        defer { vmsim_tls_end(session) }
        guard let backend = openBackend(tls: true) else {
            log("proxy: the simulator's loopback port \(backendPort(tls: true)) refused the connection")
            return
        }
        defer { close(backend) }
        lock.withLock { counts.simulated += 1 }
        runTunnel(session, client, backend)
    }

    private enum ServerName {
        case name(String)
        case none
    }

    /// The server name (SNI) of the TLS ClientHello waiting on `fd`, read with MSG_PEEK so that
    /// the handshake still sees every byte; waits until `deadline` for the whole first record.
    private func peekServerName(_ fd: Int32, until deadline: Date) -> ServerName {
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

    /// An absolute-form request: its head (origin form, `Host` from the target) and exactly
    /// `Content-Length` bytes of body go on; nothing the client sends after them is forwarded
    /// (one request per connection, whatever hides behind it); then the answer comes back.
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
                                            extra: [("host", .string(host)), ("port", .integer(Int(port)))]))
                return
            }
            guard let backend = openBackend() else {
                refuse(client, backendDown)
                return
            }
            lock.withLock { counts.simulated += 1 }
            enter(.forwardingRequest, client)
            upstream = backend
        } else if isPassThrough(host, port), scheme == "http" {
            enter(.passThrough, client)
            guard let opened = openPassThrough(client, host: host, port: port) else { return }
            upstream = opened
        } else {
            refuse(client, notSimulated(host: host, port: port, how: "\(request.method) \(scheme)://\(host)"))
            return
        }
        defer { close(upstream) }
        let head = request.forwardedHead(pathAndQuery: pathAndQuery, host: host, port: port, defaultPort: 80)
        let inHead = min(leftover.count, request.contentLength)
        guard sendAll(upstream, head), inHead == 0 || sendAll(upstream, Array(leftover[..<inHead])) else { return }
        guard copyBody(from: client, to: upstream, remaining: request.contentLength - inHead) else { return }
        if isSimulated(host) { enter(.awaitingAnswer, client) }
        relayAnswer(from: upstream, to: client)
    }

    /// Copies `remaining` body bytes from the client to `upstream`, passing on to the client
    /// whatever `upstream` says meanwhile (a `100 Continue`, or an early answer such as a 413);
    /// false when `upstream` closed, either side failed, or both went silent for the idle
    /// timeout — the exchange is over.
    private func copyBody(from client: Int32, to upstream: Int32, remaining: Int) -> Bool {
        var remaining = remaining
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let idle = milliseconds(configuration.idleTimeout)
        vmsim_socket_timeouts(client, idle)
        vmsim_socket_timeouts(upstream, idle)
        while remaining > 0 {
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, idle)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            if fds[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                guard count > 0, sendAll(client, Array(buffer[0..<count])) else { return false }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, min($0.count, remaining), 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0, sendAll(upstream, Array(buffer[0..<count])) else { return false }
            remaining -= count
        }
        return true
    }

    /// Copies the answer from `upstream` to the client until `upstream` closes (the request
    /// said `Connection: close`) or goes silent for the idle timeout. Bytes from the client are
    /// not read any more.
    private func relayAnswer(from upstream: Int32, to client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        vmsim_socket_timeouts(upstream, milliseconds(configuration.idleTimeout))
        vmsim_socket_timeouts(client, milliseconds(configuration.idleTimeout))
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(upstream, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0, sendAll(client, Array(buffer[0..<count])) else { return }
        }
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
            extra: [("host", .string(host)), ("port", .integer(Int(port))),
                    ("simulated", .array(configuration.simulatedHosts.map { .string($0) }))])
    }

    private var backendDown: ProxyRefusal {
        ProxyRefusal(status: 502, reason: "Bad Gateway", code: "PROXY_BACKEND_DOWN",
                     message: "the simulator's loopback port \(configuration.backendPort) refused the connection")
    }

    // MARK: Sockets

    private enum HeadResult {
        case head([UInt8], leftover: [UInt8])
        case closed
        case refused(ProxyRefusal)
    }

    /// Reads up to the blank line that ends the head, within `headTimeout` overall (trickling
    /// does not extend it) and `maxHeadBytes`. A bare LF is refused as soon as it arrives (a
    /// client that ends lines so would otherwise wait for the deadline).
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
                                            message: "the request head did not arrive within \(Self.seconds(configuration.headTimeout))"))
            }
            vmsim_socket_timeouts(fd, max(1, milliseconds(remaining)))
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { continue }  // the deadline check above ends it
            guard count > 0 else { return .closed }
            if buffer.isEmpty { lock.withLock { table.noteHeadBytes(fd) } }
            let previous = buffer.count
            buffer += chunk[0..<count]
            if let end = Self.headEnd(buffer, from: searchFrom) {
                guard end <= configuration.maxHeadBytes else { return .refused(tooLarge) }
                return .head(Array(buffer[..<end]), leftover: Array(buffer[end...]))
            }
            guard buffer.count <= configuration.maxHeadBytes else { return .refused(tooLarge) }
            if let bare = (previous..<buffer.count).first(where: { buffer[$0] == 10 && ($0 == 0 || buffer[$0 - 1] != 13) }) {
                return .refused(.badRequest("a bare LF (line feed without carriage return) in the request head at byte \(bare); "
                    + "lines end with CRLF"))
            }
            searchFrom = max(0, buffer.count - 3)
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
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

    /// A connection to the backend; for a decrypted TLS stream (`tls`) to `tlsBackendPort` when set.
    private func openBackend(tls: Bool = false) -> Int32? {
        Self.connectTCP(host: configuration.backendHost, port: backendPort(tls: tls),
                        timeoutMilliseconds: milliseconds(configuration.connectTimeout))
    }

    private func backendPort(tls: Bool) -> UInt16 {
        tls ? configuration.tlsBackendPort ?? configuration.backendPort : configuration.backendPort
    }

    /// Connects to an allow-listed host; on failure answers the client with a 502, and with a 403
    /// when the host is this machine on one of the simulator's own ports (its admin API answers
    /// there, and never through the proxy).
    private func openPassThrough(_ client: Int32, host: String, port: UInt16) -> Int32? {
        var protected = configuration.protectedPorts
        protected.insert(configuration.backendPort)
        if let tlsBackendPort = configuration.tlsBackendPort { protected.insert(tlsBackendPort) }
        protected.insert(self.port)
        var refusedOwnPort = false
        let fd = Self.connectTCP(host: host, port: port, timeoutMilliseconds: milliseconds(configuration.connectTimeout)) { address in
            guard let target = LocalEndpoint.port(address), protected.contains(target), LocalEndpoint.isThisMachine(address) else {
                return true
            }
            refusedOwnPort = true
            return false
        }
        guard let fd else {
            if refusedOwnPort {
                refuse(client, ProxyRefusal(status: 403, reason: "Forbidden", code: "PROXY_TARGET_IS_SIMULATOR",
                                            message: "\(host):\(port) is one of vietmap-sim's own ports on this machine; the proxy "
                                                + "never connects there (the admin API is not reachable through the proxy); "
                                                + "nothing was contacted",
                                            extra: [("host", .string(host)), ("port", .integer(Int(port)))]))
            } else {
                refuse(client, ProxyRefusal(status: 502, reason: "Bad Gateway", code: "PROXY_PASS_THROUGH_FAILED",
                                            message: "could not connect to the pass-through host \(host):\(port)"))
            }
            return nil
        }
        lock.withLock { counts.passThroughConnections += 1 }
        return fd
    }

    /// A blocking TCP connection to host:port (resolved with getaddrinfo, each address that
    /// `allowed` lets through tried in turn), or nil.
    static func connectTCP(host: String, port: UInt16, timeoutMilliseconds: Int32,
                           allowed: (UnsafePointer<sockaddr>) -> Bool = { _ in true }) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sockets.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            guard let address = entry.pointee.ai_addr, allowed(UnsafePointer(address)) else { continue }
            let fd = Sockets.makeStream(family: entry.pointee.ai_family)
            guard fd >= 0 else { continue }
            vmsim_socket_timeouts(fd, timeoutMilliseconds)  // Linux bounds connect(2) by SO_SNDTIMEO (macOS by its own ~75 s)
            if connect(fd, address, entry.pointee.ai_addrlen) == 0 { return fd }
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
