import VietMapWire
import Foundation
import HTTPServer
import JSON
import Scenarios

/// Reads a HAR 1.2 file (what Proxyman, Charles and browser developer tools export) and keeps
/// its VietMap exchanges as `CapturedExchange`s, in the order they started.
///
/// - **Which entries**: those whose URL path ends in `/api/autocomplete/v4`, `/api/place/v4`
///   or `/api/route/v4` (a trailing `/` allowed, any path prefix — a key-hiding proxy, the
///   simulator's `/__scenario/NAME` — allowed), on one of `hosts` (`maps.vietmap.vn`, or
///   `host:port`; empty: any host — the CLI keeps `defaultHosts` unless told). Everything else (tiles, styles, other services),
///   methods other than `GET` (`OPTIONS` preflights) and answers a browser took from its own
///   cache (`_fromCache`) are skipped and counted.
/// - **Query**: decoded from `request.url` (form encoding, `+` is a space); `queryString` is
///   used when the URL has no query.
/// - **Body**: `response.content.text`, base64-decoded when `content.encoding` is `base64`,
///   then inflated when the bytes are a gzip stream (or a zlib stream with
///   `Content-Encoding: deflate`). A body the HAR left out (`text` missing, `size` > 0) is an error.
/// - **No response** (`status` 0): a `reset`, or an `empty` reply when the tool's `_error`
///   says the response was empty (`ERR_EMPTY_RESPONSE`).
/// - **Latency**: `timings.wait` (the server's time to first byte), else `time`; `.total`
///   takes `time` (connection set-up included).
public enum HARImport {
    public enum Timing: String, Sendable, CaseIterable {
        /// `timings.wait`, else `time`.
        case wait
        /// `time` (the whole exchange as the client saw it).
        case total
    }

    public struct Options: Sendable {
        /// Hosts to keep (`maps.vietmap.vn`, `127.0.0.1:8080`), compared case-insensitively; empty: any.
        public var hosts: [String]
        public var timing: Timing
        public init(hosts: [String] = [], timing: Timing = .wait) {
            self.hosts = hosts
            self.timing = timing
        }
    }

    /// The exchanges kept and what was left out.
    public struct Result: Sendable {
        public var exchanges: [CapturedExchange]
        /// `log.entries.count`.
        public var entryCount: Int
        /// Reason → how many entries (`"other host"`, `"other path"`, `"OPTIONS"`…).
        public var skipped: [String: Int]
        /// Hosts (`host` or `host:port`) of skipped entries whose path was a VietMap endpoint, in order of appearance.
        public var otherHosts: [String]
    }

    /// The hosts `scenarios from-har` keeps without `--host`.
    public static let defaultHosts = ["maps.vietmap.vn"]

    /// The largest HAR file read (512 MiB) and the largest inflated body (64 MiB).
    public static let maxFileBytes = 512 * 1024 * 1024
    public static let maxBodyBytes = 64 * 1024 * 1024

    /// Reads a HAR file.
    public static func read(contentsOf url: URL, options: Options = Options()) throws(HARImportError) -> Result {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxFileBytes else {
            throw HARImportError(entry: nil, reason: "the file is \(size / (1024 * 1024)) MiB; at most \(maxFileBytes / (1024 * 1024)) MiB are read")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HARImportError(entry: nil, reason: "cannot read the file: \((error as NSError).localizedDescription)")
        }
        return try exchanges(fromHAR: data, options: options)
    }

