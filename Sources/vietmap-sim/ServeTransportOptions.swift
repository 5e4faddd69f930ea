import Dataset
import Foundation
import HTTPProxy
import HTTPServer

/// `serve` options for the HTTP transport: connection limits, deadlines, draining and TLS.
/// Parsing only; the behaviour lives in HTTPServer (see docs/limits.md and docs/tls.md).
struct ServeTransportOptions {
    /// `--tls` and its certificate.
    static let tlsOptions: [OptionSpec] = [
        .flag("tls", "serve HTTPS. Without --tls-cert/--tls-key, a local CA and a certificate for localhost, 127.0.0.1, ::1 and this machine's addresses are made in the cache (tls/ca.pem is the CA to trust; see docs/tls.md)"),
        .option("tls-cert", "PEM", "with --tls and --tls-key: serve this certificate (chain) instead"),
        .option("tls-key", "PEM", "with --tls and --tls-cert: the key of --tls-cert"),
    ]
    /// Connection limits, deadlines and draining (docs/limits.md).
    static let limitOptions: [OptionSpec] = [
        .option("max-connections", "N", .integer(1...100_000),
                "open connections at once (default 1000); beyond it the one waiting longest for a request head makes room"),
        .option("max-connections-per-client", "N", .integer(0...100_000),
                "from one address (default 256, 0 = no limit); beyond it new connections are closed at once"),
        .option("header-timeout", "S", seconds,
                "seconds to send a complete request head (default 10; also ends idle keep-alive connections); trickled bytes do not extend it"),
        .option("body-timeout", "S", seconds, "seconds to send the body after the head (default 30)"),
        .option("idle-timeout", "S", seconds, "seconds without any traffic before a connection is closed (default 30)"),
        .option("drain-timeout", "S", seconds, "seconds to finish requests in flight on SIGINT/SIGTERM (default 5)"),
    ]
    private static let seconds = OptionValue.number(0...3_600, unit: "seconds")

    /// Seconds `serve` lets in-flight requests finish after SIGINT/SIGTERM.
    var drainTimeout: TimeInterval = 5
    /// The CA clients must trust, when `--tls` generated the certificate.
    var caCertificatePath: String?

    /// Reads the options (checked by their declarations) into `configuration`; throws a usage error for TLS options that do not go together.
    init(_ options: CommandLineArguments, configuration: inout HTTPServerConfiguration) throws {
        configuration.maxConnections = options.integer("max-connections") ?? configuration.maxConnections
        configuration.maxConnectionsPerClient = options.integer("max-connections-per-client") ?? configuration.maxConnectionsPerClient
        configuration.headerTimeout = options.number("header-timeout") ?? configuration.headerTimeout
        configuration.bodyTimeout = options.number("body-timeout") ?? configuration.bodyTimeout
        if let idle = options.number("idle-timeout") {
            configuration.connectionTimeout = Int(idle.rounded(.up))
        }
        drainTimeout = options.number("drain-timeout") ?? drainTimeout

        let certificate = options.value("tls-cert"), key = options.value("tls-key")
        guard options.has("tls") || (certificate == nil && key == nil) else {
            throw UsageError("--tls-cert and --tls-key need --tls")
        }
        guard options.has("tls") else { return }
        switch (certificate, key) {
        case let (certificate?, key?):
            configuration.tls = TLSCredentials(keyPEM: try Self.readPEM(key, what: "--tls-key"),
                                               certificatePEM: try Self.readPEM(certificate, what: "--tls-cert"))
        case (nil, nil):
            let directory = DatasetCache.defaultDirectory().appendingPathComponent("tls")
            let prepared = try LocalCertificateAuthority(directory: directory).prepare()
            configuration.tls = prepared.credentials
            caCertificatePath = prepared.caCertificatePath
        default:
            throw UsageError("--tls-cert and --tls-key go together")
        }
    }

    private static func readPEM(_ path: String, what: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN") else {
            throw CLIError("\(what) \(path): not a readable PEM file")
        }
        return text
    }
}
