import Dataset
import DefaultData
import Foundation
import HTTPServer
import JSON
import SimTesting
import VietMapAPI
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One simulator per test process: the default dataset (built once into a cache shared by test
/// runs) served over real HTTP on an ephemeral loopback port.
final class SimulatorHarness: @unchecked Sendable {
    // @unchecked: immutable after init.
    static let shared: SimulatorHarness = {
        do { return try SimulatorHarness() } catch { fatalError("could not start the simulator: \(error)") }
    }()

    let server: HTTPServer
    let service: VietMapService
    let databasePath: String
    let baseURL: URL
    let session: URLSession

    init(apiKeys: Set<String> = []) throws {
        databasePath = try TestDataset.path()
        service = try VietMapService(databasePath: databasePath, apiKeys: apiKeys)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, responder: service)
        try server.start()
        baseURL = URL(string: "http://127.0.0.1:\(server.port)")!
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: sessionConfiguration)
    }

    /// GET `path` with `items` percent-encoded by URLComponents (and `headers` set).
    func get(_ path: String, _ items: [(String, String)], headers: [String: String] = [:]) async throws -> Reply {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves '+' alone; the server would read it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return try await get(rawURL: components.url!.absoluteString, headers: headers)
    }

    /// GET a URL exactly as written (for malformed encodings).
    func get(rawURL: String, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: rawURL)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        return Reply(status: http.statusCode, headers: http.allHeaderFields as? [String: String] ?? [:], data: data)
    }

    struct Reply {
        let status: Int
        let headers: [String: String]
        let data: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        func json() throws -> JSONValue { try JSONParser.parse(data) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: data) }
    }
}

extension SimulatorHarness {
    /// Sends `GET target` byte for byte over a plain socket (URLSession would re-encode a
    /// malformed URL) and returns the status code and body.
    func rawGet(_ target: String) throws -> (status: Int, body: Data) {
        let client = try RawHTTPClient(port: server.port)
        try client.get(target)
        let response = try client.readResponse()
        return (response.status, response.body)
    }
}
