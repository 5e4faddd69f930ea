import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// VietMap over HTTP. The live service and the simulator are the same backend with different base
/// URLs (`.live(apiKey:)`, `.simulator()`); a key-hiding proxy is a third (`apiKey: nil`).
///
/// Every URL is built from `VMRequest.percentEncodedQuery`: strict UTF-8 percent-encoding
/// (`+`, `&`, `#`, `?` and Vietnamese text are escaped), `point` repeated in order, `apikey` first.
public struct HTTPVietMapProvider: VietMapProvider {
    public static let liveBaseURL = URL(string: "https://maps.vietmap.vn")!
    public static let simulatorBaseURL = URL(string: "http://127.0.0.1:8080")!

    /// Scheme, host, port and an optional path prefix (`https://proxy.example/vietmap`); the
    /// endpoint path is appended to it.
    public let baseURL: URL
    /// Sent as `apikey` with every request that carries none; `nil` or empty sends none (a proxy adds it).
    public let apiKey: String?
    public let session: URLSession
    /// Per-request timeout in seconds.
    public var timeout: TimeInterval

    public init(baseURL: URL, apiKey: String?, session: URLSession = .shared, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.session = session
        self.timeout = timeout
    }

    /// The live VietMap service, `https://maps.vietmap.vn`.
    public static func live(apiKey: String, session: URLSession = .shared) -> HTTPVietMapProvider {
        HTTPVietMapProvider(baseURL: liveBaseURL, apiKey: apiKey, session: session)
    }

    /// The simulator (`vietmap-sim serve`), by default on `http://127.0.0.1:8080`; it accepts any
    /// non-empty key unless started with `--api-key`.
    public static func simulator(baseURL: URL = simulatorBaseURL, apiKey: String = "dev",
                                 session: URLSession = .shared) -> HTTPVietMapProvider {
        HTTPVietMapProvider(baseURL: baseURL, apiKey: apiKey, session: session)
    }

    /// The URL `send` requests for `request`.
    public func url(for request: VMRequest) throws(VMClientError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              components.scheme != nil, components.host != nil else {
            throw .invalidArgument("base URL \(baseURL) has no scheme or host")
        }
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + request.path
        let query = request.percentEncodedQuery(apiKey: apiKey)
        components.percentEncodedQuery = [components.percentEncodedQuery, query]
            .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "&")
        components.fragment = nil
        guard let url = components.url else { throw .invalidArgument("cannot form a URL from \(baseURL) and \(request)") }
        return url
    }

    public func send(_ request: VMRequest) async throws -> VMRawResponse {
        var urlRequest = URLRequest(url: try url(for: request), cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: timeout)
        urlRequest.httpMethod = "GET"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw VMClientError.wrapping(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw VMClientError.transport(URLError(.badServerResponse))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return VMRawResponse(status: http.statusCode, headers: headers, body: data)
    }
}
