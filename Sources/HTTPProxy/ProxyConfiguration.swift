import Foundation
import HTTPServer

/// Settings for a `ProxyServer` (docs/proxy.md).
public struct ProxyConfiguration: Sendable {
    /// IPv4 or IPv6 literal to listen on.
    public var host: String
    /// Port to listen on; 0 picks a free one (`ProxyServer.port`).
    public var port: UInt16
    /// Hosts answered by the backend: `CONNECT HOST:443` (TLS terminated here with
    /// `credentials`) and `http://HOST/…` (port 80). DNS names or IP literals, any case.
    public var simulatedHosts: [String]
    /// Hosts the proxy may really connect to; every other host is refused with a 403 and never
    /// contacted.
    public var passThrough: [ProxyPassThrough]
    /// The certificate (chain) and key shown to clients for the simulated hosts.
    public var credentials: TLSCredentials
    /// The plain-HTTP server that answers the simulated hosts (a loopback address and port).
    public var backendHost: String
    public var backendPort: UInt16
    /// Where the decrypted streams of `CONNECT HOST:443` go, when not `backendPort`: a listener
    /// that knows its requests came over TLS (`serve --proxy` marks them `X-Forwarded-Proto: https`,
    /// so a style fetched as `https://maps.vietmap.vn/…` names `https://maps.vietmap.vn/…` inside).
    public var tlsBackendPort: UInt16?
    /// Most client connections at once. Beyond it the connection that has waited longest for
    /// its head or TLS handshake is closed to make room; when every one is past that, the new
    /// one gets a 503 at once (the direct port's rule, `HTTPServerConfiguration.maxConnections`).
    public var maxConnections: Int
    /// Most connections at once from one client address (0 = no limit); more are closed as soon
    /// as they are accepted (`HTTPServerConfiguration.maxConnectionsPerClient`).
    public var maxConnectionsPerClient: Int
    /// Largest first request head (request line and headers); more get a 431.
    public var maxHeadBytes: Int
    /// Seconds to send the first request head, counted from the accept; then a 408. Trickled
    /// bytes do not extend it.
    public var headTimeout: TimeInterval
    /// Seconds for the TLS handshake after `200 Connection established` (the ClientHello and
    /// the whole handshake; trickled bytes do not extend it); then the connection is closed.
    public var handshakeTimeout: TimeInterval
    /// Seconds without a byte either way before a tunnel is closed.
    public var idleTimeout: TimeInterval
    /// Seconds to connect to a pass-through host; then a 502.
    public var connectTimeout: TimeInterval
    /// Ports on this machine the proxy never connects to, even for a pass-through host that
    /// resolves here: the simulator's own listeners (its admin API answers there). The backend's
    /// and the proxy's own port are always protected.
    public var protectedPorts: Set<UInt16>

    public init(host: String = "127.0.0.1", port: UInt16 = 0, simulatedHosts: [String] = ProxyConfiguration.defaultSimulatedHosts,
                passThrough: [ProxyPassThrough] = [], credentials: TLSCredentials,
                backendHost: String = "127.0.0.1", backendPort: UInt16, tlsBackendPort: UInt16? = nil,
                maxConnections: Int = 1000, maxConnectionsPerClient: Int = 256, maxHeadBytes: Int = 16 * 1024,
                headTimeout: TimeInterval = 10, handshakeTimeout: TimeInterval = 10, idleTimeout: TimeInterval = 60,
                connectTimeout: TimeInterval = 10, protectedPorts: Set<UInt16> = []) {
        self.host = host
        self.port = port
        self.simulatedHosts = simulatedHosts
        self.passThrough = passThrough
        self.credentials = credentials
        self.backendHost = backendHost
        self.backendPort = backendPort
        self.tlsBackendPort = tlsBackendPort
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.maxHeadBytes = maxHeadBytes
        self.headTimeout = headTimeout
        self.handshakeTimeout = handshakeTimeout
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.protectedPorts = protectedPorts
    }

    /// The host VietMap's SDKs call (`https://maps.vietmap.vn/api/…`: the JS SDK and the
    /// Flutter plugin alike).
    public static let defaultSimulatedHosts = ["maps.vietmap.vn"]

    /// A host name as the proxy compares it: lower case, no trailing dot, no IPv6 brackets.
    public static func normalized(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// One entry of the pass-through allow-list: `HOST` (any port) or `HOST:PORT`.
public struct ProxyPassThrough: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    /// nil: any port.
    public var port: UInt16?

    public init(host: String, port: UInt16? = nil) {
        self.host = ProxyConfiguration.normalized(host)
        self.port = port
    }

    /// `HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT`; nil when malformed.
    public init?(parsing text: String) {
        if let (host, port) = ProxyRequestHead.parseAuthority(text, defaultPort: 0) {
            self.init(host: host, port: port == 0 ? nil : port)
        } else {
            return nil
        }
    }

    func allows(host: String, port: UInt16) -> Bool {
        self.host == host && (self.port == nil || self.port == port)
    }

    public var description: String {
        let literal = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(literal):\($0)" } ?? literal
    }
}
