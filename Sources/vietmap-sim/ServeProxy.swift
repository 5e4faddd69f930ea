import Dataset
import Foundation
import HTTPProxy
import HTTPServer
import Scenarios
import VietMapSimulator

/// `serve --proxy PORT`: an HTTP proxy that answers `maps.vietmap.vn` (and `--proxy-host`s) from
/// this simulator — the same handler chain, served again on a loopback port for the proxy — over
/// TLS with a certificate from the local CA, refuses every other host with a 403 unless it is in
/// `--proxy-pass`. See docs/proxy.md.
struct ServeProxy {
    static let options: [OptionSpec] = [
        .option("proxy", "PORT", .integer(0...65535), "also run an HTTP proxy on HOST:PORT (0 = any free port; a second stdout line names it) that answers maps.vietmap.vn from this simulator: CONNECT :443 (TLS with a certificate from the local CA, tls/ca.pem) and http:// requests; scenarios, journal and dashboard apply. Any other host: 403, never contacted"),
        .option("proxy-host", "HOST", repeatable: true, "with --proxy: also simulate HOST through the proxy; repeatable"),
        .option("proxy-pass", "HOST[:PORT]", repeatable: true, "with --proxy: let the proxy really connect to HOST (any port, or PORT): CONNECT becomes a plain tunnel, http:// requests are forwarded; repeatable"),
    ]

    let port: UInt16?
    let hosts: [String]
    let passThrough: [ProxyPassThrough]

    init(_ options: CommandLineArguments) throws {
        guard let value = options.integer("proxy") else {
            guard options.all("proxy-host").isEmpty, options.all("proxy-pass").isEmpty else {
                throw UsageError("--proxy-host and --proxy-pass need --proxy PORT")
            }
            (port, hosts, passThrough) = (nil, [], [])
            return
        }
        port = UInt16(value)
        var hosts = ProxyConfiguration.defaultSimulatedHosts
        for host in options.all("proxy-host") {
            guard let (name, given) = Self.authority(host), given == nil else {
                throw UsageError("--proxy-host must be a host name or IP address without a port, got '\(host.prefix(100))'")
            }
            if !hosts.contains(name) { hosts.append(name) }
        }
        self.hosts = hosts
        passThrough = try options.all("proxy-pass").map { text in
            guard let rule = ProxyPassThrough(parsing: text) else {
                throw UsageError("--proxy-pass must be HOST or HOST:PORT, got '\(text.prefix(100))'")
            }
            guard !hosts.contains(rule.host) else {
                throw UsageError("--proxy-pass \(rule): \(rule.host) is simulated (a --proxy-host or the default)")
            }
            return rule
        }
    }

    private static func authority(_ text: String) -> (String, UInt16?)? {
        ProxyPassThrough(parsing: text).map { ($0.host, $0.port) }
    }

    /// The proxy and the loopback servers behind it (one for plain http, one for the decrypted
    /// TLS streams). `@unchecked Sendable`: all are thread-safe.
    final class Running: @unchecked Sendable {
        let proxy: ProxyServer
        let backends: [HTTPServer]
        let caCertificatePath: String

        init(proxy: ProxyServer, backends: [HTTPServer], caCertificatePath: String) {
            (self.proxy, self.backends, self.caCertificatePath) = (proxy, backends, caCertificatePath)
        }

        /// Stops them all at once (idempotent).
        func stop() {
            proxy.stop()
            for backend in backends { backend.stop() }
        }

        /// The drain of SIGINT/SIGTERM: the proxy stops accepting and passes on what its clients
        /// sent, the backends answer it (`Connection: close`), then the tunnels close — up to
        /// `drainTimeout` seconds. Returns how many connections had to be cut off.
        func stop(drainTimeout: TimeInterval) -> Int {
            let backends = self.backends
            let backendCutOff = CutOffCount()
            let proxyCutOff = proxy.stop(drainTimeout: drainTimeout) { remaining in
                // Side by side: each backend gets the whole remaining time.
                DispatchQueue.concurrentPerform(iterations: backends.count) { index in
                    backendCutOff.add(backends[index].stop(drainTimeout: remaining))
                }
            }
            for backend in backends { backend.stop() }
            return proxyCutOff + backendCutOff.total
        }

        /// `stop(drainTimeout:)` on another thread (beside the direct port's drain).
        func drainInBackground(drainTimeout: TimeInterval) -> Drain {
            let drain = Drain()
            Thread { [self] in drain.finish(stop(drainTimeout: drainTimeout)) }.start()
            return drain
        }
    }

    /// Connections cut off by drains running side by side.
    private final class CutOffCount: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func add(_ count: Int) { lock.withLock { value += count } }
        var total: Int { lock.withLock { value } }
    }

    /// A drain under way on another thread.
    final class Drain: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var cutOff = 0

        fileprivate func finish(_ cutOff: Int) {
            self.cutOff = cutOff
            done.signal()
        }

        /// Waits for the drain; how many connections it had to cut off.
        func wait() -> Int {
            done.wait()
            return cutOff
        }
    }

    /// Starts the proxy on `host` (nil when `--proxy` was not given), with the direct port's
    /// connection limits and head deadline (docs/limits.md, Proxy).
    func start(simulator: SimulatorServer, host: String) throws -> Running? {
        guard let port else { return nil }
        let directory = DatasetCache.defaultDirectory().appendingPathComponent("tls")
        let (credentials, caPath) = try LocalCertificateAuthority(directory: directory).proxyCertificate(for: hosts)
        let direct = simulator.httpConfiguration
        var http = direct
        http.host = "127.0.0.1"
        http.port = 0
        http.tls = nil
        http.threads = 2
        http.maxConnectionsPerClient = 0  // every proxied connection comes from the proxy, which applies the limit
        // `--header-timeout 0` turns the direct port's deadline off; the proxy keeps its 10 s (a
        // thread per connection must not wait forever).
        let deadline = direct.headerTimeout > 0 ? direct.headerTimeout : 10
        let configuration = ProxyConfiguration(host: host, port: port, simulatedHosts: hosts, passThrough: passThrough,
                                               credentials: credentials, backendPort: 0,
                                               maxConnections: direct.maxConnections,
                                               maxConnectionsPerClient: direct.maxConnectionsPerClient,
                                               headTimeout: deadline, handshakeTimeout: deadline,
                                               protectedPorts: [simulator.port])
        http.maxConnections = max(http.maxConnections, configuration.maxConnections + 16)
        // The admin API and the dashboard answer on the simulator's own port only (docs/proxy.md).
        // Two listeners, so the simulator knows the scheme the client used (a map style names its
        // inner URLs on it): plain http (absolute form, CONNECT :80) and the decrypted CONNECT :443.
        let guarded = AdminPathRefusal.wrap(simulator.responder)
        let plain = HTTPServer(configuration: http, responder: ProxiedScheme.http.wrap(guarded))
        let decrypted = HTTPServer(configuration: http, responder: ProxiedScheme.https.wrap(guarded))
        let backends = [plain, decrypted]
        do {
            for backend in backends { try backend.start() }
        } catch {
            for backend in backends { backend.stop() }
            throw error
        }
        var proxyConfiguration = configuration
        proxyConfiguration.backendPort = plain.port
        proxyConfiguration.tlsBackendPort = decrypted.port
        let proxy = ProxyServer(configuration: proxyConfiguration) { line in
            FileHandle.standardError.write(Data("vietmap-sim: \(line)\n".utf8))
        }
        do {
            try proxy.start()
        } catch {
            for backend in backends { backend.stop() }
            throw error
        }
        return Running(proxy: proxy, backends: backends, caCertificatePath: caPath)
    }
}
