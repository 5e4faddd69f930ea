import Foundation
import Zlib
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// Writes HAR 1.2 documents (http://www.softwareishard.com/blog/har-12-spec/) the way
/// browser developer tools and Proxyman export them.
struct HARWriter {
    enum BodyStorage {
        /// `content.text` holds the decoded text.
        case plain
        /// `content.text` holds the bytes in base64, `content.encoding` is `base64`.
        case base64
        /// The bytes gzip-compressed, then base64 (as some proxies store compressed answers).
        case gzipBase64
    }

    private(set) var entries: [JSONValue] = []
    private var clock = Date(timeIntervalSince1970: 1_764_583_200)

    /// Adds an entry. `status` 0 with `error` is a request that got no answer.
    mutating func add(method: String = "GET", url: String, status: Int, headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")],
                      body: Data = Data(), storage: BodyStorage = .plain, waitMs: Double = 0, error: String? = nil) {
        clock += 1
        let query: [JSONValue] = (URLComponents(string: url)?.queryItems ?? []).map {
            ["name": .string($0.name), "value": .string($0.value ?? "")]
        }
        var content = JSONObject([("size", .integer(body.count)), ("mimeType", .string(headers.first { $0.0.lowercased() == "content-type" }?.1 ?? ""))])
        switch storage {
        case .plain:
            content["text"] = .string(String(decoding: body, as: UTF8.self))
        case .base64:
            content["text"] = .string(body.base64EncodedString())
            content["encoding"] = "base64"
        case .gzipBase64:
            content["text"] = .string(gzip(body).base64EncodedString())
            content["encoding"] = "base64"
        }
        var response = JSONObject([
            ("status", .integer(status)), ("statusText", ""), ("httpVersion", "HTTP/1.1"), ("cookies", []),
            ("headers", .array(headers.map { ["name": .string($0.0), "value": .string($0.1)] })),
            ("content", .object(content)), ("redirectURL", ""), ("headersSize", -1), ("bodySize", .integer(body.count)),
        ])
        if let error { response["_error"] = .string(error) }
        let started = clock.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        entries.append(.object(JSONObject([
            ("startedDateTime", .string(started)),
            ("time", .number(waitMs + 3)),
            ("request", .object(JSONObject([
                ("method", .string(method)), ("url", .string(url)), ("httpVersion", "HTTP/1.1"), ("cookies", []),
                ("headers", [["name": "Accept", "value": "application/json"]]), ("queryString", .array(query)),
                ("headersSize", -1), ("bodySize", 0),
            ]))),
            ("response", .object(response)),
            ("cache", [:]),
            ("timings", ["blocked": -1, "dns": -1, "connect": -1, "send": 1, "wait": .number(waitMs), "receive": 2, "ssl": -1]),
        ])))
    }

    var document: JSONValue {
        ["log": ["version": "1.2", "creator": ["name": "HARWriter", "version": "1"], "pages": [], "entries": .array(entries)]]
    }

    func write(to url: URL) throws {
        try Data(JSONSerializer.bytes(document)).write(to: url)
    }
}

/// gzip (RFC 1952) compression at the best level, for compressed HAR bodies.
func gzip(_ data: Data) -> Data {
    Deflate.compressedData(data, format: .gzip, level: 9)
}

/// The simulated API over the shared test dataset.
enum TestSimulator {
    private static let serviceResult: Result<VietMapService, any Error> = Result {
        try VietMapService(databasePath: try TestDataset.path())
    }

    static func service() throws -> VietMapService {
        try serviceResult.get()
    }
}

extension XCTestCase {
    /// The built `vietmap-sim` next to the test bundle (skips when it has not been built).
    func binary() throws -> URL {
        guard let executable = CLIRunner.executable(besideBundleOf: Self.self) else {
            throw XCTSkip("the vietmap-sim executable has not been built")
        }
        return executable
    }

    /// Runs the CLI as a user would.
    func runCLI(_ arguments: [String], in directory: URL) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary(), arguments, in: directory)
    }

    /// A fresh folder removed when the test ends.
    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// The simulator, optionally behind a scenario engine, on an ephemeral loopback port until the test ends.
    func startServer(engine: ScenarioEngine? = nil) throws -> HTTPServer {
        let service = try TestSimulator.service()
        let responder: any HTTPResponder = engine.map { $0.wrap(service) } ?? service
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 4), responder: responder)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// One GET on a fresh connection.
    func get(_ server: HTTPServer, _ target: String) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: server.port)
        try client.get(target)
        return try client.readResponse()
    }
}
