import Capture
import Foundation
import HTTPServer
import Scenarios
import SimTesting
import VietMapAPI
import VietMapClient
import TestExpectations
import Testing

/// Upstream forwarding, recording and replay over real HTTP on loopback: an upstream simulator
/// (with a scenario fault active) behind a recording proxy, then a replay with the upstream gone.
@Suite final class CaptureTests: TeardownBlocks {
    static let upstreamKey = "UPSTREAM-KEY-5e1f"
    static let clientKey = "client-key-77aa"
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let service: Result<VietMapService, any Error> = Result { try VietMapService(databasePath: try TestDataset.path()) }

    struct Reply { let status: Int; let headers: [(name: String, value: String)]; let body: Data
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    func get(_ server: HTTPServer, _ target: String) throws -> Reply {
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 15)
        try client.get(target)
        let response = try client.readResponse()
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }

    func start(_ handler: @escaping @Sendable (HTTPRequest, ResponseHandle) -> Void) throws -> HTTPServer {
        try start(ClosureResponder(handler))
    }

    func start(_ responder: any HTTPResponder) throws -> HTTPServer {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4), responder: responder)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The simulator as an upstream that accepts only the upstream key, with `scenario` active.
    func startUpstream(scenario: String? = nil) throws -> HTTPServer {
        let search = try Self.service.get()
        let service = VietMapService(search: search.search, roadGraph: search.roadGraph, apiKeys: [Self.upstreamKey])
        let library = ScenarioLibrary.load(directory: Self.repositoryRoot.appendingPathComponent("Scenarios"))
        let engine = ScenarioEngine(library: library, configuration: .init(defaultScenario: scenario, apiKeys: [Self.upstreamKey]))
        if let scenario { try engine.activate(scenario) }
        return try start(engine.wrap(service))
    }

    func proxy(to upstream: URL, timeout: TimeInterval = 10, record: URL? = nil, fallback: Bool = false,
               maxBodyBytes: Int = UpstreamClient.defaultMaxBodyBytes) throws -> HTTPServer {
        let service = try Self.service.get()
        var recorder: ExchangeRecorder?
        if let record { recorder = try ExchangeRecorder(directory: record, notice: { _ in }) }
        let simulator: any HTTPResponder = service
        let proxy = UpstreamProxy(configuration: UpstreamProxy.Configuration(baseURL: upstream, upstreamKey: Self.upstreamKey, timeout: timeout,
                                                                               maxBodyBytes: maxBodyBytes),
                                  recorder: recorder, fallback: fallback ? simulator : nil)
        return try start(proxy)
    }

    static func url(_ server: HTTPServer) -> URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// A session: the same autocomplete four times (the upstream fails twice first), a route,
    /// an unknown place.
    static let session = [
        "/api/autocomplete/v4?apikey=\(clientKey)&text=ben%20thanh",
        "/api/autocomplete/v4?text=ben%20thanh&apikey=\(clientKey)",
        "/api/autocomplete/v4?apikey=\(clientKey)&text=ben%20thanh",
        "/api/autocomplete/v4?apikey=\(clientKey)&text=ben%20thanh",
        "/api/route/v4?apikey=\(clientKey)&point=10.7725,106.6980&point=10.7769,106.7009",
        "/api/place/v4?apikey=\(clientKey)&refid=auto:nope",
    ]

    @Test func testARecordedSessionReplaysIdenticallyWithTheUpstreamStopped() throws {
        let upstream = try startUpstream(scenario: "fail-twice-then-succeed")
        let directory = try temporaryDirectory()
        let recording = try proxy(to: Self.url(upstream), record: directory)
        let live = try Self.session.map { try get(recording, $0) }
        expectEqual(live.map(\.status), [500, 500, 200, 200, 200, 404], "the upstream's scenario shows through, the upstream key was sent")
        upstream.stop()
        recording.stop()

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        expectEqual(files.count, 6, "every exchange, identical requests included")
        expectTrue(files.first?.hasPrefix("000001-autocomplete-") ?? false, "\(files)")
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            expectFalse(text.contains(Self.upstreamKey), "\(file) holds the upstream key")
            expectFalse(text.contains(Self.clientKey), "\(file) holds the client key")
            expectTrue(text.contains("\"latencyMs\""), file)
            expectTrue(text.contains("\"recordedAt\""), file)
        }
        // The client library reads the same files.
        let recordings = try VMRecording.load(directory: directory)
        expectEqual(recordings.map(\.response.status), [500, 500, 200, 200, 200, 404])

        let replay = try start(ReplayResponder(directory: directory))
        let replayed = try Self.session.map { try get(replay, $0) }
        expectEqual(replayed.map(\.status), live.map(\.status))
        expectEqual(replayed.map(\.body), live.map(\.body), "byte-identical bodies in the recorded order")
        expectEqual(replayed.map { $0.header("Content-Type") }, live.map { $0.header("Content-Type") })
        expectEqual(replayed[2].header("X-VietMap-Sim-Replay"), "3/4")
        // After the last recorded answer, the last one again.
        expectEqual(try get(replay, Self.session[0]).status, 200)

        // A request never recorded: 404 in the endpoint's shape naming the nearest recording.
        let missing = try get(replay, "/api/route/v4?apikey=x&point=10.7725,106.6980&point=10.7800,106.7009")
        expectEqual(missing.status, 404)
        let body = String(decoding: missing.body, as: UTF8.self)
        expectTrue(body.contains("\"paths\":null") && body.contains("point=10.7769,106.7009") && body.contains("point=10.7800,106.7009"), body)
        // The key check applies in replay too.
        expectEqual(try get(replay, "/api/autocomplete/v4?apikey=&text=ben%20thanh").status, 401)

        // The same recordings as a scenario, for any client (`scenarios from-recording`).
        let output = try ReplayScenarioBuilder.build(recordings: recordings, name: "session", source: directory.path)
        let scenarios = try temporaryDirectory()
        try Data(output.text.utf8).write(to: scenarios.appendingPathComponent("session.json"))
        let library = ScenarioLibrary.load(directory: scenarios)
        expectEqual(library.issues.map(\.description), [])
        let service = try Self.service.get()
        let engine = ScenarioEngine(library: library)
        let scenarioServer = try start(engine.wrap(service))
        let viaScenario = try Self.session.map { try get(scenarioServer, $0.replacingOccurrences(of: Self.clientKey, with: "scenario:session")) }
        expectEqual(viaScenario.map(\.status), live.map(\.status))
        expectEqual(viaScenario.map(\.body), live.map(\.body))
    }

    @Test func testUnreachableUpstreamIs502OrTheSimulatorWithAHeader() throws {
        let gone = try startUpstream()
        let address = Self.url(gone)
        gone.stop()
        let plain = try proxy(to: address)
        let refused = try get(plain, Self.session[0])
        expectEqual(refused.status, 502)
        expectTrue(String(decoding: refused.body, as: UTF8.self).contains("upstream unreachable (connection refused)"))

        let withFallback = try proxy(to: address, fallback: true)
        let answered = try get(withFallback, Self.session[0])
        expectEqual(answered.status, 200)
        expectEqual(answered.header("X-VietMap-Sim-Fallback"), "simulator; upstream unreachable (connection refused)")
    }

    @Test func testSlowUpstreamTimesOut() throws {
        let slow = try start { _, handle in
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) { handle.send(.json(Data("[]".utf8))) }
        }
        let plain = try proxy(to: Self.url(slow), timeout: 1)
        let reply = try get(plain, Self.session[4])
        expectEqual(reply.status, 504)
        expectTrue(String(decoding: reply.body, as: UTF8.self).contains("\"messages\":\"upstream did not answer within 1 s\""))
        let withFallback = try proxy(to: Self.url(slow), timeout: 1, fallback: true)
        let answered = try get(withFallback, Self.session[4])
        expectEqual(answered.status, 200)
        expectEqual(answered.header("X-VietMap-Sim-Fallback"), "simulator; upstream did not answer within 1 s")
    }

    @Test func testUpstream5xxFallsBackWhenAsked() throws {
        let upstream = try startUpstream(scenario: "route-500")
        let withFallback = try proxy(to: Self.url(upstream), fallback: true)
        let answered = try get(withFallback, Self.session[4])
        expectEqual(answered.status, 200)
        expectEqual(answered.header("X-VietMap-Sim-Fallback"), "simulator; upstream answered 500")
        let plain = try proxy(to: Self.url(upstream))
        expectEqual(try get(plain, Self.session[4]).status, 500, "without a fallback a 5xx is passed on")
    }

    @Test func testTheClientKeyIsCheckedAndNeverForwarded() throws {
        // An upstream that echoes the query it received.
        let echo = try start { request, handle in handle.send(.json(Data("{\"query\":\"\(request.rawQuery)\"}".utf8))) }
        let plain = try proxy(to: Self.url(echo))
        let reply = try get(plain, "/api/autocomplete/v4?apikey=\(Self.clientKey)&text=a")
        let body = String(decoding: reply.body, as: UTF8.self)
        expectTrue(body.contains("apikey=\(Self.upstreamKey)") && !body.contains(Self.clientKey), body)
        expectEqual(try get(plain, "/api/autocomplete/v4?text=a").status, 401)
        expectEqual(try get(plain, "/elsewhere").status, 404)
    }

    @Test func testReplayTimingWaitsTheRecordedLatency() throws {
        let directory = try temporaryDirectory()
        let recording = VMRecording(request: VMRequest(.autocomplete, [VMParameter("text", "a")]),
                                    response: VMRawResponse(status: 200, headers: ["content-type": "application/json"], body: Data("[]".utf8)),
                                    recordedAt: Date(), latencyMilliseconds: 400)
        try recording.fixtureData().write(to: directory.appendingPathComponent("000001-x.json"))
        let timed = try start(ReplayResponder(directory: directory, timing: true))
        let started = Date()
        expectEqual(try get(timed, "/api/autocomplete/v4?apikey=k&text=a").status, 200)
        expectGreaterThanOrEqual(Date().timeIntervalSince(started), 0.4)
    }

    @Test func testHugeRecordedLatenciesAreClampedNotATrap() throws {
        let directory = try temporaryDirectory()
        for (index, latency) in [1e300, 0].enumerated() {
            let recording = VMRecording(request: VMRequest(.autocomplete, [VMParameter("text", "t\(index)")]),
                                        response: VMRawResponse(status: 200, headers: ["content-type": "application/json"], body: Data("[]".utf8)),
                                        recordedAt: Date(), latencyMilliseconds: latency)
            try recording.fixtureData().write(to: directory.appendingPathComponent("00000\(index)-x.json"))
        }
        let responder = try ReplayResponder(directory: directory, timing: true)
        expectEqual(responder.recordings.recordings.map(\.latencyMilliseconds), [ReplayResponder.maxLatencyMilliseconds, 0])
        let timed = try start(responder)
        expectEqual(try get(timed, "/api/autocomplete/v4?apikey=k&text=t1").status, 200, "no latency: answered at once")
        expectEqual(try get(timed, "/api/autocomplete/v4?text=t1").status, 401, "the shared key check")
        expectEqual(try get(timed, "/api/autocomplete/v4?apikey=&text=t1").status, 401)
        expectEqual(try get(timed, "/elsewhere?apikey=k").status, 404)

        // A scenario built from the recordings delays at most 600 s (the builder no longer traps).
        let output = try ReplayScenarioBuilder.build(recordings: try VMRecording.load(directory: directory), name: "huge", source: "test")
        expectTrue(output.text.contains("\"delay\": 600000"), output.text)
    }
}