    /// Parses HAR bytes.
    public static func exchanges(fromHAR data: Data, options: Options = Options()) throws(HARImportError) -> Result {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw HARImportError(entry: nil, reason: "not JSON: \(error.description)")
        }
        guard let entries = document["log"]?["entries"]?.arrayValue else {
            throw HARImportError(entry: nil, reason: "not a HAR file: no log.entries array")
        }
        var kept: [(index: Int, started: Date?, exchange: CapturedExchange)] = []
        var skipped: [String: Int] = [:]
        var otherHosts: [String] = []
        for (index, entry) in entries.enumerated() {
            do {
                switch try exchange(entry, index: index, options: options) {
                case .kept(let exchange, let started): kept.append((index, started, exchange))
                case .skipped(let reason, let host):
                    skipped[reason, default: 0] += 1
                    if let host, !otherHosts.contains(host) { otherHosts.append(host) }
                }
            } catch {
                throw HARImportError(entry: index, reason: error.text)
            }
        }
        // Tools write entries in start order, but the spec does not promise it.
        if kept.allSatisfy({ $0.started != nil }) {
            kept.sort { ($0.started!, $0.index) < ($1.started!, $1.index) }
        }
        return Result(exchanges: kept.map(\.exchange), entryCount: entries.count, skipped: skipped, otherHosts: otherHosts)
    }

    private enum EntryOutcome {
        case kept(CapturedExchange, started: Date?)
        case skipped(String, host: String? = nil)
    }

    private static func exchange(_ entry: JSONValue, index: Int, options: Options) throws(HARImportError.Reason) -> EntryOutcome {
        guard case .object = entry else { throw .init("must be an object") }
        guard let request = entry["request"], case .object = request else { throw .init("has no request object") }
        guard let method = request["method"]?.stringValue else { throw .init("request.method is missing") }
        guard let rawURL = request["url"]?.stringValue else { throw .init("request.url is missing") }
        guard let url = SplitURL(rawURL) else { throw .init("request.url \"\(rawURL.prefix(80))\" is not an absolute URL") }
        guard let endpoint = APIEndpoint.allCases.first(where: { url.path.hasSuffix($0.path) || url.path.hasSuffix($0.path + "/") })
        else { return .skipped("other path") }
        if !options.hosts.isEmpty, !options.hosts.contains(where: { url.matchesHost($0) }) {
            return .skipped("other host", host: url.port.map { "\(url.host):\($0)" } ?? url.host)
        }
        guard method.uppercased() == "GET" else { return .skipped(String(method.uppercased().prefix(16))) }
        // The browser answered from its own cache: the server never saw the request.
        if let cache = entry["_fromCache"]?.stringValue, !cache.isEmpty { return .skipped("from the browser cache") }
        let query = try parameters(url: url, request: request)
        guard let response = entry["response"], case .object = response else { throw .init("has no response object") }
        guard let status = response["status"]?.intValue else { throw .init("response.status is missing or not an integer") }
        let latency = try milliseconds(entry, timing: options.timing)
        let started = entry["startedDateTime"]?.stringValue.flatMap(parseDate)
        let origin = "entry \(index)"
        if status == 0 {
            let error = (entry["response"]?["_error"]?.stringValue ?? entry["_error"]?.stringValue ?? "").uppercased()
            let outcome: CapturedExchange.Outcome = error.contains("EMPTY") ? .emptyReply : .reset
            return .kept(CapturedExchange(endpoint: endpoint, query: query, outcome: outcome, latencyMilliseconds: latency, origin: origin),
                         started: started)
        }
        guard (200...599).contains(status) else {
            throw .init("response.status \(status) cannot be replayed (scenarios answer 200–599, or 0 for no response)")
        }
        var headers: [(name: String, value: String)] = []
        for (headerIndex, header) in (response["headers"]?.arrayValue ?? []).enumerated() {
            guard let name = header["name"]?.stringValue, let value = header["value"]?.stringValue else {
                throw .init("response.headers[\(headerIndex)] needs a string name and value")
            }
            headers.append((name, value))
        }
        let body = try self.body(response["content"], headers: headers)
        let captured = CapturedResponse(status: status, headers: headers, body: body)
        return .kept(CapturedExchange(endpoint: endpoint, query: query, outcome: .response(captured), latencyMilliseconds: latency,
                                      origin: origin), started: started)
    }

    private static func parameters(url: SplitURL, request: JSONValue) throws(HARImportError.Reason) -> [(name: String, value: String)] {
        if let rawQuery = url.query, !rawQuery.isEmpty {
            do {
                return try QueryParameters(parsing: rawQuery).items
            } catch {
                throw .init("request.url has an undecodable query: \(error.description)")
            }
        }
        var items: [(name: String, value: String)] = []
        for (index, item) in (request["queryString"]?.arrayValue ?? []).enumerated() {
            guard let name = item["name"]?.stringValue, let value = item["value"]?.stringValue else {
                throw .init("request.queryString[\(index)] needs a string name and value")
            }
            items.append((name, value))
        }
        return items
    }

    private static func body(_ content: JSONValue?, headers: [(name: String, value: String)]) throws(HARImportError.Reason) -> Data {
        guard let content else { return Data() }
        guard case .object = content else { throw .init("response.content must be an object") }
        guard let text = content["text"]?.stringValue else {
            if let size = content["size"]?.intValue, size > 0 {
                throw .init("the HAR does not contain the response body (content.text missing, size \(size)); export it with content")
            }
            return Data()
        }
        var data: Data
        switch content["encoding"]?.stringValue?.lowercased() {
        case nil, "": data = Data(text.utf8)
        case "base64":
            guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw .init("response.content.text is not valid base64")
            }
            data = decoded
        case let other?:
            throw .init("response.content.encoding \"\(other.prefix(40))\" is not supported (base64 or none)")
        }
        let contentEncoding = headers.first { HTTPHeaders.sameName($0.name, "Content-Encoding") }?.value.lowercased() ?? ""
        if Inflate.isGzip(data) || (contentEncoding.contains("deflate") && Inflate.isZlib(data)) {
            data = try Inflate.inflate(data, limit: maxBodyBytes)
        } else if contentEncoding.contains("br"), String(data: data, encoding: .utf8) == nil {
            throw .init("the body is brotli-compressed (Content-Encoding: br), which cannot be decoded here; export decoded bodies")
        }
        return data
    }

    private static func milliseconds(_ entry: JSONValue, timing: Timing) throws(HARImportError.Reason) -> Double {
        let total = entry["time"]?.doubleValue
        let wait = entry["timings"]?["wait"]?.doubleValue
        let value = timing == .wait ? (wait.flatMap { $0 >= 0 ? $0 : nil } ?? total) : total
        guard let value, value.isFinite, value >= 0 else { return 0 }
        return value
    }

    private static func parseDate(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}

/// `scheme://[user@]host[:port]/path?query#fragment`, split without normalising anything.
struct SplitURL {
    let host: String
    let port: String?
    let path: String
    let query: String?

    init?(_ text: String) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var rawQuery: Substring?
        if let question = rest.firstIndex(of: "?") {
            rawQuery = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close]).lowercased()
            let after = authority[authority.index(after: close)...]
            port = after.hasPrefix(":") ? String(after.dropFirst()) : nil
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon]).lowercased()
            port = String(authority[authority.index(after: colon)...])
        } else {
            host = String(authority).lowercased()
            port = nil
        }
        let rawPath = rest[authorityEnd...]
        path = rawPath.isEmpty ? "/" : String(rawPath)
        query = rawQuery.map(String.init)
    }

    /// `maps.vietmap.vn` matches any port; `127.0.0.1:8080` only that one.
    func matchesHost(_ wanted: String) -> Bool {
        let wanted = wanted.lowercased()
        if wanted == host { return true }
        guard let port else { return false }
        return wanted == "\(host):\(port)"
    }
}
