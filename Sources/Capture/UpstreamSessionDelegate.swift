import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `UpstreamClient`'s URLSession delegate: declines every redirect, checks the head, counts the
/// body as URLSession delivers it (already inflated) and cancels a transfer past a limit.
final class UpstreamSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `exchanges` only under `lock`.
    private let lock = NSLock()
    private var exchanges: [Int: UpstreamExchange] = [:]

    func register(_ exchange: UpstreamExchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> UpstreamExchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // The 3xx is the upstream's answer; it is never chased to another host (or this one).
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            exchange.finish(.failure(.unreachable("not an HTTP answer")))
            return completionHandler(.cancel)
        }
        if let failure = exchange.receive(http) {
            exchange.finish(.failure(failure))
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(dataTask) else { return dataTask.cancel() }
        if !exchange.receive(data) {
            exchange.finish(.failure(.bodyTooLarge(limit: exchange.maxBodyBytes)))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = lock.withLock({ exchanges.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            let timedOut = (error as? URLError)?.code == .timedOut
            exchange.finish(.failure(timedOut ? .timedOut(exchange.timeout) : .unreachable(UpstreamClient.describe(error))))
        } else if let http = task.response as? HTTPURLResponse, !(100...599).contains(http.statusCode) {
            exchange.finish(.failure(.badStatus(http.statusCode)))
        } else if let answer = exchange.answer(task.response as? HTTPURLResponse) {
            exchange.finish(.success(answer))
        } else {
            exchange.finish(.failure(.unreachable("no answer")))
        }
    }
}
