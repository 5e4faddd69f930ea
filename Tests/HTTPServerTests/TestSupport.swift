import Foundation
import HTTPServer
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Thread-safe storage for what handlers saw, and for handles answered later.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    var all: [Value] {
        lock.withLock { values }
    }

    var count: Int {
        lock.withLock { values.count }
    }

    /// Polls until `count` values were recorded (or the timeout passes).
    func wait(forCount target: Int, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while count < target {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}

extension XCTestCase {
    /// Starts a server on an ephemeral port and stops it when the test ends.
    func startServer(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration(threads: 2),
                     handler: @escaping @Sendable (HTTPRequest, ResponseHandle) -> Void) throws -> HTTPServer {
        try startServer(configuration, responder: ClosureResponder(handler))
    }

    /// Starts a server on an ephemeral port and stops it when the test ends.
    func startServer(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration(threads: 2),
                     responder: any HTTPResponder) throws -> HTTPServer {
        let server = HTTPServer(configuration: configuration, responder: responder)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    func url(_ server: HTTPServer, _ target: String) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)\(target)")!
    }

    /// A URLSession with no caching and room for many parallel connections.
    func makeSession(maxConnections: Int = 8) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnections
        configuration.timeoutIntervalForRequest = 10
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        addTeardownBlock { session.invalidateAndCancel() }
        return session
    }

    func fetch(_ session: URLSession, _ request: URLRequest) async throws -> (HTTPURLResponse, Data) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (http, data)
    }
}
