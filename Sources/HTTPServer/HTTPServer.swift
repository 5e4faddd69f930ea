import CMicroHTTPD
import Foundation
import Platform

/// An HTTP/1.1 server on libmicrohttpd: a pool of event-loop threads calls `responder` for
/// every complete request. Requests answered later (`ResponseHandle.send` from another
/// queue) are suspended meanwhile and hold no thread.
///
///     let server = HTTPServer(configuration: .init(port: 8080)) { request, response in
///         response.send(.json(Data(#"{"ok":true}"#.utf8)))
///     }
///     try server.start()
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder

    private let lock = NSLock()
    private var running: Running?

    private struct Running {
        let daemon: OpaquePointer
        let core: ServerCore
        let log: UnsafeMutablePointer<vmsim_mhd_log>
        let port: UInt16

        /// Stops the daemon and frees its error log (the daemon must have no suspended connection).
        func destroy() {
            MHD_stop_daemon(daemon)
            Self.freeLog(log)
        }

        static func freeLog(_ log: UnsafeMutablePointer<vmsim_mhd_log>) {
            vmsim_mhd_log_destroy(log)
            log.deallocate()
        }
    }

    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    /// A server whose responder is `handler` (a ``ClosureResponder``).
    public convenience init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
                            handler: @escaping @Sendable (_ request: HTTPRequest, _ reply: ResponseHandle) -> Void) {
        self.init(configuration: configuration, responder: ClosureResponder(handler))
    }

    deinit {
        stop()
    }

    /// The bound port while running (the real one when configured with port 0), otherwise
    /// the configured port.
    public var port: UInt16 {
        lock.withLock { running?.port ?? configuration.port }
    }

    public var isRunning: Bool {
        lock.withLock { running != nil }
    }

    /// Binds and starts serving. Also makes the process ignore SIGPIPE, so clients that
    /// disconnect cannot kill it. Throws if already running or if the daemon cannot start.
    public func start() throws(HTTPServerError) {
        lock.lock()
        defer { lock.unlock() }
        guard running == nil else { throw HTTPServerError("the HTTP server is already running") }
        running = try launch()
    }

    /// Stops serving and waits for the worker threads to end. Suspended requests are
    /// closed without a response; later `send` calls on their handles are ignored.
    /// Idempotent. Must not be called from inside a handler (it joins the server threads).
    public func stop() {
        stop(drainTimeout: 0)
    }

    /// Stops serving gracefully: stops accepting at once, and answers every request the
    /// kernel already received — connections still in the listen queue are accepted once
    /// more before the listening socket is closed, and requests not yet read on open
    /// connections are read — besides those already started (including suspended ones
    /// waiting for a later `send`); each response carries `Connection: close`. Connections
    /// between requests with nothing received are closed. All this for up to `drainTimeout`
    /// seconds; what is still open then is closed as by `stop()`, and requests not yet
    /// handled are not started. Returns the number of connections that had to be cut off.
    @discardableResult
    public func stop(drainTimeout: TimeInterval) -> Int {
        let taken = lock.withLock { () -> Running? in
            defer { running = nil }
            return running
        }
        guard let running = taken else { return 0 }
        var remaining = 0
        if drainTimeout > 0 {
            remaining = Self.drain(running, timeout: drainTimeout)
        }
        running.core.connectionGuard.stopSweeping()
        // MHD_stop_daemon must never find a suspended connection: resume them all.
        for context in running.core.beginShutdown() {
            context.cancelForShutdown()
        }
        running.destroy()
        return remaining
    }

    /// Stops accepting, takes over the connections still in the listen queue, closes the
    /// listening socket and waits until every connection has ended or the timeout passed;
    /// returns how many connections were still open.
    private static func drain(_ running: Running, timeout: TimeInterval) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        running.core.beginDrain()
        let listener = MHD_quiesce_daemon(running.daemon)
        if listener >= 0 {
            ListenBacklog.handOver(listener, to: running.daemon, announcingTo: running.core.connectionGuard)
            close(listener)
        }
        while true {
            let open = running.core.connectionGuard.closeIdleConnections()
            if open == 0 { return 0 }
            if Date() >= deadline { return open }
            usleep(10_000)
        }
    }

    private func launch() throws(HTTPServerError) -> Running {
        let config = configuration
        let endpoint = "\(config.host):\(config.port)"
        guard config.threads >= 1, config.maxURLLength > 0, config.maxHeaderBytes > 0, config.maxBodyBytes >= 0,
              config.connectionTimeout >= 0, config.maxConnections >= 1, config.maxConnectionsPerClient >= 0,
              config.headerTimeout >= 0, config.bodyTimeout >= 0, config.listenBacklog >= 0
        else { throw HTTPServerError("invalid HTTP server configuration for \(endpoint): limits must be positive") }
        guard let address = ListeningAddress(host: config.host, port: config.port) else {
            throw HTTPServerError("invalid host \"\(config.host)\": expected an IPv4 or IPv6 address literal")
        }
        if config.tls != nil, vmsim_mhd_supports_tls() == 0 {
            throw HTTPServerError("this libmicrohttpd was built without TLS support; --tls is not available")
        }

        Signals.ignoreBrokenPipes()
        // MHD's hard limit, above the guard's soft one so that the guard sees (and can make
        // room for) new connections; beyond it MHD closes new connections at once.
        let hardLimit = config.maxConnections + config.maxConnections / 4 + 16 * config.threads
        // The connection limits, not EMFILE, decide who is refused.
        ResourceLimits.raiseOpenFileLimit(to: hardLimit + 256)

        // With port 0, the kernel may pick a port that is taken on the other address family
        // of `localhost`: pick again.
        var attempt = 0
        while true {
            attempt += 1
            let running = try startDaemon(address: address, hardLimit: hardLimit, endpoint: endpoint)
            guard let conflict = address.takenSibling(port: running.port) else {
                running.core.connectionGuard.startSweeping()
                return running
            }
            running.destroy()
            if config.port != 0 || attempt >= 8 {
                throw HTTPServerError("port \(running.port) is already in use on \(conflict), so `localhost:\(running.port)` "
                    + "could reach another server; stop that server or choose another --port")
            }
        }
    }

    private func startDaemon(address: ListeningAddress, hardLimit: Int,
                             endpoint: String) throws(HTTPServerError) -> Running {
        let config = configuration
        let core = ServerCore(responder: responder, configuration: config)
        let log = UnsafeMutablePointer<vmsim_mhd_log>.allocate(capacity: 1)
        vmsim_mhd_log_init(log)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if config.tls != nil { flags |= MHD_USE_TLS.rawValue }

        let corePointer = Unmanaged.passUnretained(core).toOpaque()
        let keyPEM = strdup(config.tls?.keyPEM ?? "")
        let certificatePEM = strdup(config.tls?.certificatePEM ?? "")
        defer {
            free(keyPEM)
            free(certificatePEM)
        }
        let daemon = address.withSockaddr { sockaddr -> OpaquePointer? in
            var options = vmsim_daemon_options()
            options.bind_addr = sockaddr
            options.thread_pool_size = UInt32(config.threads)
            options.memory_limit = config.maxHeaderBytes
            options.timeout_seconds = UInt32(clamping: config.connectionTimeout)
            options.connection_limit = UInt32(clamping: hardLimit)
            options.per_ip_connection_limit = UInt32(clamping: config.maxConnectionsPerClient)
            options.listen_backlog = UInt32(clamping: config.listenBacklog)
            if config.tls != nil {
                options.tls_key_pem = UnsafePointer(keyPEM)
                options.tls_cert_pem = UnsafePointer(certificatePEM)
            }
            return vmsim_start_daemon(UInt32(flags), config.port, &options,
                                      accessHandler, corePointer, uriLogged, corePointer,
                                      requestCompleted, nil, connectionNotified, corePointer, log)
        }
        guard let daemon else {
            let detail = Self.lastMessage(log)
            Running.freeLog(log)
            throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (MHD_start_daemon failed"
                + (detail.isEmpty ? "; address in use?)" : ": \(detail))"))
        }
        let running = Running(daemon: daemon, core: core, log: log, port: vmsim_daemon_bound_port(daemon))
        guard running.port != 0 else {
            running.destroy()
            throw HTTPServerError("HTTP daemon on \(endpoint) started but MHD_get_daemon_info(MHD_DAEMON_INFO_BIND_PORT) failed")
        }
        return running
    }

    /// Connection figures while running (nil when stopped): open connections, connections
    /// closed to make room, connections closed at their head/body deadline.
    public var connectionCounters: (open: Int, evicted: Int, timedOut: Int)? {
        guard let core = lock.withLock({ running?.core }) else { return nil }
        let counters = core.connectionGuard.counters
        return (counters.open, counters.evicted, counters.timedOut)
    }

    private static func lastMessage(_ log: UnsafeMutablePointer<vmsim_mhd_log>) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        vmsim_mhd_log_copy(log, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
