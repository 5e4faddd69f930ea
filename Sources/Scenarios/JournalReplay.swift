import Foundation
import HTTPServer
import JSON
import VietMapWire

/// `GET /__sim/journal/SEQ/scenario`: a scenario that replays one journaled exchange — its
/// request matched exactly, its status, replay headers, kept body, transport fault and latency.
///
/// Refused when the entry cannot be replayed faithfully: still in flight or body not (fully)
/// kept (409: the body limit is `RequestJournal.bodyLimit` per body and the journal's body
/// budget in all), or not an API endpoint / a query the journal cut (422).
enum JournalReplay {
    static func scenario(for entry: JournalEntry, name: String?) throws(AdminAPI.Failure) -> JSONValue {
        let exchange = try capturedExchange(entry)
        let scenarioName = name ?? "journal-\(entry.sequence)"
        guard scenarioName.range(of: ScenarioDecoder.namePattern, options: .regularExpression) != nil else {
            throw AdminAPI.Failure(status: 400, message: "name must be 1–100 letters, digits, '.', '_' or '-' starting with a letter or digit")
        }
        let outcome = entry.status.map { $0 == 0 ? (entry.fault ?? "no answer") : "\($0)" } ?? "?"
        let description = "Replays journal entry \(entry.sequence): \(entry.method) \(entry.endpoint?.path ?? entry.path) → \(outcome), "
            + "recorded \(entry.timestamp.formatted(Date.ISO8601FormatStyle()))."
        do {
            return try ReplayScenario.document(for: [exchange], options: .init(name: scenarioName, description: description))
        } catch {
            throw AdminAPI.Failure(status: 422, message: String(describing: error))
        }
    }

    static func capturedExchange(_ entry: JournalEntry) throws(AdminAPI.Failure) -> CapturedExchange {
        let origin = "journal \(entry.sequence)"
        guard let endpoint = entry.endpoint else {
            throw AdminAPI.Failure(status: 422, message: "\(origin) is not a request to an API endpoint (\(entry.path.prefix(100)))")
        }
        if entry.queryCut {
            throw AdminAPI.Failure(status: 422, message: "\(origin): the journal cut its query (values of at most \(ScenarioEngine.journalValueLimit) characters, \(ScenarioEngine.journalQueryLimit) bytes of parameters in all are kept), so it cannot be matched exactly")
        }
        guard entry.method == "GET" else {
            throw AdminAPI.Failure(status: 422, message: "\(origin) is a \(entry.method.prefix(16)) request; only GET exchanges are replayed")
        }
        guard let status = entry.status, let transport = entry.responseTransport else {
            throw AdminAPI.Failure(status: 409, message: "\(origin) has no answer yet (still in flight)")
        }
        let query = entry.query.map { (name: $0.name, value: $0.value) }
        let latency = entry.latencyMilliseconds ?? 0
        switch transport {
        case .reset:
            return CapturedExchange(endpoint: endpoint, query: query, outcome: .reset, latencyMilliseconds: latency, origin: origin)
        case .closeWithoutResponse:
            return CapturedExchange(endpoint: endpoint, query: query, outcome: .emptyReply, latencyMilliseconds: latency, origin: origin)
        default:
            break
        }
        let bytes = entry.responseBodyBytes ?? 0
        let kept = entry.responseBody ?? Data()
        if bytes > kept.count {
            let why = kept.isEmpty && bytes <= RequestJournal.bodyLimit
                ? "its body was dropped to keep the journal's body budget (oldest bodies go first)"
                : "its body was cut to \(kept.count) of \(bytes) bytes (the journal keeps \(RequestJournal.bodyLimit / 1024) KiB of each body)"
            throw AdminAPI.Failure(status: 409, message: "\(origin) cannot be replayed byte for byte: \(why)")
        }
        var response = CapturedResponse(status: status, headers: entry.responseHeaders, body: kept)
        if let length = entry.responseHeaders.first(where: { HTTPHeaders.sameName($0.name, "Content-Length") }).flatMap({ Int($0.value) }) {
            response.announcedContentLength = length
        }
        switch transport {
        case .truncate(let after): response.truncatedAfterBytes = after
        case .dribble(let chunks, let interval): response.dribble = (chunks, interval * max(0, chunks - 1))
        default: break
        }
        return CapturedExchange(endpoint: endpoint, query: query, outcome: .response(response),
                                latencyMilliseconds: latency, origin: origin)
    }
}
