import VietMapWire
import Foundation
import HTTPServer
import JSON

/// Turns captured exchanges into a scenario document that replays them for any client.
///
/// - One rule per distinct request: endpoint plus every parameter except `apikey`, matched
///   exactly (`"exact": true`; parameter order does not matter, the order of a repeated
///   parameter's values — route `point`s — does; empty values count as absent).
/// - Its answer is the recorded status, the headers in `replayedHeaders`, the body byte for
///   byte (`json` when the simulator's serializer gives back the very same bytes, else `text`,
///   else `base64`) and the latency as a fixed `delay`; no response becomes the `reset` or
///   `empty` fault.
/// - A request captured several times gets a `sequence` of its answers in capture order
///   (identical consecutive answers folded into `times`); once exhausted the **last answer
///   repeats** (`"afterLast": "stick"`).
/// - Requests that were not captured get the simulator's normal answer, or with
///   `Unmatched.notFound` a 404 `NOT_FOUND` in the endpoint's shape.
///
///     let document = try ReplayScenario.document(for: exchanges, options: .init(name: "field-bug-42", description: "…"))
public enum ReplayScenario {
    /// What requests without a capture get.
    public enum Unmatched: String, Sendable, CaseIterable {
        /// The simulator's normal answer.
        case simulate
        /// 404 `NOT_FOUND` ("no captured exchange for this request").
        case notFound = "not-found"
    }

    public struct Options: Sendable {
        public var name: String
        public var description: String
        public var unmatched: Unmatched
        /// Replay latencies as delays (off: answer at once).
        public var replayTiming: Bool

        public init(name: String, description: String, unmatched: Unmatched = .simulate, replayTiming: Bool = true) {
            self.name = name
            self.description = description
            self.unmatched = unmatched
            self.replayTiming = replayTiming
        }
    }

