import Foundation
import HTTPServer
import JSON
import VietMapClient

/// Turns a HAR 1.2 file (what Proxyman, Charles and browser developer tools export), or a folder
/// of recordings, into a scenario that replays its VietMap exchanges for any client.
///
/// - Entries whose host is not one of `hosts` (default `maps.vietmap.vn`), whose path is not one
///   of the three endpoints, or whose method is not GET are ignored (counted).
/// - Exchanges are grouped by endpoint and parameters (order-insensitive except `point`s, the key
///   left out); each group becomes one rule whose `sequence` gives the recorded answers in the
///   recorded order (identical consecutive answers merged with `times`), then sticks to the last.
///   Each step answers with the recorded status, `Content-Type` (and `Retry-After`), the body as
///   recorded (`text`, so the bytes are identical) and the recorded server time as `delay`
///   (`timings.wait`, else `time`).
/// - A rule matches its parameters exactly (`equals`), and requires the endpoint's parameters
///   that other groups have but it lacks to be absent. Rules with more parameters come first.
///   Limitation: for a repeated parameter (`point`) the engine matches *any* value, so two
///   routes sharing every point but in another order are told apart only by that order of rules.
/// - Bodies are taken from `content.text` (`encoding: "base64"` decoded); a body that is not
///   UTF-8, or is missing (some tools leave it out), is reported in `notes`: a missing body keeps
///   the simulator's answer with the recorded status.
public enum ReplayScenarioBuilder {
    public struct Output: Sendable {
        /// The scenario document.
        public let scenario: JSONValue
        /// The document as written: one rule per line.
        public let text: String
        /// VietMap exchanges turned into steps, entries ignored.
        public let exchanges: Int
        public let ignored: Int
        /// Entries that could not be reproduced exactly, one line each.
        public let notes: [String]
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static let defaultHosts: Set<String> = ["maps.vietmap.vn"]

