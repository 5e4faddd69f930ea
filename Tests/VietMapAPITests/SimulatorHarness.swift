import Dataset
import DefaultData
import Foundation
import HTTPServer
import JSON
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

    /// The cache the tests use: the product's own cache logic, in a folder of the test run's own.
    static var cacheDirectory: URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vietmap-sim-test-cache")
    }

    init(apiKeys: Set<String> = []) throws {
        databasePath = try DatasetCache.ensureDefault(inputs: DefaultData.inputFiles, cacheDirectory: Self.cacheDirectory).path
        service = try VietMapService(databasePath: databasePath, apiKeys: apiKeys)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, handler: service.handler)
        try server.start()
        baseURL = URL(string: "http://127.0.0.1:\(server.port)")!
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: sessionConfiguration)
    }

    /// GET `path` with `items` percent-encoded by URLComponents.
    func get(_ path: String, _ items: [(String, String)]) async throws -> Reply {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves '+' alone; the server would read it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return try await get(rawURL: components.url!.absoluteString)
    }

    /// GET a URL exactly as written (for malformed encodings).
    func get(rawURL: String) async throws -> Reply {
        let (data, response) = try await session.data(from: URL(string: rawURL)!)
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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = server.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response.append(contentsOf: buffer[0..<n])
        }
        guard let headerEnd = response.range(of: Data("\r\n\r\n".utf8)),
              let statusLine = String(data: response[..<headerEnd.lowerBound], encoding: .utf8)?.split(separator: "\r\n").first,
              let status = Int(statusLine.split(separator: " ")[1]) else { throw POSIXError(.EBADMSG) }
        return (status, Data(response[headerEnd.upperBound...]))
    }
}
