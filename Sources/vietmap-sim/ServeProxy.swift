import Dataset
import Foundation
import HTTPServer
import VietMapSimulator

/// `serve --proxy PORT`: an HTTP proxy that answers `maps.vietmap.vn` (and `--proxy-host`s) from
/// this simulator — the same handler chain, served again on a loopback port for the proxy — over
/// TLS with a certificate from the local CA, refuses every other host with a 403 unless it is in
/// `--proxy-pass`. See docs/proxy.md.
struct ServeProxy {
    static let valued: Set<String> = ["proxy", "proxy-host", "proxy-pass"]

    let port: UInt16?
    let hosts: [String]
    let passThrough: [ProxyPassThrough]

    init(_ options: CommandLineArguments) throws {
        guard let text = options.value("proxy") else {
            guard options.all("proxy-host").isEmpty, options.all("proxy-pass").isEmpty else {
                throw CommandLineArguments.UsageError(description: "--proxy-host and --proxy-pass need --proxy PORT")
            }
            (port, hosts, passThrough) = (nil, [], [])
            return
        }
        guard let value = UInt16(text) else {
            throw CommandLineArguments.UsageError(description: "--proxy must be a port from 0 to 65535, got '\(text)'")
        }
        port = value
        var hosts = ProxyConfiguration.defaultSimulatedHosts
        for host in options.all("proxy-host") {
            guard let (name, given) = Self.authority(host), given == nil else {
                throw CommandLineArguments.UsageError(description: "--proxy-host must be a host name or IP address without a port, got '\(host.prefix(100))'")
            }
            if !hosts.contains(name) { hosts.append(name) }
        }
        self.hosts = hosts
        passThrough = try options.all("proxy-pass").map { text in
            guard let rule = ProxyPassThrough(parsing: text) else {
                throw CommandLineArguments.UsageError(description: "--proxy-pass must be HOST or HOST:PORT, got '\(text.prefix(100))'")
            }
            guard !hosts.contains(rule.host) else {
                throw CommandLineArguments.UsageError(description: "--proxy-pass \(rule): \(rule.host) is simulated (a --proxy-host or the default)")
            }
            return rule
        }
    }

    private static func authority(_ text: String) -> (String, UInt16?)? {
        ProxyPassThrough(parsing: text).map { ($0.host, $0.port) }
    }

    /// The proxy and the loopback server behind it.
    final class Running {
        let proxy: ProxyServer
        let backend: HTTPServer
        let caCertificatePath: String

        init(proxy: ProxyServer, backend: HTTPServer, caCertificatePath: String) {
            (self.proxy, self.backend, self.caCertificatePath) = (proxy, backend, caCertificatePath)
        }

        func stop() {
            proxy.stop()
            backend.stop()
        }
    }

    /// Starts the proxy on `host` (nil when `--proxy` was not given).
    func start(simulator: SimulatorServer, host: String) throws -> Running? {
        guard let port else { return nil }
        let directory = DatasetCache.defaultDirectory().appendingPathComponent("tls")
        let (credentials, caPath) = try LocalCertificateAuthority(directory: directory).proxyCertificate(for: hosts)
        var http = simulator.httpConfiguration
        http.host = "127.0.0.1"
        http.port = 0
        http.tls = nil
        http.threads = 2
        http.maxConnectionsPerClient = 0  // every proxied connection comes from the proxy
        let configuration = ProxyConfiguration(host: host, port: port, simulatedHosts: hosts, passThrough: passThrough,
                                               credentials: credentials, backendPort: 0)
        http.maxConnections = max(http.maxConnections, configuration.maxConnections + 16)
        let backend = HTTPServer(configuration: http, handler: simulator.handler)
        try backend.start()
        var proxyConfiguration = configuration
        proxyConfiguration.backendPort = backend.port
        let proxy = ProxyServer(configuration: proxyConfiguration) { line in
            FileHandle.standardError.write(Data("vietmap-sim: \(line)\n".utf8))
        }
        do {
            try proxy.start()
        } catch {
            backend.stop()
            throw error
        }
        return Running(proxy: proxy, backend: backend, caCertificatePath: caPath)
    }
}
