import Foundation
import JSON

/// One recorded exchange: a request (its `apikey`, if it carried one, redacted to a
/// ``VMKeyRedaction`` token) and the raw answer it got.
///
/// Fixture format — one JSON file per recording (a file may also hold an array of them):
/// ```json
/// {
///   "recordedAt": "2026-12-01T14:20:31.250Z",
///   "request": {"method": "GET", "endpoint": "/api/route/v4", "parameters": [["vehicle", "car"], ["point", "10.7725,106.698"]]},
///   "response": {"status": 200, "latencyMs": 12.4, "headers": {"content-type": "application/json"}, "body": {"license": "vietmap", …}}
/// }
/// ```
/// `recordedAt` (when the answer arrived), `method` (default `GET`) and `latencyMs` (how long
/// the backend took) are optional. `vietmap-sim serve --record` writes one file per exchange,
/// named `NNNNNN-<endpoint>-<hash>.json` so that file-name order is arrival order.
/// `body` is the answer itself when it is JSON other than a string (kept byte for byte, so a
/// replay decodes exactly what was recorded); otherwise a JSON string holding the text, or the
/// bytes in base64 with `"bodyEncoding": "base64"`.
///
/// A request that carried its own key (`apikey=` to get a 401, or a wrong key) keeps an
/// `["apikey", "<redacted:empty>"]` / `["apikey", "<redacted:key#1a2b3c>"]` pair, so answers to
/// requests that differ only in the key stay apart; the key itself is never written. A request
/// without an `apikey` pair was sent with the provider's own key.
public struct VMRecording: Sendable {
    /// The request, with any `apikey` value redacted (the initializer redacts it).
    public var request: VMRequest
    public var response: VMRawResponse
    /// The HTTP method (`GET`; `HEAD` answers have no body).
    public var method: String
    /// When the answer arrived, if known.
    public var recordedAt: Date?
    /// How long the backend took to answer, in milliseconds, if measured.
    public var latencyMilliseconds: Double?

    public init(request: VMRequest, response: VMRawResponse, method: String = "GET", recordedAt: Date? = nil,
                latencyMilliseconds: Double? = nil) {
        self.request = request.redactingKey
        self.response = response
        self.method = method
        self.recordedAt = recordedAt
        self.latencyMilliseconds = latencyMilliseconds
    }

    static func timestampFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// A stable file name: endpoint + a hash of the canonical request and its key class
    /// (`route-3f2a….json`).
    public var suggestedFileName: String {
        let name = request.endpoint.name
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let key = request.keyClass.map { ["apikey=" + $0] } ?? []
        let path = request.pathSuffix.isEmpty ? [] : [request.pathSuffix]
        for byte in (path + key + request.canonicalParameters.map({ $0.name + "=" + $0.value })).joined(separator: "&").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(name)-\(String(repeating: "0", count: 16 - hex.count))\(hex).json"
    }

    // MARK: Writing

    /// The fixture file text for this recording.
    public func fixtureData() -> Data {
        var out = "{\n"
        if let recordedAt { out += "  \"recordedAt\": \(Self.quote(Self.timestampFormatter().string(from: recordedAt))),\n" }
        out += "  \"request\": {\n"
        if method != "GET" || recordedAt != nil { out += "    \"method\": \(Self.quote(method)),\n" }
        out += "    \"endpoint\": \(Self.quote(request.path)),\n    \"parameters\": ["
        let kept = request.redactingKey.parameters
        out += kept.isEmpty ? "]" : "\n" + kept.map { "      [\(Self.quote($0.name)), \(Self.quote($0.value))]" }
            .joined(separator: ",\n") + "\n    ]"
        out += "\n  },\n  \"response\": {\n    \"status\": \(response.status),"
        if let latency = latencyMilliseconds, latency.isFinite { out += "\n    \"latencyMs\": \((latency * 1000).rounded() / 1000)," }
        out += "\n    \"headers\": {"
        let headers = response.headers.sorted { $0.key < $1.key }
        out += headers.isEmpty ? "}" : "\n" + headers.map { "      \(Self.quote($0.key)): \(Self.quote($0.value))" }
            .joined(separator: ",\n") + "\n    }"
        out += ",\n    \"body\": "
        var bytes = [UInt8](out.utf8)
        if let range = Self.verbatimJSONRange(response.body) {
            bytes += response.body[range]
        } else if let text = String(data: response.body, encoding: .utf8) {
            bytes += Array(Self.quote(text).utf8)
        } else {
            bytes += Array((Self.quote(response.body.base64EncodedString()) + ",\n    \"bodyEncoding\": \"base64\"").utf8)
        }
        bytes += Array("\n  }\n}\n".utf8)
        return Data(bytes)
    }

    /// The range of `body` to embed as is: a complete JSON value that is not a string.
    private static func verbatimJSONRange(_ body: Data) -> Range<Data.Index>? {
        guard let (value, spans) = try? JSONParser.parseWithSpans(body), let range = spans[""] else { return nil }
        if case .string = value { return nil }
        return body.startIndex + range.lowerBound ..< body.startIndex + range.upperBound
    }

    static func quote(_ text: String) -> String { JSONSerializer.string(.string(text)) }

    // MARK: Reading