    /// A capture that cannot become a scenario rule.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The exchange's `origin`.
        public let origin: String
        public let reason: String
        public var description: String { "\(origin): \(reason)" }
    }

    /// Response headers a replay keeps (compared case-insensitively; also every
    /// `X-RateLimit-*` and `RateLimit-*`). The rest (`Date`, `Server`, `Content-Length`,
    /// `Content-Encoding`, cookies…) is transport or noise; the body is replayed decoded.
    public static let replayedHeaders = ["Content-Type", "Retry-After", "Access-Control-Allow-Origin", "Cache-Control",
                                         "WWW-Authenticate", "Location"]

    /// The longest delay a scenario may hold (`ActionDecoder.maxMilliseconds`, 10 minutes).
    public static let maxDelayMilliseconds = ActionDecoder.maxMilliseconds

    /// The scenario document (validate it with `Scenario(json:)` before use; the builder
    /// only produces documents the validator accepts).
    /// - Throws: `Failure` for an exchange of no API endpoint, a status outside 200–599, or none at all.
    public static func document(for exchanges: [CapturedExchange], options: Options) throws(Failure) -> JSONValue {
        guard !exchanges.isEmpty else { throw Failure(origin: options.name, reason: "no VietMap exchange to replay") }
        var groups: [(key: RequestKey, exchanges: [CapturedExchange])] = []
        var indexByKey: [RequestKey: Int] = [:]
        for exchange in exchanges {
            if case .response(let response) = exchange.outcome, !(200...599).contains(response.status) {
                throw Failure(origin: exchange.origin, reason: "status \(response.status) cannot be replayed (scenarios answer 200–599)")
            }
            let key = RequestKey(exchange)
            if let index = indexByKey[key] {
                groups[index].exchanges.append(exchange)
            } else {
                indexByKey[key] = groups.count
                groups.append((key, [exchange]))
            }
        }
        var rules = groups.map { rule(for: $0.exchanges, options: options) }
        if options.unmatched == .notFound {
            let endpoints = Set(exchanges.map(\.endpoint)).map(\.rawValue).sorted()
            rules.append(.object(JSONObject([
                ("name", "not captured"),
                ("match", ["endpoint": .array(endpoints.map { .string($0) })]),
                ("respond", ["error": "NOT_FOUND", "message": "no captured exchange for this request"]),
            ])))
        }
        return .object(JSONObject([
            ("$schema", "./scenario.schema.json"),
            ("name", .string(options.name)),
            ("description", .string(options.description)),
            ("rules", .array(rules)),
        ]))
    }

    /// The same request: endpoint and the non-empty parameters other than `apikey`, names in
    /// sorted order, a repeated name's values in request order.
    struct RequestKey: Hashable {
        let endpoint: APIEndpoint
        let parameters: [[String]]

        init(_ exchange: CapturedExchange) {
            endpoint = exchange.endpoint
            var byName: [String: [String]] = [:]
            for item in relevantParameters(exchange.query) { byName[item.name, default: []].append(item.value) }
            parameters = byName.keys.sorted().map { [$0] + byName[$0]! }
        }
    }

    static func relevantParameters(_ query: [(name: String, value: String)]) -> [(name: String, value: String)] {
        query.filter { !$0.value.isEmpty && !RequestMatch.isKeyParameter($0.name) }
    }

    private static func rule(for exchanges: [CapturedExchange], options: Options) -> JSONValue {
        let first = exchanges[0]
        // Names in the order the request sent them; a repeated name's values as an array.
        let relevant = relevantParameters(first.query)
        var values: [String: [JSONValue]] = [:]
        for item in relevant { values[item.name, default: []].append(.string(item.value)) }
        var params = JSONObject()
        for item in relevant where params[item.name] == nil {
            let all = values[item.name]!
            params[item.name] = all.count == 1 ? all[0] : .array(all)
        }
        let shown = originList(exchanges.map(\.origin))
        var rule = JSONObject([
            ("name", .string("\(first.endpoint.rawValue) (\(shown))")),
            ("match", .object(JSONObject([("endpoint", .string(first.endpoint.rawValue)), ("exact", true), ("params", .object(params))]))),
        ])
        let actions = exchanges.map { action(for: $0, options: options) }
        if actions.count == 1 {
            for member in actions[0] { rule[member.key] = member.value }
            return .object(rule)
        }
        var steps: [(action: JSONObject, times: Int)] = []
        for action in actions {
            if let last = steps.last, last.action == action, JSONSerializer.bytes(.object(last.action)) == JSONSerializer.bytes(.object(action)) {
                steps[steps.count - 1].times += 1
            } else {
                steps.append((action, 1))
            }
        }
        let stepValues: [JSONValue] = steps.map { step in
            guard step.times > 1 else { return .object(step.action) }
            return .object(JSONObject([("times", .integer(step.times))] + step.action.members.map { ($0.key, $0.value) }))
        }
        rule["sequence"] = .object(JSONObject([("steps", .array(stepValues)), ("afterLast", "stick")]))
        return .object(rule)
    }

    /// `entry 3`, `entries 3, 5`, `entries 3, 5, 8, … 40`; mixed kinds listed in full.
    static func originList(_ origins: [String]) -> String {
        let parts = origins.map { $0.split(separator: " ", maxSplits: 1).map(String.init) }
        var numbers = parts.compactMap { $0.count == 2 && $0[0] == parts[0][0] ? $0[1] : nil }
        guard origins.count > 1, numbers.count == origins.count else { return origins.joined(separator: ", ") }
        if numbers.count > 4 { numbers = numbers.prefix(3) + ["… " + numbers.last!] }
        let kind = parts[0][0]
        return (kind == "entry" ? "entries" : kind) + " " + numbers.joined(separator: ", ")
    }

    /// The action keys replaying one exchange.
    static func action(for exchange: CapturedExchange, options: Options) -> JSONObject {
        var action = JSONObject()
        switch exchange.outcome {
        case .reset:
            action["fault"] = "reset"
        case .emptyReply:
            action["fault"] = "empty"
        case .response(let response):
            action["respond"] = respond(response)
            var faults: [JSONValue] = []
            if let bytes = response.truncatedAfterBytes {
                faults.append(["truncate": ["bytes": .integer(max(0, bytes))]])
            }
            if let length = response.announcedContentLength, length != response.body.count {
                faults.append(["contentLength": ["value": .integer(max(0, length))]])
            }
            if faults.count == 1 { action["fault"] = faults[0] } else if !faults.isEmpty { action["fault"] = .array(faults) }
            if let dribble = response.dribble, response.truncatedAfterBytes == nil, dribble.chunks >= 1 {
                action["dribble"] = ["chunks": .integer(min(dribble.chunks, 10_000)),
                                     "overMs": .integer(min(max(0, dribble.overMs), maxDelayMilliseconds))]
            }
        }
        // Clamped before the conversion: a recorded `1e300` or NaN must not trap `Int(_:)`.
        let latency = exchange.latencyMilliseconds
        let delay = latency.isFinite ? Int(min(max(0, latency), Double(maxDelayMilliseconds)).rounded()) : 0
        if options.replayTiming, delay > 0 { action["delay"] = .integer(delay) }
        return action
    }

    private static func respond(_ response: CapturedResponse) -> JSONValue {
        var respond = JSONObject([("status", .integer(response.status))])
        var headers = JSONObject()
        for (name, value) in response.headers where isReplayed(name) && isValidHeader(name: name, value: value) {
            let canonical = replayedHeaders.first { HTTPHeaders.sameName($0, name) } ?? canonicalName(name)
            if headers[canonical] == nil { headers[canonical] = .string(value) }
        }
        // The body key picks a default Content-Type; a capture without one must go out without one.
        if headers["Content-Type"] == nil { headers["Content-Type"] = .null }
        respond["headers"] = .object(headers)
        let (key, value) = body(response.body)
        respond[key] = value
        return .object(respond)
    }

    /// `json` when re-serializing gives the captured bytes back, `text` for other UTF-8, `base64` otherwise.
    static func body(_ data: Data) -> (String, JSONValue) {
        if !data.isEmpty, let parsed = try? JSONParser.parse(data), JSONSerializer.bytes(parsed).elementsEqual(data) {
            return ("json", parsed)
        }
        if let text = String(data: data, encoding: .utf8) { return ("text", .string(text)) }
        return ("base64", .string(data.base64EncodedString()))
    }

    static func isReplayed(_ name: String) -> Bool {
        if replayedHeaders.contains(where: { HTTPHeaders.sameName($0, name) }) { return true }
        return hasPrefixIgnoringCase(name, "x-ratelimit-") || hasPrefixIgnoringCase(name, "ratelimit")
    }

    /// Whether `name` starts with the lowercase ASCII `prefix`, in any case.
    private static func hasPrefixIgnoringCase(_ name: String, _ prefix: StaticString) -> Bool {
        let utf8 = name.utf8
        guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
        var index = utf8.startIndex
        for offset in 0..<prefix.utf8CodeUnitCount {
            let byte = utf8[index]
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lower != prefix.utf8Start[offset] { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    private static func isValidHeader(name: String, value: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (0x21...0x7E).contains($0) && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
            && !value.contains(where: { $0 == "\r" || $0 == "\n" })
    }

    /// `x-ratelimit-remaining` → `X-Ratelimit-Remaining` (HTTP/2 captures have lower-case names).
    private static func canonicalName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }
}