    /// - Parameters:
    ///   - name: the scenario's name (letters, digits, `.`, `_`, `-`).
    ///   - source: shown in the description (the HAR's file name).
    public static func build(har data: Data, name: String, source: String, hosts: Set<String> = defaultHosts) throws(Failure) -> Output {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw Failure(description: "not a HAR file: \(error)")
        }
        guard let entries = root["log"]?["entries"]?.arrayValue else {
            throw Failure(description: "not a HAR file: no log.entries array")
        }
        let wantedHosts = Set(hosts.map { $0.lowercased() })
        var exchanges: [Exchange] = []
        var notes: [String] = []
        var ignored = 0
        for (index, entry) in entries.enumerated() {
            guard let request = entry["request"], let response = entry["response"],
                  request["method"]?.stringValue?.uppercased() == "GET",
                  let urlText = request["url"]?.stringValue, let components = URLComponents(string: urlText),
                  let host = components.host?.lowercased(), wantedHosts.contains(host),
                  let endpoint = CaptureEndpoint.endpoint(of: components.percentEncodedPath),
                  let status = response["status"]?.intValue, (100...599).contains(status) else {
                ignored += 1
                continue
            }
            guard let query = try? QueryParameters(parsing: components.percentEncodedQuery ?? "") else {
                notes.append("entry \(index): malformed query string; ignored")
                ignored += 1
                continue
            }
            let vmRequest = VMRequest(endpoint, query.items.map { VMParameter($0.name, $0.value) })
            var headers: [(String, String)] = []
            for header in response["headers"]?.arrayValue ?? [] {
                guard let name = header["name"]?.stringValue, let value = header["value"]?.stringValue else { continue }
                headers.append((name, value))
            }
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }), let mime = response["content"]?["mimeType"]?.stringValue, !mime.isEmpty {
                headers.append(("Content-Type", mime))
            }
            var body: Data?
            if let text = response["content"]?["text"]?.stringValue {
                if response["content"]?["encoding"]?.stringValue?.lowercased() == "base64" {
                    body = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
                    if body == nil { notes.append("entry \(index) (\(endpoint.rawValue)): the base64 body does not decode; the simulator's answer is used with status \(status)") }
                } else {
                    body = Data(text.utf8)
                }
            } else {
                notes.append("entry \(index) (\(endpoint.rawValue)): no body in the HAR; the simulator's answer is used with status \(status)")
            }
            let wait = entry["timings"]?["wait"]?.doubleValue ?? -1
            let total = entry["time"]?.doubleValue ?? 0
            exchanges.append(Exchange(label: "entry \(index)", request: vmRequest, status: status, headers: headers, body: body,
                                      delayMilliseconds: wait >= 0 ? wait : max(0, total)))
        }
        guard !exchanges.isEmpty else {
            throw Failure(description: "no VietMap exchanges (GET \(VMEndpoint.allCases.map(\.rawValue).joined(separator: ", ")) on \(wantedHosts.sorted().joined(separator: ", "))) among \(entries.count) entries")
        }
        return build(exchanges, name: name, source: source, ignored: ignored, notes: notes)
    }

    /// A scenario from recordings (`serve --record`, `RecordingVietMapProvider`), in their order;
    /// the recorded latency becomes the delay.
    public static func build(recordings: [VMRecording], name: String, source: String) throws(Failure) -> Output {
        guard !recordings.isEmpty else { throw Failure(description: "no recordings in \(source)") }
        let exchanges = recordings.enumerated().map { index, recording in
            Exchange(label: "recording \(index + 1)", request: recording.request, status: recording.response.status,
                     headers: recording.response.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                     body: recording.response.body, delayMilliseconds: recording.latencyMilliseconds ?? 0)
        }
        return build(exchanges, name: name, source: source, ignored: 0, notes: [])
    }

    /// One captured answer, whatever it was read from.
    struct Exchange {
        let label: String
        let request: VMRequest
        let status: Int
        let headers: [(String, String)]
        /// nil: not captured.
        let body: Data?
        let delayMilliseconds: Double
    }

    static func build(_ exchanges: [Exchange], name: String, source: String, ignored: Int, notes initialNotes: [String]) -> Output {
        struct Step { var status: Int; var headers: [(String, String)]; var body: String?; var delay: Int }
        struct Group { var request: VMRequest; var steps: [Step] }
        var groups: [Group] = []
        var positions: [String: Int] = [:]
        var notes = initialNotes
        for exchange in exchanges {
            // The key is never copied; the scenario answers whatever key selects it.
            let request = VMRequest(exchange.request.endpoint, exchange.request.parameters.filter { $0.name.lowercased() != "apikey" })
            var headers: [(String, String)] = []
            for (name, value) in exchange.headers where ["content-type", "retry-after"].contains(name.lowercased()) {
                let canonical = name.lowercased() == "content-type" ? "Content-Type" : "Retry-After"
                if !headers.contains(where: { $0.0 == canonical }) { headers.append((canonical, value)) }
            }
            var body: String?
            if let data = exchange.body {
                body = String(data: data, encoding: .utf8)
                if body == nil {
                    notes.append("\(exchange.label) (\(request.endpoint.rawValue)): the body is not UTF-8 text; the simulator's answer is used with status \(exchange.status)")
                }
            }
            let delay = exchange.delayMilliseconds.isFinite ? Int(min(max(exchange.delayMilliseconds, 0), 60_000).rounded()) : 0
            let step = Step(status: exchange.status, headers: headers, body: body, delay: delay)
            let key = VMRecording(request: request, response: VMRawResponse(status: 0, body: Data())).suggestedFileName
            if let position = positions[key] {
                groups[position].steps.append(step)
            } else {
                positions[key] = groups.count
                groups.append(Group(request: request, steps: [step]))
            }
        }
        let exchangeCount = exchanges.count
        // Parameters each endpoint's requests have, for `absent` conditions.
        var namesByEndpoint: [VMEndpoint: Set<String>] = [:]
        for group in groups { namesByEndpoint[group.request.endpoint, default: []].formUnion(group.request.parameters.map(\.name)) }
        let ordered = groups.enumerated().sorted { a, b in
            let (ca, cb) = (Set(a.element.request.parameters.map(\.name)).count, Set(b.element.request.parameters.map(\.name)).count)
            return ca != cb ? ca > cb : a.offset < b.offset
        }.map(\.element)

        var rules: [JSONValue] = []
        for (number, group) in ordered.enumerated() {
            let endpointName = String(group.request.endpoint.rawValue.split(separator: "/")[1])
            var params: [(String, JSONValue)] = []
            var seen = Set<String>()
            for parameter in group.request.parameters where seen.insert(parameter.name).inserted {
                // The engine counts an empty value as absent.
                let condition: (String, JSONValue) = parameter.value.isEmpty ? ("absent", .bool(true)) : ("equals", .string(parameter.value))
                params.append((parameter.name, .object(JSONObject([condition]))))
            }
            for other in (namesByEndpoint[group.request.endpoint] ?? []).subtracting(seen).sorted() {
                params.append((other, .object(JSONObject([("absent", .bool(true))]))))
            }
            var steps: [(step: Step, times: Int)] = []
            for step in group.steps {
                if let last = steps.last, last.step.status == step.status, last.step.body == step.body,
                   last.step.delay == step.delay, last.step.headers.elementsEqual(step.headers, by: { $0 == $1 }) {
                    steps[steps.count - 1].times += 1
                } else {
                    steps.append((step, 1))
                }
            }
            let stepValues: [JSONValue] = steps.map { item in
                var respond: [(String, JSONValue)] = [("status", .integer(item.step.status))]
                if !item.step.headers.isEmpty {
                    respond.append(("headers", .object(JSONObject(item.step.headers.map { ($0.0, .string($0.1)) }))))
                }
                if let body = item.step.body { respond.append(("text", .string(body))) }
                var members: [(String, JSONValue)] = []
                if item.times > 1 { members.append(("times", .integer(item.times))) }
                members.append(("respond", .object(JSONObject(respond))))
                if item.step.delay > 0 { members.append(("delay", .integer(item.step.delay))) }
                return .object(JSONObject(members))
            }
            rules.append(.object(JSONObject([
                ("name", .string("\(endpointName) #\(number + 1): \(group.steps.count) answer\(group.steps.count == 1 ? "" : "s")")),
                ("match", .object(JSONObject([("endpoint", .string(endpointName)), ("params", .object(JSONObject(params)))]))),
                ("sequence", .object(JSONObject([("steps", .array(stepValues)), ("afterLast", "stick")]))),
            ])))
        }
        let description = "Replays \(exchangeCount) VietMap exchange\(exchangeCount == 1 ? "" : "s") recorded in \(source) (\(groups.count) distinct request\(groups.count == 1 ? "" : "s")); other requests get normal answers."
        let scenario: JSONValue = .object(JSONObject([("name", .string(name)), ("description", .string(description)), ("rules", .array(rules))]))
        var text = "{\n  \"name\": \(JSONSerializer.string(.string(name))),\n  \"description\": \(JSONSerializer.string(.string(description))),\n  \"rules\": [\n"
        text += rules.map { "    " + JSONSerializer.string($0) }.joined(separator: ",\n")
        text += "\n  ]\n}\n"
        return Output(scenario: scenario, text: text, exchanges: exchangeCount, ignored: ignored, notes: notes)
    }

    /// A scenario name from a file name: letters, digits, `.`, `_`, `-`; others become `-`.
    public static func scenarioName(fromFile path: String) -> String {
        var base = URL(fileURLWithPath: path).lastPathComponent
        if base.lowercased().hasSuffix(".har") { base = String(base.dropLast(4)) }
        let cleaned = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
        return cleaned.isEmpty ? "from-har" : String(cleaned.prefix(80))
    }
}
