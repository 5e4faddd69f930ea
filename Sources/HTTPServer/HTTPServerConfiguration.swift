import Foundation
import Platform

/// Settings for an `HTTPServer`. Every limit is documented in docs/limits.md.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 or IPv6 literal to listen on (`"localhost"` means `127.0.0.1`).
    public var host: String
    /// Port to listen on; 0 picks a free ephemeral port (read it from `HTTPServer.port`).
    public var port: UInt16
    /// Number of MHD worker threads (each runs its own event loop). The default is the
    /// number of CPUs this process can keep busy (``ProcessorCount``: a cgroup quota counts)
    /// but at least 4: each loop accepts only a few new connections per turn, so under
    /// overload more loops keep the kernel's accept queue short.
    public var threads: Int
    /// Longest accepted request target (path + query, in bytes). Longer ones get
    /// `414 {"code":"INVALID_REQUEST","message":"request URI too long"}`. Targets that do
    /// not even fit in `maxHeaderBytes` get libmicrohttpd's own 414 (HTML body).
    public var maxURLLength: Int
    /// Per-connection memory for the request line, headers and I/O buffers
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`); should exceed `maxURLLength` comfortably.
    /// Query parameters cost none of it (the server parses the query itself).
    public var maxHeaderBytes: Int
    /// Largest accepted request body. Larger bodies get
    /// `413 {"code":"INVALID_REQUEST","message":"request body too large"}`: at once when
    /// `Content-Length` says so (the connection is then closed), after reading and
    /// discarding the rest for chunked bodies.
    public var maxBodyBytes: Int
    /// Idle seconds before a connection is closed (0 = never); every byte received or sent
    /// restarts it. Suspended requests don't time out.
    public var connectionTimeout: Int
    /// Most connections open at once. Beyond it, the connection that has waited longest for
    /// a request head (a slow client, or an idle keep-alive one) is closed to make room; if
    /// every connection is busy with a request, the new one is closed at once.
    public var maxConnections: Int
    /// Most connections open at once from one client address (0 = no per-address limit).
    /// Connections beyond it are closed as soon as they are accepted.
    public var maxConnectionsPerClient: Int
    /// Seconds a client has to send a complete request head, counted from the connection's
    /// opening or the end of the previous response (0 = no deadline). Trickling bytes does
    /// not extend it; it also ends idle keep-alive connections.
    public var headerTimeout: TimeInterval
    /// Seconds a client has to send the request body once the head is in (0 = no deadline).
    public var bodyTimeout: TimeInterval
    /// Connections the kernel may queue before the server accepts them (`listen(2)`
    /// backlog); 0 = the system's maximum (SOMAXCONN). A short queue makes excess clients
    /// fail to connect under overload instead of waiting in the queue, but a flood of
    /// short-lived connections then also drops other clients' SYNs (a 1 s retransmit).
    public var listenBacklog: Int
    /// Serve HTTPS with this key and certificate chain instead of plain HTTP.
    public var tls: TLSCredentials?
    /// Extra headers on the answers the server makes itself (413, 414), e.g. the CORS header
    /// the application sets on its own answers. libmicrohttpd's own answers (a request head
    /// larger than `maxHeaderBytes`) do not get them.
    public var errorResponseHeaders: HTTPHeaders

    public init(host: String = "127.0.0.1", port: UInt16 = 0, threads: Int = max(4, ProcessorCount.available),
                maxURLLength: Int = 16 * 1024, maxHeaderBytes: Int = 64 * 1024, maxBodyBytes: Int = 8 * 1024 * 1024,
                connectionTimeout: Int = 30, maxConnections: Int = 1000, maxConnectionsPerClient: Int = 256,
                headerTimeout: TimeInterval = 10, bodyTimeout: TimeInterval = 30, listenBacklog: Int = 0,
                tls: TLSCredentials? = nil, errorResponseHeaders: HTTPHeaders = HTTPHeaders()) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxURLLength = maxURLLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.connectionTimeout = connectionTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.listenBacklog = listenBacklog
        self.tls = tls
        self.errorResponseHeaders = errorResponseHeaders
    }
}

/// A PEM private key and certificate (chain) for serving HTTPS.
public struct TLSCredentials: Sendable {
    public var keyPEM: String
    public var certificatePEM: String

    public init(keyPEM: String, certificatePEM: String) {
        self.keyPEM = keyPEM
        self.certificatePEM = certificatePEM
    }
}
