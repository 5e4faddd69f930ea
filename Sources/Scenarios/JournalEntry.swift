import VietMapWire
import Foundation
import HTTPServer
import JSON

/// One request as the journal saw it: arrival, what the app sent (API key redacted), what
/// the scenario engine did and what went back.
public struct JournalEntry: Sendable {
    /// Increases by one per request since the engine started (not reset by `clear`); assigned
    /// by `RequestJournal.record`.
    public internal(set) var sequence: Int
    /// Wall-clock arrival time (for reading beside other logs; not the engine's clock).
    public let timestamp: Date
    /// Arrival in milliseconds since the engine started (on its monotonic `ScenarioClock`):
    /// compare these to measure gaps between requests.
    public let arrivalMilliseconds: Double
    public let method: String
    /// The path as sent (with any `/__scenario/NAME` prefix).
    public let path: String
    /// The endpoint after removing the scenario prefix.
    public let endpoint: APIEndpoint?
    /// The decoded query in order; a real `apikey` reads `***`, a `scenario:` key is kept.
    public var query: [QueryItem] { packedQuery.items }
    /// What the scenario engine did, `nil` for a request no scenario touched (most of them).
    private let facts: ScenarioFacts?

    /// The scenario in effect, if any.
    public var scenario: String? { facts?.scenario }
    /// How the scenario was selected: `path`, `apikey` or `default`.
    public var selectedBy: String? { facts?.selectedBy }
    /// The `@suffix` of the scenario key or path segment (the client tag).
    public var client: String? { facts?.client }
    /// The rule that acted (its `name`, else `#index`).
    public var rule: String? { facts?.rule }
    /// The sequence step taken.
    public var step: Int? { facts?.step }
    /// The scenario's named state after this request.
    public var state: String? { facts?.state }
    /// The delay the rule added, in milliseconds.
    public var delayMilliseconds: Int? { facts?.delayMilliseconds }
    /// The transport faults applied (`reset`, `truncate+content-type`, …).
    public var fault: String? { facts?.fault }

    /// The journal keeps 10,000 entries: they are stored compactly (the query packed in one
    /// byte array, the scenario's part only when there is one, a known endpoint's path shared):
    /// ≈ 3.4 MB less resident memory for a full journal than the ≈ 1.1 KB entries before.
    private final class ScenarioFacts: Sendable {
        let scenario: String?, selectedBy: String?, client: String?, rule: String?, step: Int?, state: String?
        let delayMilliseconds: Int?, fault: String?

        init(scenario: String?, selectedBy: String?, client: String?, rule: String?, step: Int?, state: String?,
             delayMilliseconds: Int?, fault: String?) {
            (self.scenario, self.selectedBy, self.client, self.rule) = (scenario, selectedBy, client, rule)
            (self.step, self.state, self.delayMilliseconds, self.fault) = (step, state, delayMilliseconds, fault)
        }
    }

    /// Names and values in one byte array: for each, its UTF-8 length (LEB128) then its bytes.
    private struct PackedQuery: Sendable {
        let bytes: [UInt8]

        init(_ items: [QueryItem]) {
            // One allocation, sized first (every request is journaled).
            var size = 0
            for item in items { size += item.name.utf8.count + item.value.utf8.count + 4 }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size)
            for item in items {
                Self.append(item.name, to: &bytes)
                Self.append(item.value, to: &bytes)
            }
            self.bytes = bytes
        }

        private static func append(_ text: String, to bytes: inout [UInt8]) {
            var length = text.utf8.count
            repeat {
                bytes.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
                length >>= 7
            } while length > 0
            bytes.append(contentsOf: text.utf8)
        }

        var items: [QueryItem] {
            var out: [QueryItem] = []
            var i = 0
            func next() -> String {
                var length = 0, shift = 0
                while i < bytes.count {
                    let byte = bytes[i]
                    i += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
                let end = min(bytes.count, i + length)
                defer { i = end }
                return String(decoding: bytes[i..<end], as: UTF8.self)
            }
            while i < bytes.count {
                let name = next()
                out.append(QueryItem(name: name, value: next()))
            }
            return out
        }
    }
    private let packedQuery: PackedQuery

