import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange of `UpstreamClient` in flight: the head, the body so far under the cap, and a
/// completion that runs once — whichever comes first of the end of the transfer, a limit
/// crossed, or the deadline.
final class UpstreamExchange: @unchecked Sendable {
    // @unchecked: every mutable field only under `lock`.
    private let lock = NSLock()
    let maxBodyBytes: Int
    /// The deadline in seconds, for the failure's wording.
    let timeout: TimeInterval
    private var completion: (@Sendable (Result<UpstreamClient.Answer, UpstreamClient.Failure>) -> Void)?
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()

    init(maxBodyBytes: Int, timeout: TimeInterval, completion: @escaping @Sendable (Result<UpstreamClient.Answer, UpstreamClient.Failure>) -> Void) {
        self.maxBodyBytes = maxBodyBytes
        self.timeout = timeout
        self.completion = completion
    }

    /// Takes the head; returns the failure that ends the exchange now (a status outside
    /// 100–599, or a declared length over the cap), else nil.
    func receive(_ response: HTTPURLResponse) -> UpstreamClient.Failure? {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        guard (100...599).contains(response.statusCode) else { return .badStatus(response.statusCode) }
        // A compressed body's declared length is not the inflated one; that is counted as it comes.
        if headers["content-encoding"] == nil, let declared = headers["content-length"].flatMap({ Int($0) }), declared > maxBodyBytes {
            return .bodyTooLarge(limit: maxBodyBytes)
        }
        lock.withLock {
            status = response.statusCode
            self.headers = headers
        }
        return nil
    }

    /// Appends body bytes; false (and nothing kept) once they pass the cap.
    func receive(_ data: Data) -> Bool {
        lock.withLock {
            guard completion != nil else { return false }
            guard body.count + data.count <= maxBodyBytes else {
                body = Data()
                return false
            }
            body.append(data)
            return true
        }
    }

    /// The answer received so far as a whole one (the transfer ended without an error).
    func answer(_ response: HTTPURLResponse?) -> UpstreamClient.Answer? {
        lock.withLock {
            if status == 0, let response {
                // A head the data callback did not see (an answer to a declined redirect).
                status = response.statusCode
                for (name, value) in response.allHeaderFields { headers[String(describing: name).lowercased()] = String(describing: value) }
            }
            return status == 0 ? nil : UpstreamClient.Answer(status: status, headers: headers, body: body)
        }
    }

    /// Completes the exchange with `result` unless it is already complete; true when this call did.
    @discardableResult
    func finish(_ result: Result<UpstreamClient.Answer, UpstreamClient.Failure>) -> Bool {
        let completion: (@Sendable (Result<UpstreamClient.Answer, UpstreamClient.Failure>) -> Void)? = lock.withLock {
            defer { self.completion = nil; body = Data() }
            return self.completion
        }
        guard let completion else { return false }
        completion(result)
        return true
    }
}