    /// The recordings in a fixture file (one object or an array of them).
    public static func decode(fixture data: Data, source: String = "fixture") throws(VMFixtureError) -> [VMRecording] {
        let bytes = [UInt8](data)
        let document: (value: JSONValue, spans: [String: Range<Int>])
        do {
            document = try JSONParser.parseWithSpans(bytes)
        } catch {
            // Report a line number: fixtures are edited by hand.
            let line = bytes[..<min(error.offset, bytes.count)].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            throw VMFixtureError(source: source, message: "invalid JSON at line \(line) (byte \(error.offset)): \(error.reason)")
        }
        let objects: [(value: JSONValue, pointer: String)]
        if case .array(let elements) = document.value {
            objects = elements.enumerated().map { ($0.element, "/\($0.offset)") }
        } else {
            objects = [(document.value, "")]
        }
        var recordings: [VMRecording] = []
        for (index, object) in objects.enumerated() {
            let place = objects.count > 1 ? "\(source)[\(index)]" : source
            recordings.append(try recording(object.value, bodyBytes: document.spans[object.pointer + "/response/body"].map { Data(bytes[$0]) },
                                            source: place))
        }
        return recordings
    }

    /// All recordings in the `.json` files of `directory` (not recursive), files in name order.
    public static func load(directory: URL) throws(VMFixtureError) -> [VMRecording] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw VMFixtureError(source: directory.path, message: "cannot list the directory: \(error.localizedDescription)")
        }
        var recordings: [VMRecording] = []
        for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw VMFixtureError(source: file.path, message: "cannot read the file")
            }
            recordings += try decode(fixture: data, source: file.path)
        }
        return recordings
    }

    /// - Parameter bodyBytes: the text of `response.body` as written in the file (a JSON body is kept verbatim).
    private static func recording(_ node: JSONValue, bodyBytes: Data?, source: String) throws(VMFixtureError) -> VMRecording {
        func fail(_ message: String) -> VMFixtureError { VMFixtureError(source: source, message: message) }
        guard let request = node["request"], let response = node["response"] else {
            throw fail("a recording needs \"request\" and \"response\" objects")
        }
        guard let endpointName = request["endpoint"]?.stringValue else { throw fail("request.endpoint must be a string") }
        guard let endpoint = VMEndpoint(nameOrPath: endpointName) else {
            throw fail("unknown request.endpoint \"\(endpointName)\"; expected one of \(VMEndpoint.allCases.map(\.path))")
        }
        // Directions v5 recordings name the whole path: the segments after the endpoint's path are the request's.
        let pathSuffix = endpoint.takesPathSegments && endpointName.hasPrefix(endpoint.path) ? String(endpointName.dropFirst(endpoint.path.count)) : ""
        var parameters: [VMParameter] = []
        if let list = request["parameters"] {
            guard case .array(let pairs) = list else { throw fail("request.parameters must be an array of [name, value]") }
            for (index, pair) in pairs.enumerated() {
                guard case .array(let two) = pair, two.count == 2,
                      let name = two[0].stringValue, let value = two[1].stringValue else {
                    throw fail("request.parameters[\(index)] must be [\"name\", \"value\"]")
                }
                parameters.append(VMParameter(name, value))
            }
        }
        guard let status = response["status"]?.intValue, (100...599).contains(status) else {
            throw fail("response.status must be an HTTP status code")
        }
        var headers: [String: String] = [:]
        if let headerNode = response["headers"] {
            guard case .object(let fields) = headerNode else { throw fail("response.headers must be an object") }
            for (name, value) in fields {
                guard let text = value.stringValue else { throw fail("response.headers.\(name) must be a string") }
                headers[name.lowercased()] = text
            }
        }
        let body: Data
        switch response["body"] {
        case nil: body = Data()
        case .string(let text)?:
            if response["bodyEncoding"]?.stringValue == "base64" {
                guard let decoded = Data(base64Encoded: text) else { throw fail("response.body is not valid base64") }
                body = decoded
            } else {
                body = Data(text.utf8)
            }
        case _?:
            body = bodyBytes ?? Data()
        }
        var method = "GET"
        if let node = request["method"] {
            guard let text = node.stringValue, !text.isEmpty else { throw fail("request.method must be a string") }
            method = text
        }
        var recordedAt: Date?
        if let node = node["recordedAt"] {
            guard let text = node.stringValue, let date = timestampFormatter().date(from: text) ?? ISO8601DateFormatter().date(from: text) else {
                throw fail("recordedAt must be an ISO 8601 time")
            }
            recordedAt = date
        }
        var latency: Double?
        if let node = response["latencyMs"] {
            guard let value = node.doubleValue, value >= 0 else { throw fail("response.latencyMs must be a number ≥ 0") }
            latency = value
        }
        return VMRecording(request: VMRequest(endpoint, parameters, pathSuffix: pathSuffix),
                           response: VMRawResponse(status: status, headers: headers, body: body),
                           method: method, recordedAt: recordedAt, latencyMilliseconds: latency)
    }
}

/// A fixture file that could not be read, naming the file (and element) and what is wrong.
public struct VMFixtureError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public let source: String
    public let message: String
    public var description: String { "\(source): \(message)" }
    public var errorDescription: String? { description }
}
