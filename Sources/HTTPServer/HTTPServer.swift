import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd: a pool of event-loop threads calls `handler` for
/// every complete request. Requests answered later (`ResponseHandle.send` from another
/// queue) are suspended meanwhile and hold no thread.
///
///     let server = HTTPServer(configuration: .init(port: 8080)) { request, response in
///         response.send(.json(Data(#"{"ok":true}"#.utf8)))
///     }
///     try server.start()
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    private let handler: HTTPHandler

    private let lock = NSLock()
    private var running: Running?

    private struct Running {
        let daemon: OpaquePointer
        let core: ServerCore
        let log: UnsafeMutablePointer<vmsim_mhd_log>
        let port: UInt16
    }

    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
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
        lock.withLock {
            guard let running else { return }
            self.running = nil
            // MHD_stop_daemon must never find a suspended connection: resume them all.
            for context in running.core.beginShutdown() {
                context.cancelForShutdown()
            }
            MHD_stop_daemon(running.daemon)
            vmsim_mhd_log_destroy(running.log)
            running.log.deallocate()
        }
    }

    private func launch() throws(HTTPServerError) -> Running {
        let config = configuration
        let endpoint = "\(config.host):\(config.port)"
        guard config.threads >= 1, config.maxURLLength > 0, config.maxHeaderBytes > 0, config.maxBodyBytes >= 0,
              config.connectionTimeout >= 0
        else { throw HTTPServerError("invalid HTTP server configuration for \(endpoint): limits must be positive") }
        guard let address = ListeningAddress(host: config.host, port: config.port) else {
            throw HTTPServerError("invalid host \"\(config.host)\": expected an IPv4 or IPv6 address literal")
        }

        signal(SIGPIPE, SIG_IGN)

        let core = ServerCore(handler: handler, configuration: config)
        let log = UnsafeMutablePointer<vmsim_mhd_log>.allocate(capacity: 1)
        vmsim_mhd_log_init(log)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

        let daemon = address.withSockaddr { sockaddr in
            vmsim_start_daemon(UInt32(flags), config.port, sockaddr, UInt32(config.threads),
                               config.maxHeaderBytes, UInt32(clamping: config.connectionTimeout),
                               accessHandler, Unmanaged.passUnretained(core).toOpaque(),
                               uriLogged, Unmanaged.passUnretained(core).toOpaque(),
                               requestCompleted, nil, log)
        }
        guard let daemon else {
            let detail = Self.lastMessage(log)
            vmsim_mhd_log_destroy(log)
            log.deallocate()
            throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (MHD_start_daemon failed"
                + (detail.isEmpty ? "; address in use?)" : ": \(detail))"))
        }
        let port = vmsim_daemon_bound_port(daemon)
        guard port != 0 else {
            MHD_stop_daemon(daemon)
            vmsim_mhd_log_destroy(log)
            log.deallocate()
            throw HTTPServerError("HTTP daemon on \(endpoint) started but MHD_get_daemon_info(MHD_DAEMON_INFO_BIND_PORT) failed")
        }
        return Running(daemon: daemon, core: core, log: log, port: port)
    }

    private static func lastMessage(_ log: UnsafeMutablePointer<vmsim_mhd_log>) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        vmsim_mhd_log_copy(log, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
