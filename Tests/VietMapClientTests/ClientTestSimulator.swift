import Foundation
import HTTPServer
import SimTesting
import VietMapAPI
import VietMapClient
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One simulator per test process, served over real HTTP on an ephemeral loopback port, accepting
/// one key. A thin handler in front of the service logs every request the server received (its
/// decoded query items), so tests can count HTTP requests and see exactly what arrived.
final class ClientTestSimulator: Sendable {
    static let shared: ClientTestSimulator = {
        do { return try ClientTestSimulator() } catch { fatalError("could not start the simulator: \(error)") }
    }()

    static let apiKey = "client-test-key"

    let server: HTTPServer
    let baseURL: URL
    let session: URLSession
    let log = RequestLog()

    init() throws {
        let databasePath = try TestDataset.path()
        let service = try VietMapService(databasePath: databasePath, apiKeys: [Self.apiKey])
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let log = log
        server = HTTPServer(configuration: configuration) { request, response in
            log.append(RequestLog.Entry(path: request.path, items: request.query.items.map { VMParameter($0.name, $0.value) }))
            response.send(service.respond(to: request))
        }
        try server.start()
        baseURL = URL(string: "http://127.0.0.1:\(server.port)")!
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: sessionConfiguration)
    }

    /// The simulator as a provider, with the accepted key unless told otherwise.
    func provider(apiKey: String = ClientTestSimulator.apiKey) -> HTTPVietMapProvider {
        HTTPVietMapProvider.simulator(baseURL: baseURL, apiKey: apiKey, session: session)
    }
}

/// What the server received, in order.
final class RequestLog: @unchecked Sendable {
    // @unchecked: `entries` is guarded by `lock`.
    struct Entry: Sendable {
        let path: String
        let items: [VMParameter]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// Counts the requests that go through it (the brief's "counting provider wrapper").
final class CountingProvider: VietMapProvider, @unchecked Sendable {
    // @unchecked: `sent` is guarded by `lock`.
    let wrapped: any VietMapProvider
    private let lock = NSLock()
    private var sent: [VMRequest] = []

    init(_ wrapped: any VietMapProvider) { self.wrapped = wrapped }

    var requests: [VMRequest] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    var count: Int { requests.count }

    func send(_ request: VMRequest) async throws -> VMRawResponse {
        record(request)
        return try await wrapped.send(request)
    }

    private func record(_ request: VMRequest) {
        lock.lock()
        sent.append(request)
        lock.unlock()
    }
}

/// Well-known places of the default dataset.
enum Places {
    static let focus = VMCoordinate(latitude: 10.7769, longitude: 106.7008)
    static let benThanhMarket = VMCoordinate(latitude: 10.7725, longitude: 106.6980)
    static let q3 = VMCoordinate(latitude: 10.7798, longitude: 106.6990)
    static let hoanKiem = VMCoordinate(latitude: 21.0287, longitude: 105.8524)
}

/// Asserts that `body` throws a `VMClientError` and returns it.
/// (Untyped closures: typed-throws async closure literals crash the 6.3 compiler in IRGen.)
func assertThrowsClientError<T>(_ body: () async throws -> T, file: StaticString = #filePath,
                                line: UInt = #line) async -> VMClientError? {
    do {
        let value = try await body()
        XCTFail("expected a VMClientError, got \(value)", file: file, line: line)
        return nil
    } catch let error as VMClientError {
        return error
    } catch {
        XCTFail("expected a VMClientError, got \(error)", file: file, line: line)
        return nil
    }
}

/// A stable byte form of any Encodable, to compare reference-model values (not Equatable).
func canonicalJSON<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
