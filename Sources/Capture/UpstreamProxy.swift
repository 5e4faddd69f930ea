import VietMapWireHTTP
import VietMapWire
import Dispatch
import Foundation
import HTTPServer
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve --upstream URL|live`: forwards the endpoints to another VietMap backend (the live
/// service, or any compatible base URL) instead of computing the answer.
///
/// - The client's key is checked as the simulator checks it, then dropped: the upstream gets
///   `upstreamKey` (or no key) and never the client's.
/// - The upstream is asked through `UpstreamClient`: no redirect followed (a 3xx is passed on
///   as the upstream's answer), one deadline per exchange (`timeout`), a body cap
///   (`maxBodyBytes`, inflated bytes counted), statuses outside 100–599 refused.
/// - Every answer within those limits is passed on (hop-by-hop headers dropped) and, with a
///   recorder, written as a `VMRecording` with its latency; the upstream key is never in it.
///   An answer past a limit is never recorded.
/// - When the upstream cannot be reached, does not answer within `timeout`, answers past a
///   limit, or answers 5xx: with `fallback`, the simulator answers and the response carries
///   `X-VietMap-Sim-Fallback: <reason>`; without it, a 502 (`BAD_GATEWAY`) or 504
///   (`GATEWAY_TIMEOUT`) in the endpoint's error shape, and a 5xx is passed on as it came.
public final class UpstreamProxy: HTTPResponder {
    public struct Configuration: Sendable {
        /// Scheme, host, port and optional path prefix of the upstream.
        public var baseURL: URL
        /// Sent upstream as `apikey`; nil sends none.
        public var upstreamKey: String?
        /// Seconds for the whole exchange with the upstream (connection, head and body).
        public var timeout: TimeInterval
        /// Client keys accepted (empty: any non-empty key), as `serve --api-key`.
        public var apiKeys: Set<String>
        /// The most body bytes taken from the upstream, after decompression.
        public var maxBodyBytes: Int

        public init(baseURL: URL, upstreamKey: String? = nil, timeout: TimeInterval = 10, apiKeys: Set<String> = [],
                    maxBodyBytes: Int = UpstreamClient.defaultMaxBodyBytes) {
            self.baseURL = baseURL
            self.upstreamKey = upstreamKey
            self.timeout = timeout
            self.apiKeys = apiKeys
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// `https://maps.vietmap.vn`, for `--upstream live`.
    public static let liveBaseURL = HTTPVietMapProvider.liveBaseURL

    public let configuration: Configuration
    private let client: UpstreamClient
    /// Builds the upstream URLs only (`url(for:)`); it never sends.
    private let urls: HTTPVietMapProvider
    private let recorder: ExchangeRecorder?
    private let fallback: (any HTTPResponder)?
    /// Receives one line the first time the upstream answers 401 (nothing after that).
    private let warning: (@Sendable (String) -> Void)?
    private let warnedUnauthorized = OnceFlag()

    public init(configuration: Configuration, recorder: ExchangeRecorder? = nil,
                fallback: (any HTTPResponder)? = nil, warning: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.warning = warning
        self.recorder = recorder
        self.fallback = fallback
        client = UpstreamClient(timeout: configuration.timeout, maxBodyBytes: configuration.maxBodyBytes)
        urls = HTTPVietMapProvider(baseURL: configuration.baseURL, apiKey: configuration.upstreamKey,
                                   session: client.session, timeout: configuration.timeout)
    }

    public func respond(to request: HTTPRequest, reply: ResponseHandle) {
        let endpoint: VMEndpoint
        switch FrontDoor(apiKeys: configuration.apiKeys).admit(request) {
        case .answered(let response): return reply.send(response)
        case .admitted(let admitted): endpoint = admitted
        }

        // The client's key stays here; the URL carries the upstream key.
        let forwarded = VMRequest(endpoint, request.query.items.filter { $0.name.lowercased() != "apikey" }.map { VMParameter($0.name, $0.value) },
                                  pathSuffix: CaptureEndpoint.pathSuffix(request, endpoint: endpoint))
        let url: URL
        do {
            url = try urls.url(for: forwarded)
        } catch {
            return reply.send(APIResponses.error(APIError(.badGateway, message: "cannot form the upstream URL"), for: endpoint))
        }
        let method = request.method
        let started = DispatchTime.now().uptimeNanoseconds
        client.get(url) { [recorder, fallback, configuration, warning, warnedUnauthorized] outcome in
            let latency = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e6
            switch outcome {
            case .success(let answer):
                let headers = answer.headers.filter { !CaptureEndpoint.hopByHopHeaders.contains($0.key) }
                let kept = VMRawResponse(status: answer.status, headers: headers, body: answer.body)
                if answer.status == 401, let warning, warnedUnauthorized.claim() {
                    warning(Self.unauthorizedWarning(configuration, path: request.path))
                }
                recorder?.record(VMRecording(request: forwarded, response: kept, method: method, recordedAt: Date(), latencyMilliseconds: latency))
                if answer.status >= 500, let fallback {
                    return Self.answer(from: fallback, request, reason: "upstream answered \(answer.status)", reply: reply)
                }
                var response = HTTPResponse(status: answer.status, body: method == "HEAD" ? Data() : answer.body)
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) { response.headers.set(name, value) }
                reply.send(response)
            case .failure(let failure):
                if let fallback { return Self.answer(from: fallback, request, reason: failure.reason, reply: reply) }
                let code: APIErrorCode = failure.status == 504 ? .gatewayTimeout : .badGateway
                reply.send(APIResponses.error(APIError(code, message: failure.reason), for: endpoint))
            }
        }
    }

    /// The line for the upstream's first 401: which key went upstream and what to change.
    static func unauthorizedWarning(_ configuration: Configuration, path: String) -> String {
        let upstream = configuration.baseURL.absoluteString
        if configuration.upstreamKey == nil {
            return "warning: the upstream \(upstream) answered 401 to \(path): no upstream key was given, so requests go there without one (the client's key is never forwarded); give it with --upstream-key KEY (or VIETMAP_API_KEY) — until then every answer passed on, and recorded, is a 401"
        }
        return "warning: the upstream \(upstream) answered 401 to \(path) with the key of --upstream-key (or VIETMAP_API_KEY): check that key — answers passed on, and recorded, are 401s"
    }

    /// Sends the simulator's answer, marked as a fallback.
    static func answer(from fallback: any HTTPResponder, _ request: HTTPRequest, reason: String, reply: ResponseHandle) {
        fallback.respond(to: request) { answer in
            var response = answer
            response.headers.set(CaptureEndpoint.fallbackHeader, "simulator; \(reason)")
            reply.send(response)
        }
    }
}

/// True for the first `claim()` only, from any thread.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
