import Foundation
import HTTPProxy
import HTTPServer
import HTTPTestSupport
import XCTest

/// A `ProxyServer` in front of an echo backend on loopback, for the proxy's test classes.
struct ProxySetup {
    let proxy: ProxyServer
    let backend: HTTPServer
    /// Every request the backend received.
    let backendSeen: Recorder<HTTPRequest>
    let caPath: String
}

extension XCTestCase {
    func temporaryProxyDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// A backend that echoes what it got (`{"path","query","host"}`, after `work` ran, and
    /// `answerDelay` seconds later when set, holding no thread), and a proxy in front of it; both
    /// stopped when the test ends.
    func startProxy(passThrough: [ProxyPassThrough] = [], maxConnections: Int = 64, maxConnectionsPerClient: Int = 0,
                    headTimeout: TimeInterval = 10, handshakeTimeout: TimeInterval = 10, idleTimeout: TimeInterval = 60,
                    protectedPorts: Set<UInt16> = [], backendThreads: Int = 2, answerDelay: TimeInterval = 0,
                    work: @escaping @Sendable (HTTPRequest) -> Void = { _ in }) throws -> ProxySetup {
        let seen = Recorder<HTTPRequest>()
        let backend = try startServer(HTTPServerConfiguration(threads: backendThreads)) { request, response in
            seen.append(request)
            work(request)
            let host = request.headers["Host"] ?? ""
            let answer = HTTPResponse.json(Data(#"{"path":"\#(request.path)","query":"\#(request.rawQuery)","host":"\#(host)"}"#.utf8))
            if answerDelay > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + answerDelay) { response.send(answer) }
            } else {
                response.send(answer)
            }
        }
        let (credentials, caPath) = try LocalCertificateAuthority(directory: try temporaryProxyDirectory())
            .proxyCertificate(for: ProxyConfiguration.defaultSimulatedHosts)
        let proxy = ProxyServer(configuration: ProxyConfiguration(passThrough: passThrough, credentials: credentials,
                                                                  backendPort: backend.port, maxConnections: maxConnections,
                                                                  maxConnectionsPerClient: maxConnectionsPerClient,
                                                                  headTimeout: headTimeout, handshakeTimeout: handshakeTimeout,
                                                                  idleTimeout: idleTimeout, protectedPorts: protectedPorts))
        try proxy.start()
        addTeardownBlock { proxy.stop() }
        return ProxySetup(proxy: proxy, backend: backend, backendSeen: seen, caPath: caPath)
    }

    /// `head` on a new connection to `port`, and the one answer.
    func exchange(_ port: UInt16, _ head: String) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        try client.write(head)
        return try client.readResponse()
    }

    /// Polls (every 5 ms, up to `timeout`) until `condition` holds; whether it did.
    func eventually(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    func requireCurl() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("needs /usr/bin/curl") }
    }

    /// curl, resolving nothing itself: with a proxy the host name goes to the proxy as it is.
    func curl(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = try startCurl(arguments, environment: environment)
        return process.finish()
    }

    /// curl started in the background; `finish()` waits for it.
    func startCurl(_ arguments: [String], environment: [String: String] = [:]) throws -> CurlRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "10"] + arguments
        var base = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"] {
            base[name] = nil
        }
        process.environment = base.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return CurlRun(process: process, output: output)
    }
}

/// A curl process running in the background.
struct CurlRun {
    let process: Process
    let output: Pipe

    /// Waits for it: exit status and everything it printed.
    func finish() -> (Int32, String) {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
