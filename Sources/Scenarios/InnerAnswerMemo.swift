import VietMapWireHTTP
import VietMapWire
import Foundation
import HTTPServer

/// The inner handler's answers to requests of clients that accept reused answers (the contract
/// runner's scenario runs and their answers without scenario, `X-VietMap-Sim-Untouched: 1`), by
/// request with an accepted key left out:
/// a scenario that edits an answer (a polyline transform, a fault) edits the same request's
/// answer computed for an earlier scenario run instead of computing it again. The simulator's
/// answers depend on the request only (its data is fixed), and any valid key gets the same.
/// Bounded: `entryLimit` answers and `byteLimit` body bytes, forgetting everything past them.
final class InnerAnswerMemo: @unchecked Sendable {
    // @unchecked: `answers` and `bytes` under `lock`.
    static let entryLimit = 1_024
    static let byteLimit = 32 * 1024 * 1024

    /// The inner handler's key check: every key it accepts gets the same answer.
    private let keys: APIKeyPolicy
    private let lock = NSLock()
    private var answers: [String: HTTPResponse] = [:]
    private var bytes = 0
    /// Requests whose answer is being computed: who else waits for it.
    private var waiting: [String: [ResponseHandle]] = [:]

    /// The remembered answer to `request`, else `inner`'s (remembered when it is a complete one);
    /// a request asked again while its answer is computed waits for that answer.
    func answer(_ request: HTTPRequest, inner: any HTTPResponder, reply: ResponseHandle) {
        let key = key(request)
        enum Next { case known(HTTPResponse), wait, compute }
        let next: Next = lock.withLock {
            if let known = answers[key] { return .known(known) }
            if waiting[key] != nil {
                waiting[key]?.append(reply)
                return .wait
            }
            waiting[key] = []
            return .compute
        }
        switch next {
        case .known(let response): reply.send(response)
        case .wait: return
        case .compute:
            inner.respond(to: request) { [self] response in
                let others: [ResponseHandle] = lock.withLock {
                    if response.transport == .normal, response.body.count <= Self.byteLimit {
                        if answers.count >= Self.entryLimit || bytes + response.body.count > Self.byteLimit {
                            answers = [:]
                            bytes = 0
                        }
                        answers[key] = response
                        bytes += response.body.count
                    }
                    return waiting.removeValue(forKey: key) ?? []
                }
                reply.send(response)
                for other in others { other.send(response) }
            }
        }
    }

    init(keys: APIKeyPolicy) {
        self.keys = keys
    }

    /// `inner` answering through this memo.
    func reusing(_ inner: any HTTPResponder) -> any HTTPResponder {
        ClosureResponder { [self] request, reply in answer(request, inner: inner, reply: reply) }
    }

    /// The engine's own request headers (the inner handler does not read them): a request with
    /// and without a scenario finds the same answer.
    static let ignoredHeaders: Set<String> = [ScenarioEngine.paceHeader, ScenarioEngine.virtualDelayHeader,
                                              ScenarioEngine.untouchedHeader].reduce(into: []) { $0.insert($1.lowercased()) }

    /// Method, path, parameters (a key the inner handler accepts as `valid`, any other as sent),
    /// headers but the engine's own, and body.
    func key(_ request: HTTPRequest) -> String {
        let accepted = keys.isValid(FrontDoor.presentedKey(request))
        var parts = [request.method, request.path, accepted ? "valid" : "refused"]
        for item in request.query.items where !(accepted && APIKeyPolicy.isKeyParameter(item.name)) {
            parts.append("q\(item.name)=\(item.value)")
        }
        for field in request.headers.fields where !Self.ignoredHeaders.contains(field.name.lowercased()) {
            parts.append("h\(field.name.lowercased()):\(field.value)")
        }
        parts.append(request.body.base64EncodedString())
        return parts.joined(separator: "\u{0}")
    }
}
