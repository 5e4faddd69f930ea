import Foundation
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The contract suite's HTTP backend: the client library's `HTTPVietMapProvider`, plus one thing
/// the corpus needs — a request that carries its own `apikey` parameter (the missing-key queries
/// send `apikey=`) is sent with exactly that key instead of the configured one.
public struct ContractHTTPProvider: VietMapProvider {
    public static let liveBaseURL = HTTPVietMapProvider.liveBaseURL

    public let baseURL: URL
    public let apiKey: String?
    private let keyed: HTTPVietMapProvider
    private let keyless: HTTPVietMapProvider

    public init(baseURL: URL, apiKey: String?, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        keyed = HTTPVietMapProvider(baseURL: baseURL, apiKey: apiKey, session: session, timeout: timeout)
        keyless = HTTPVietMapProvider(baseURL: baseURL, apiKey: nil, session: session, timeout: timeout)
    }

    private func provider(for request: VMRequest) -> HTTPVietMapProvider {
        request.parameters.contains { $0.name.lowercased() == "apikey" } ? keyless : keyed
    }

    /// The URL `send` requests.
    public func url(for request: VMRequest) -> URL? { try? provider(for: request).url(for: request) }

    public func send(_ request: VMRequest) async throws -> VMRawResponse {
        try await provider(for: request).send(request)
    }
}
