import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client `serve --upstream` asks the upstream with; none of URLSession's defaults
/// decide what reaches the client or a recording. `http://` upstreams are asked over a socket
/// of its own (`PlainHTTPExchange`); `https://` ones through URLSession with a delegate
/// (`UpstreamSessionDelegate`), which holds the same limits with one weakness: URLSession on
/// Linux queues body chunks for the delegate without back-pressure, so a very fast upstream
/// can have more than the cap in flight before the transfer is cancelled (nothing past the cap
/// is kept, passed on or recorded).
///
/// - **No redirect is followed**: a 3xx is the upstream's answer (status, `Location`, body).
/// - **One deadline** per exchange, connection, head and body together: at `timeout` the
///   transfer is cancelled and the result is `.timedOut` (URLSession's own timeouts are idle
///   timeouts; they stay only as a backstop behind this one).
/// - **A body cap**: `Accept-Encoding: gzip` is asked for explicitly; the bytes counted are the
///   ones URLSession delivers, i.e. after it inflated them, so a small gzip bomb stops at
///   `maxBodyBytes` like a long chunked body does. A declared `Content-Length` over the cap is
///   refused before the body is read.
/// - **Statuses outside 100–599** are refused.
public final class UpstreamClient: Sendable {
    /// What the upstream answered, whole and within the limits.
    public struct Answer: Sendable {
        public var status: Int
        /// Lowercased names.
        public var headers: [String: String]
        public var body: Data
    }

    /// Why there is no usable answer; `reason` is safe to show (it never holds the URL).
    public enum Failure: Error, Sendable, Equatable {
        case unreachable(String)
        case timedOut(TimeInterval)
        case bodyTooLarge(limit: Int)
        case badStatus(Int)

        /// The status the simulator answers the client with: 504 for a timeout, else 502.
        public var status: Int {
            if case .timedOut = self { return 504 }
            return 502
        }

        public var reason: String {
            switch self {
            case .unreachable(let why): return "upstream unreachable (\(why))"
            case .timedOut(let seconds): return "upstream did not answer within \(UpstreamClient.seconds(seconds)) s"
            case .bodyTooLarge(let limit): return "upstream answer larger than \(limit) bytes (--upstream-max-body); not passed on, not recorded"
            case .badStatus(let status): return "upstream answered status \(status), outside 100-599"
            }
        }
    }

    /// The default body cap, 64 MiB.
    public static let defaultMaxBodyBytes = 64 * 1024 * 1024

    public let timeout: TimeInterval
    public let maxBodyBytes: Int
    let session: URLSession
    private let delegate: UpstreamSessionDelegate

    public init(timeout: TimeInterval, maxBodyBytes: Int = UpstreamClient.defaultMaxBodyBytes) {
        self.timeout = timeout
        self.maxBodyBytes = max(0, maxBodyBytes)
        let configuration = URLSessionConfiguration.ephemeral
        // A backstop only: the deadline below is the one that counts.
        configuration.timeoutIntervalForRequest = timeout + 5
        configuration.timeoutIntervalForResource = timeout + 5
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 16
        delegate = UpstreamSessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// GETs `url` and calls `completion` exactly once: with the answer, or the failure at the
    /// latest at the deadline.
    public func get(_ url: URL, completion: @escaping @Sendable (Result<Answer, Failure>) -> Void) {
        if url.scheme?.lowercased() == "http" {
            // Plain HTTP on a socket of our own: back-pressure, so the cap bounds memory.
            let exchange = PlainHTTPExchange(url: url, deadline: .now() + timeout, timeout: timeout, maxBodyBytes: maxBodyBytes)
            Thread.detachNewThread { completion(exchange.run()) }
            return
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout + 5)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // Only what is inflated under the cap; never br/zstd/deflate offered on our behalf.
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: request)
        let exchange = UpstreamExchange(maxBodyBytes: maxBodyBytes, timeout: timeout, completion: completion)
        delegate.register(exchange, for: task)
        let timeout = self.timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak task] in
            if exchange.finish(.failure(.timedOut(timeout))) { task?.cancel() }
        }
        task.resume()
    }

    /// `get(_:completion:)` for async callers.
    public func get(_ url: URL) async -> Result<Answer, Failure> {
        await withCheckedContinuation { continuation in get(url) { continuation.resume(returning: $0) } }
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A transport failure in words, without the URL (which carries the upstream key).
    static func describe(_ error: any Error) -> String {
        if let url = error as? URLError {
            switch url.code {
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "host not found"
            case .networkConnectionLost: return "connection lost"
            case .timedOut: return "timed out"
            case .badServerResponse, .cannotParseResponse: return "malformed answer"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
                return "TLS failure"
            default: return "URL error \(url.code.rawValue)"
            }
        }
        return String(describing: type(of: error))
    }
}
