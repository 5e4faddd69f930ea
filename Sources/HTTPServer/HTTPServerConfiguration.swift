import Foundation

/// Settings for an `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 or IPv6 literal to listen on (`"localhost"` means `127.0.0.1`).
    public var host: String
    /// Port to listen on; 0 picks a free ephemeral port (read it from `HTTPServer.port`).
    public var port: UInt16
    /// Number of MHD worker threads (each runs its own event loop).
    public var threads: Int
    /// Longest accepted request target (path + query, in bytes). Longer ones get
    /// `414 {"code":"INVALID_REQUEST","message":"request URI too long"}`. Targets that do
    /// not even fit in `maxHeaderBytes` get libmicrohttpd's own 414 (HTML body).
    public var maxURLLength: Int
    /// Per-connection memory for the request line, headers and I/O buffers
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`); should exceed `maxURLLength` comfortably.
    public var maxHeaderBytes: Int
    /// Largest accepted request body. Larger bodies get
    /// `413 {"code":"INVALID_REQUEST","message":"request body too large"}`: at once when
    /// `Content-Length` says so (the connection is then closed), after reading and
    /// discarding the rest for chunked bodies.
    public var maxBodyBytes: Int
    /// Idle seconds before a connection is closed (0 = never). Suspended requests don't time out.
    public var connectionTimeout: Int

    public init(host: String = "127.0.0.1", port: UInt16 = 0, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                maxURLLength: Int = 16 * 1024, maxHeaderBytes: Int = 32 * 1024, maxBodyBytes: Int = 8 * 1024 * 1024,
                connectionTimeout: Int = 30) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxURLLength = maxURLLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.connectionTimeout = connectionTimeout
    }
}