    init(sequence: Int, timestamp: Date, arrivalMilliseconds: Double, method: String, path: String, endpoint: APIEndpoint?,
         query: [QueryItem], scenario: String?, selectedBy: String?, client: String?, rule: String?, step: Int?,
         state: String?, delayMilliseconds: Int?, fault: String?, status: Int?, latencyMilliseconds: Double?, note: String?) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.arrivalMilliseconds = arrivalMilliseconds
        self.method = method
        // The endpoint's own path is one shared string, not a copy per request.
        self.path = endpoint.map { path == $0.path ? $0.path : path } ?? path
        self.endpoint = endpoint
        packedQuery = PackedQuery(query)
        let anyFact = scenario != nil || selectedBy != nil || client != nil || rule != nil || step != nil || state != nil
            || delayMilliseconds != nil || fault != nil
        facts = anyFact ? ScenarioFacts(scenario: scenario, selectedBy: selectedBy, client: client, rule: rule, step: step,
                                        state: state, delayMilliseconds: delayMilliseconds, fault: fault) : nil
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.note = note
    }

    /// The status sent; 0 when no HTTP answer was sent (empty reply, reset); nil while pending.
    public internal(set) var status: Int?
    /// Arrival to sending, in milliseconds; nil while pending.
    public internal(set) var latencyMilliseconds: Double?
    /// Why a patch was not applied, or another remark.
    public internal(set) var note: String?
    /// The response body as the engine produced it (before transport faults cut it), at most
    /// `RequestJournal.bodyLimit` bytes; nil without a body, while pending, or once the
    /// journal's body budget dropped it (oldest bodies go first).
    public internal(set) var responseBody: Data?
    /// The full size of that body in bytes; nil while pending.
    public internal(set) var responseBodyBytes: Int?
    /// The response's `Content-Type`.
    public internal(set) var responseContentType: String?
    /// The response headers a replay needs (`ReplayScenario.replayedHeaders`, `Content-Length`),
    /// as sent: at most 16, names cut to 64 and values to 256 characters.
    public var responseHeaders: [(name: String, value: String)] {
        guard !storedHeadersAreKept else { return storedHeaders }
        return Array(storedHeaders.filter { JournalEntry.keepsHeader($0.name) }.prefix(16))
    }

    /// The response's header fields: either all of them, shared with the response (when there are
    /// at most 16, each within the length limits: the kept ones are picked when read), or the kept
    /// ones already picked and cut (`storedHeadersAreKept`).
    var storedHeaders: [(name: String, value: String)] = []
    var storedHeadersAreKept = true

    /// Whether `responseHeaders` keeps a header called `name`.
    static func keepsHeader(_ name: String) -> Bool {
        ReplayScenario.isReplayed(name) || HTTPHeaders.sameName(name, "content-length")
    }
    /// Whether `query` lost parameters or characters to the journal's limits (the `apikey` aside).
    public internal(set) var queryCut = false
    /// How the answer went out (truncated, dribbled, …); nil while pending.
    public internal(set) var responseTransport: TransportBehaviour?

    /// A query parameter (name and value).
    public struct QueryItem: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// The first value of `name` in the (redacted) query.
    public func value(of name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    var json: JSONValue {
        .object(JSONObject([
            ("seq", .integer(sequence)),
            ("time", .string(timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))),
            ("atMs", .number((arrivalMilliseconds * 1000).rounded() / 1000)),
            ("method", .string(method)),
            ("path", .string(path)),
            ("endpoint", .string(endpoint?.name ?? "other")),
            ("query", .array(query.map { ["name": .string($0.name), "value": .string($0.value)] })),
            ("scenario", .string(scenario)),
            ("selectedBy", .string(selectedBy)),
            ("client", .string(client)),
            ("rule", .string(rule)),
            ("step", step.map { .integer($0) } ?? .null),
            ("state", .string(state)),
            ("delayMs", delayMilliseconds.map { .integer($0) } ?? .null),
            ("fault", .string(fault)),
            ("status", status.map { .integer($0) } ?? .null),
            ("latencyMs", latencyMilliseconds.map { .number(($0 * 1000).rounded() / 1000) } ?? .null),
            ("note", .string(note)),
        ]))
    }

    /// `json` plus `response`: `contentType`, `bytes` (full size), `kept` (bytes held) and
    /// `body` (UTF-8 text of the kept bytes, an incomplete last character dropped; null when
    /// not kept). For `GET /__sim/journal/SEQ`.
    var detailJSON: JSONValue {
        guard case .object(var object) = json else { return json }
        var kept = responseBody ?? Data()
        for _ in 0..<3 where !kept.isEmpty && String(data: kept, encoding: .utf8) == nil {
            kept.removeLast()  // a character cut by the byte limit
        }
        object["response"] = .object(JSONObject([
            ("contentType", .string(responseContentType)),
            ("bytes", responseBodyBytes.map { .integer($0) } ?? .null),
            ("kept", .integer(responseBody?.count ?? 0)),
            ("body", responseBody == nil ? .null : .string(String(decoding: kept, as: UTF8.self))),
        ]))
        return .object(object)
    }
}
