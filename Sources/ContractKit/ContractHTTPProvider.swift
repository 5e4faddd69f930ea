import Foundation
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The contract suite's HTTP backend: the client library's `HTTPVietMapProvider`, plus one thing
/// the corpus needs — a request that carries its own `apikey` parameter (the missing-key queries
/// send `apikey=`) is sent with exactly that key instead of the configured one.
package struct ContractHTTPProvider: VietMapProvider {
    package static let liveBaseURL = HTTPVietMapProvider.liveBaseURL

    package let baseURL: URL
    package let apiKey: String?
    private let keyed: HTTPVietMapProvider
    private let keyless: HTTPVietMapProvider
    private let timeout: TimeInterval
    private let virtualDelays: Bool
    private let plainAnswers: PlainAnswers?

    /// - Parameters:
    ///   - paceMilliseconds: asks a simulator for paced scenario time (`X-VietMap-Sim-Pace`).
    ///   - virtualDelays: asks a simulator to send scenario-delayed answers at once, naming the
    ///     delay (`X-VietMap-Sim-Virtual-Delay`); an answer delayed by `timeout` or more is then
    ///     a timeout here, as it would have been after waiting.
    ///   - plainAnswers: with `virtualDelays`, asks a simulator not to compute answers its scenario
    ///     leaves alone (`X-VietMap-Sim-Untouched`): they come from here, the same request's answer
    ///     without scenario.
    ///   - reusesAnswers: tells a simulator that answers computed for the same request earlier
    ///     will do (`X-VietMap-Sim-Untouched` without a scenario; implied by `plainAnswers`).
    package init(baseURL: URL, apiKey: String?, timeout: TimeInterval = 15, paceMilliseconds: Int? = nil, virtualDelays: Bool = false,
                 plainAnswers: PlainAnswers? = nil, reusesAnswers: Bool = false) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
        self.virtualDelays = virtualDelays
        self.plainAnswers = virtualDelays ? plainAnswers : nil
        let session = Self.session(timeout: timeout, paceMilliseconds: paceMilliseconds, virtualDelays: virtualDelays,
                                   skipUntouched: self.plainAnswers != nil || reusesAnswers)
        keyed = HTTPVietMapProvider(baseURL: baseURL, apiKey: apiKey, session: session, timeout: timeout)
        keyless = HTTPVietMapProvider(baseURL: baseURL, apiKey: nil, session: session, timeout: timeout)
    }

    /// One session per (timeout, pace), made once and never invalidated: on Linux, tearing down
    /// URLSessions while others run races inside FoundationNetworking (`_MultiHandle`; a crash seen
    /// here once in ten example runs), so the suite's many providers share a few sessions.
    private static let sessions = SessionCache()

    static func session(timeout: TimeInterval, paceMilliseconds: Int?, virtualDelays: Bool = false, skipUntouched: Bool = false) -> URLSession {
        sessions.session(key: "\(timeout)|\(paceMilliseconds ?? 0)|\(virtualDelays)|\(skipUntouched)") {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout * 2
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            // One connection per request: a reused keep-alive connection that the server closed in
            // the meantime makes the client resend the request, and a resent request is one more
            // draw of a seeded scenario — runs would stop being reproducible.
            var headers = ["Connection": "close"]
            if let paceMilliseconds { headers["X-VietMap-Sim-Pace"] = String(paceMilliseconds) }
            if virtualDelays { headers[virtualDelayHeader] = "1" }
            if skipUntouched { headers[untouchedHeader] = "1" }
            configuration.httpAdditionalHeaders = headers
            return URLSession(configuration: configuration)
        }
    }

    private func provider(for request: VMRequest) -> HTTPVietMapProvider {
        request.parameters.contains { $0.name.lowercased() == "apikey" } ? keyless : keyed
    }

    /// The URL `send` requests.
    package func url(for request: VMRequest) -> URL? { try? provider(for: request).url(for: request) }

    package func send(_ request: VMRequest) async throws -> VMRawResponse {
        let response = try await provider(for: request).send(request)
        if virtualDelays, let delay = response.headers[Self.virtualDelayHeader.lowercased()].flatMap(Double.init),
           delay >= timeout * 1000 {
            throw VMClientError.transport(Self.timedOut)
        }
        if let plainAnswers, response.status == 204, response.headers[Self.untouchedHeader.lowercased()] == "1" {
            return try await plainAnswers.answer(to: request)
        }
        return response
    }

    /// `X-VietMap-Sim-Untouched` (ScenarioEngine): asked for with `1`; a `204` with `1`: the
    /// scenario left the answer alone and it was not computed.
    static let untouchedHeader = "X-VietMap-Sim-Untouched"

    /// `X-VietMap-Sim-Virtual-Delay` (ScenarioEngine): asked for with `1`, answered with the delay in ms.
    static let virtualDelayHeader = "X-VietMap-Sim-Virtual-Delay"

    /// What URLSession throws when a request outlives its timeout.
    static let timedOut = URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "The request timed out."])
}

/// The shared sessions of `ContractHTTPProvider`, by key.
final class SessionCache: @unchecked Sendable {
    // @unchecked: `sessions` under `lock`.
    private let lock = NSLock()
    private var sessions: [String: URLSession] = [:]

    func session(key: String, make: () -> URLSession) -> URLSession {
        lock.withLock {
            if let session = sessions[key] { return session }
            let session = make()
            sessions[key] = session
            return session
        }
    }
}

/// The answers of a simulator without scenario, each request sent once (`ContractHTTPProvider`'s
/// `plainAnswers`): the scenario runs of one suite share it, so a query whose answer no scenario
/// changes is computed once, not once per scenario. Answers without scenario are the same for the
/// same request (the simulator's data is fixed); errors are not kept.
package final class PlainAnswers: @unchecked Sendable {
    // @unchecked: `answers` under `lock`.
    private let provider: ContractHTTPProvider
    private let lock = NSLock()
    /// Each request's answer, or its sending while it is under way (scenario runs go through the
    /// corpus in the same order at once: they ask for the same request together).
    private var answers: [VMRequest: Task<VMRawResponse, any Error>] = [:]

    package init(provider: ContractHTTPProvider) {
        self.provider = provider
    }

    func answer(to request: VMRequest) async throws -> VMRawResponse {
        let provider = self.provider
        let task = lock.withLock {
            if let known = answers[request] { return known }
            let task = Task { try await provider.send(request) }
            answers[request] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            lock.withLock { if answers[request] == task { answers[request] = nil } }
            throw error
        }
    }
}
