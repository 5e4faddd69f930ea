import Dataset
import Foundation
import HTTPProxy
import HTTPServer

/// `serve` options for the HTTP transport: connection limits, deadlines, draining and TLS.
/// Parsing only; the behaviour lives in HTTPServer (see docs/limits.md and docs/tls.md).
struct ServeTransportOptions {
    static let valued: Set<String> = ["max-connections", "max-connections-per-client", "header-timeout",
                                      "body-timeout", "idle-timeout", "drain-timeout", "tls-cert", "tls-key"]
    static let boolean: Set<String> = ["tls"]

    /// Seconds `serve` lets in-flight requests finish after SIGINT/SIGTERM.
    var drainTimeout: TimeInterval = 5
    /// The CA clients must trust, when `--tls` generated the certificate.
    var caCertificatePath: String?

    /// Reads the options into `configuration`; throws a usage error for bad values.
    init(_ options: CommandLineArguments, configuration: inout HTTPServerConfiguration) throws {
        configuration.maxConnections = try Self.integer(options, "max-connections", in: 1...100_000)
            ?? configuration.maxConnections
        configuration.maxConnectionsPerClient = try Self.integer(options, "max-connections-per-client", in: 0...100_000)
            ?? configuration.maxConnectionsPerClient
        configuration.headerTimeout = try Self.seconds(options, "header-timeout") ?? configuration.headerTimeout
        configuration.bodyTimeout = try Self.seconds(options, "body-timeout") ?? configuration.bodyTimeout
        if let idle = try Self.seconds(options, "idle-timeout") {
            configuration.connectionTimeout = Int(idle.rounded(.up))
        }
        drainTimeout = try Self.seconds(options, "drain-timeout") ?? drainTimeout

        let certificate = options.value("tls-cert"), key = options.value("tls-key")
        guard options.has("tls") || (certificate == nil && key == nil) else {
            throw CommandLineArguments.UsageError(description: "--tls-cert and --tls-key need --tls")
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
            throw CommandLineArguments.UsageError(description: "--tls-cert and --tls-key go together")
        }
    }

    private static func integer(_ options: CommandLineArguments, _ name: String,
                                in range: ClosedRange<Int>) throws -> Int? {
        guard let text = options.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw CommandLineArguments.UsageError(
                description: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    private static func seconds(_ options: CommandLineArguments, _ name: String) throws -> TimeInterval? {
        guard let text = options.value(name) else { return nil }
        guard let value = Double(text), value >= 0, value <= 3_600 else {
            throw CommandLineArguments.UsageError(description: "--\(name) must be a number of seconds from 0 to 3600, got '\(text)'")
        }
        return value
    }

    private static func readPEM(_ path: String, what: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN") else {
            throw CLIError("\(what) \(path): not a readable PEM file")
        }
        return text
    }
}
