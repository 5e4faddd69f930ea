import VietMapWireHTTP
import VietMapWire
import Dispatch
import Foundation
import HTTPServer
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve --upstream URL|live`: forwards the three endpoints to another VietMap backend (the
/// live service, or any compatible base URL) instead of computing the answer.
///
/// - The client's key is checked as the simulator checks it, then dropped: the upstream gets
///   `upstreamKey` (or no key) and never the client's.
/// - Every answer the upstream gives is passed on (hop-by-hop headers dropped) and, with a
///   recorder, written as a `VMRecording` with its latency; the upstream key is never in it.
/// - When the upstream cannot be reached, does not answer within `timeout`, or answers 5xx:
///   with `fallback`, the simulator answers and the response carries `X-VietMap-Sim-Fallback:
///   <reason>`; without it, an unreachable or slow upstream is a 502/504 in the endpoint's error
///   shape and a 5xx is passed on as it came.
public final class UpstreamProxy: Sendable {
    public struct Configuration: Sendable {
        /// Scheme, host, port and optional path prefix of the upstream.
        public var baseURL: URL
        /// Sent upstream as `apikey`; nil sends none.
        public var upstreamKey: String?
        /// Seconds to wait for the upstream's answer.
        public var timeout: TimeInterval
        /// Client keys accepted (empty: any non-empty key), as `serve --api-key`.
        public var apiKeys: Set<String>

        public init(baseURL: URL, upstreamKey: String? = nil, timeout: TimeInterval = 10, apiKeys: Set<String> = []) {
            self.baseURL = baseURL
            self.upstreamKey = upstreamKey
            self.timeout = timeout
            self.apiKeys = apiKeys
        }
    }

    /// `https://maps.vietmap.vn`, for `--upstream live`.
    public static let liveBaseURL = HTTPVietMapProvider.liveBaseURL

    public let configuration: Configuration
    private let provider: HTTPVietMapProvider
    private let recorder: ExchangeRecorder?
    private let fallback: (@Sendable (HTTPRequest) -> HTTPResponse)?

    public init(configuration: Configuration, recorder: ExchangeRecorder? = nil,
                fallback: (@Sendable (HTTPRequest) -> HTTPResponse)? = nil) {
        self.configuration = configuration
        self.recorder = recorder
        self.fallback = fallback
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpMaximumConnectionsPerHost = 16
        provider = HTTPVietMapProvider(baseURL: configuration.baseURL, apiKey: configuration.upstreamKey,
                                       session: URLSession(configuration: sessionConfiguration), timeout: configuration.timeout)
    }

    public var handler: HTTPHandler {
        { request, handle in self.handle(request, reply: { handle.send($0) }) }
    }

    func handle(_ request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        let endpoint: VMEndpoint
        switch FrontDoor(apiKeys: configuration.apiKeys).admit(request) {
        case .answered(let response): return reply(response)
        case .admitted(let admitted): endpoint = admitted
        }

        // The client's key stays here; the provider adds the upstream key.
        let forwarded = VMRequest(endpoint, request.query.items.filter { $0.name.lowercased() != "apikey" }.map { VMParameter($0.name, $0.value) })
        let method = request.method
        let started = DispatchTime.now().uptimeNanoseconds
        Task { [provider, recorder, fallback, configuration] in
            let outcome: Result<VMRawResponse, any Error>
            do {
                outcome = .success(try await provider.send(forwarded))
            } catch {
                outcome = .failure(error)
            }
            let latency = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e6
            switch outcome {
            case .success(let answer):
                var kept = answer
                kept.headers = answer.headers.filter { !CaptureEndpoint.hopByHopHeaders.contains($0.key) }
                recorder?.record(VMRecording(request: forwarded, response: kept, method: method, recordedAt: Date(), latencyMilliseconds: latency))
                if answer.status >= 500, let fallback {
                    return reply(Self.fallbackAnswer(fallback, request, reason: "upstream answered \(answer.status)"))
                }
                var response = HTTPResponse(status: answer.status, body: method == "HEAD" ? Data() : answer.body)
                for (name, value) in kept.headers.sorted(by: { $0.key < $1.key }) { response.headers.set(name, value) }
                reply(response)
            case .failure(let error):
                let timedOut = Self.isTimeout(error)
                let reason = timedOut ? "upstream did not answer within \(Self.seconds(configuration.timeout)) s"
                                      : "upstream unreachable (\(Self.describe(error)))"
                if let fallback { return reply(Self.fallbackAnswer(fallback, request, reason: reason)) }
                reply(APIResponses.error(APIError(status: timedOut ? 504 : 502, code: APIErrorCode.errorUnknown.rawValue, message: reason), for: endpoint))
            }
        }
    }

    /// The simulator's answer, marked as a fallback.
    static func fallbackAnswer(_ fallback: @Sendable (HTTPRequest) -> HTTPResponse, _ request: HTTPRequest, reason: String) -> HTTPResponse {
        var response = fallback(request)
        response.headers.set(CaptureEndpoint.fallbackHeader, "simulator; \(reason)")
        return response
    }

    static func isTimeout(_ error: any Error) -> Bool {
        if let client = error as? VMClientError, case .transport(let underlying) = client { return isTimeout(underlying) }
        return (error as? URLError)?.code == .timedOut
    }

    /// A transport failure in words, without the URL (which carries the upstream key).
    static func describe(_ error: any Error) -> String {
        if let client = error as? VMClientError, case .transport(let underlying) = client {
            return describe(underlying)
        }
        if let url = error as? URLError {
            switch url.code {
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "host not found"
            case .networkConnectionLost: return "connection lost"
            case .timedOut: return "timed out"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
                return "TLS failure"
            default: return "URL error \(url.code.rawValue)"
            }
        }
        return String(describing: type(of: error))
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
