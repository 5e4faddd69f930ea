import VietMapWire
import Foundation
import Zlib
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
///   takes `time` (connection set-up included). A latency over the scenarios' longest delay
///   (10 minutes) is replayed as 10 minutes and listed in `Result.clampedLatencies`.
/// - **Budget** (`Options.budget`, ``HARBudget``): the entries and the decoded bodies of all kept
///   entries together are counted in a first pass that keeps no body; going over is an error
///   naming the entry where the budget ran out.
/// - **The file** must be a regular file (a FIFO or device is refused without reading it);
///   a UTF-8 byte order mark before the JSON is skipped.
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
        /// Entries and decoded body bytes allowed (`budget.maxOutputBytes` is the caller's).
        public var budget: HARBudget
        public init(hosts: [String] = [], timing: Timing = .wait, budget: HARBudget = .standard) {
            self.hosts = hosts
            self.timing = timing
            self.budget = budget
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
        /// Kept entries whose latency (ms, as recorded) is over `ReplayScenario.maxDelayMilliseconds`
        /// and is replayed as that, in entry order.
        public var clampedLatencies: [(entry: Int, milliseconds: Double)] = []
        /// The decoded bytes of all kept bodies.
        public var bodyBytes: Int = 0
    }

    /// The hosts `scenarios from-har` keeps without `--host`.
    public static let defaultHosts = ["maps.vietmap.vn"]

    /// The largest HAR file read (512 MiB) and the largest inflated body (64 MiB).
    public static let maxFileBytes = 512 * 1024 * 1024
    public static let maxBodyBytes = 64 * 1024 * 1024

    /// Reads a HAR file (a regular file; a FIFO or device is refused without blocking on it).
    public static func read(contentsOf url: URL, options: Options = Options()) throws(HARImportError) -> Result {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw HARImportError(entry: nil, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw HARImportError(entry: nil, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw HARImportError(entry: nil, reason: "not a regular file (\(fileKind(status.st_mode))); give a .har file")
        }
        let size = Int(status.st_size)
        guard size <= maxFileBytes else {
            throw HARImportError(entry: nil, reason: "the file is \(size / (1024 * 1024)) MiB; at most \(maxFileBytes / (1024 * 1024)) MiB are read")
        }
        let data: Data
        do {
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw HARImportError(entry: nil, reason: "cannot read the file: \((error as NSError).localizedDescription)")
        }
        return try exchanges(fromHAR: data, options: options)
    }

    /// `a directory`, `a named pipe (FIFO)`…, for a file mode that is not a regular file.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    /// Parses HAR bytes.
    public static func exchanges(fromHAR data: Data, options: Options = Options()) throws(HARImportError) -> Result {
        var data = data
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        guard data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw HARImportError(entry: nil, reason: data.isEmpty ? "empty file (a HAR is a JSON document)" : "only whitespace (a HAR is a JSON document)")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            let head = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if head == UInt8(ascii: "<") {
                throw HARImportError(entry: nil, reason: "not JSON: the file starts with '<' (XML or HTML?); a HAR is a JSON document")
            }
            let line = 1 + data.prefix(error.offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw HARImportError(entry: nil, reason: "not JSON at line \(line) (byte \(error.offset)): \(error.reason)")
        }
        guard let entries = document["log"]?["entries"]?.arrayValue else {
            throw HARImportError(entry: nil, reason: "not a HAR file: no log.entries array")
        }
        let budget = options.budget
        guard entries.count <= budget.maxEntries else {
            throw HARImportError(entry: budget.maxEntries,
                                 reason: "the file has \(entries.count) entries, more than the \(budget.maxEntries) allowed (--max-entries)")
        }
        // Pass 1: validate every entry and count its decoded body without keeping it, so a
        // file over the budget is refused holding no body at all.
        var bodyBytes = 0
        for (index, entry) in entries.enumerated() {
            let remaining = budget.maxInflatedBytes - bodyBytes
            do {
                if case .kept(_, _, let bytes) = try exchange(entry, index: index, options: options, bodyLimit: remaining, keepBody: false) {
                    bodyBytes += bytes
                }
            } catch {
                throw HARImportError(entry: index, reason: error.text)
            }
        }
        // Pass 2: the same entries, bodies kept (each within the limits pass 1 checked).
        var kept: [(index: Int, started: Date?, exchange: CapturedExchange)] = []
        var skipped: [String: Int] = [:]
        var otherHosts: [String] = []
        var clamped: [(entry: Int, milliseconds: Double)] = []
        for (index, entry) in entries.enumerated() {
            do {
                switch try exchange(entry, index: index, options: options, bodyLimit: budget.maxInflatedBytes, keepBody: true) {
                case .kept(let exchange, let started, _):
                    kept.append((index, started, exchange))
                    if exchange.latencyMilliseconds > Double(ReplayScenario.maxDelayMilliseconds) {
                        clamped.append((index, exchange.latencyMilliseconds))
                    }
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
        return Result(exchanges: kept.map(\.exchange), entryCount: entries.count, skipped: skipped, otherHosts: otherHosts,
                      clampedLatencies: clamped, bodyBytes: bodyBytes)
    }

    private enum EntryOutcome {
        /// `bodyBytes`: the decoded body's length (also when `keepBody` was false and the body left out).
        case kept(CapturedExchange, started: Date?, bodyBytes: Int)
        case skipped(String, host: String? = nil)
    }

    /// One entry, its body decoded within `bodyLimit` bytes (the budget left) and kept only when `keepBody`.
    private static func exchange(_ entry: JSONValue, index: Int, options: Options, bodyLimit: Int,
                                 keepBody: Bool) throws(HARImportError.Reason) -> EntryOutcome {
        guard case .object = entry else { throw .init("must be an object") }
        guard let request = entry["request"], case .object = request else { throw .init("has no request object") }
        guard let method = request["method"]?.stringValue else { throw .init("request.method is missing") }
        guard let rawURL = request["url"]?.stringValue else { throw .init("request.url is missing") }
        guard let url = SplitURL(rawURL) else { throw .init("request.url \"\(rawURL.prefix(80))\" is not an absolute URL") }
        // The wire home decides (Directions v5 included); a path under a prefix (`/proxy/api/…`)
        // is read from its `/api/` on.
        guard let endpoint = APIEndpoint(path: url.path)
            ?? url.path.range(of: "/api/").flatMap({ APIEndpoint(path: String(url.path[$0.lowerBound...])) })
        else { return .skipped("other path") }
        if !options.hosts.isEmpty, !options.hosts.contains(where: { url.matchesHost($0) }) {
            return .skipped("other host", host: url.port.map { "\(url.host):\($0)" } ?? url.host)
        }
        guard method.uppercased() == "GET" else { return .skipped(String(method.uppercased().prefix(16))) }
        // The browser answered from its own cache: the server never saw the request.
        if let cache = entry["_fromCache"]?.stringValue, !cache.isEmpty { return .skipped("from the browser cache") }
        var query = try parameters(url: url, request: request)
        if endpoint == .directionsV5 {
            // The route is in the path: matched as `profile` and `coordinates` (ScenarioEngine).
            let apiPath = url.path.range(of: APIEndpoint.directionsV5.path).map { String(url.path[$0.lowerBound...]) } ?? url.path
            guard let path = DirectionsPath(path: apiPath.removingPercentEncoding ?? apiPath) else { return .skipped("other path") }
            query += [(DirectionsPath.profileParameter, path.profile), (DirectionsPath.coordinatesParameter, path.coordinates)]
        } else if endpoint.family == .map, let map = MapPath(path: url.path.removingPercentEncoding ?? url.path),
                  case .success(let request) = map.request {
            // A map resource's values are its path's: matched as `z`, `x`, `y`, `look`… (ScenarioEngine).
            query += request.pathParameters
        }
        guard let response = entry["response"], case .object = response else { throw .init("has no response object") }
        guard let status = response["status"]?.intValue else { throw .init("response.status is missing or not an integer") }
        let latency = try milliseconds(entry, timing: options.timing)
        let started = entry["startedDateTime"]?.stringValue.flatMap(parseDate)
        let origin = "entry \(index)"
        if status == 0 {
            let error = (entry["response"]?["_error"]?.stringValue ?? entry["_error"]?.stringValue ?? "").uppercased()
            let outcome: CapturedExchange.Outcome = error.contains("EMPTY") ? .emptyReply : .reset
            return .kept(CapturedExchange(endpoint: endpoint, query: query, outcome: outcome, latencyMilliseconds: latency, origin: origin),
                         started: started, bodyBytes: 0)
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
        let (body, bodyBytes) = try self.body(response["content"], headers: headers, limit: bodyLimit,
                                                budget: options.budget.maxInflatedBytes, keep: keepBody)
        let captured = CapturedResponse(status: status, headers: headers, body: body)
        return .kept(CapturedExchange(endpoint: endpoint, query: query, outcome: .response(captured), latencyMilliseconds: latency,
                                      origin: origin), started: started, bodyBytes: bodyBytes)
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

    /// The decoded body and its length; with `keep` false the body is only measured (an
    /// empty `Data` comes back). `limit`: the budget left for all bodies together.
    private static func body(_ content: JSONValue?, headers: [(name: String, value: String)], limit: Int, budget: Int,
                             keep: Bool) throws(HARImportError.Reason) -> (Data, Int) {
        guard let content else { return (Data(), 0) }
        guard case .object = content else { throw .init("response.content must be an object") }
        guard let text = content["text"]?.stringValue else {
            if let size = content["size"]?.intValue, size > 0 {
                throw .init("the HAR does not contain the response body (content.text missing, size \(size)); export it with content")
            }
            return (Data(), 0)
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
        let overBudget = HARImportError.Reason(
            "the response bodies together decode to more than the budget of \(HARBudget.describe(bytes: budget)) here (\(HARBudget.describe(bytes: max(0, budget - limit))) before this entry; --max-inflated raises it)")
        let contentEncoding = headers.first { HTTPHeaders.sameName($0.name, "Content-Encoding") }?.value.lowercased() ?? ""
        if ZlibFormat.isGzip(data) || (contentEncoding.contains("deflate") && ZlibFormat.isZlib(data)) {
            let bodyLimit = min(maxBodyBytes, limit)
            do throws(InflateError) {
                if keep {
                    data = try Inflate.decompress(data, limit: bodyLimit)
                } else {
                    return (Data(), try Inflate.inflatedSize(data, limit: bodyLimit))
                }
            } catch {
                switch error {
                case .tooLarge:
                    throw bodyLimit < maxBodyBytes ? overBudget : .init("the compressed body inflates to more than \(maxBodyBytes / (1024 * 1024)) MiB")
                case .truncated: throw .init("the compressed body is truncated")
                case .corrupt(let reason): throw .init("the compressed body is corrupt (zlib: \(reason))")
                }
            }
        } else if contentEncoding.contains("br"), String(data: data, encoding: .utf8) == nil {
            throw .init("the body is brotli-compressed (Content-Encoding: br), which cannot be decoded here; export decoded bodies")
        }
        guard data.count <= limit else { throw overBudget }
        return (keep ? data : Data(), data.count)
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
