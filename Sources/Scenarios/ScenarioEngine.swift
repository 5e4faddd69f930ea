import VietMapWireHTTP
import VietMapWire
import Foundation
import HTTPServer
import JSON

/// Fault injection in front of any request handler: picks the scenario of each request (by
/// path prefix, header, API key or server default — after the key check, see
/// `ScenarioSelection`), lets its first matching rule shape the answer, records every request
/// in a journal, and serves the admin API under `/__sim/` behind `AdminGuard`.
///
/// Decisions are taken atomically when a request arrives; delays and dribbled bodies are
/// timers, so they hold no server thread. The engine reads time and schedules delayed answers
/// only through `Configuration.clock` (dribbled bodies are paced by `HTTPServer`).
///
///     let engine = ScenarioEngine(configuration: .init(directory: URL(fileURLWithPath: "Scenarios")))
///     let server = HTTPServer(configuration: config, responder: engine.wrap(service))
///
/// `@unchecked Sendable`: mutable state lives in `Locked` boxes, the registry and the journal.
public final class ScenarioEngine: @unchecked Sendable {
    /// The header a front-end (capture's `--fallback`) sets when the simulator answered in place of
    /// the upstream: the journal notes its value.
    public static let fallbackHeader = "X-VietMap-Sim-Fallback"

    /// Settings of an engine.
    public struct Configuration: Sendable {
        /// The scenarios folder (loaded at start, by `reload()` and by the watcher); its
        /// scenarios override built-in ones of the same name.
        public var directory: URL?
        /// Scenario files always loaded, below the folder's (e.g. `BuiltInScenarios.files`).
        public var builtInFiles: [URL] = []
        /// The server-wide default scenario.
        public var defaultScenario: String?
        /// Overrides every file's `seed`.
        public var seed: UInt64?
        /// Serve the admin API under `/__sim/`.
        public var adminEnabled: Bool
        /// The keys the inner handler accepts (`serve --api-key`); empty means any non-empty key.
        /// With keys, a scenario applies only to requests that carry one of them, and the inner
        /// handler sees that key instead of a `scenario:` key (see `ScenarioSelection`).
        public var apiKeys: Set<String>
        public var journalCapacity: Int
        /// Most bytes of response bodies the journal keeps in all (`RequestJournal.bodyBudget`).
        public var journalBodyBudget: Int
        /// The most per-client scenario states kept (least recently used dropped first).
        public var maxStates: Int
        /// When set, every admin request needs `Authorization: Bearer <token>`. Without one, an
        /// engine whose `adminHosts` name a non-loopback address makes one up (`adminToken` of
        /// the engine): the admin API is never open to the network without a token.
        public var adminToken: String?
        /// `Host` names the admin API accepts besides loopback ones (the `--host` address the
        /// server listens on).
        public var adminHosts: [String]
        /// Plain API keys bound to a scenario at start (`serve --scenario-key KEY=NAME[@TAG]`), for
        /// apps whose key is baked in: a request with KEY gets NAME (the key itself still passes
        /// the key check as usual).
        public var boundKeys: [String: String] = [:]
        /// The largest answer (bytes) a rule's mutation may produce; a patch that would pass it
        /// is stopped and answered with a 500 naming the rule (`ScenarioLimits.answerBytes` by default).
        public var answerSizeLimit: Int = ScenarioLimits.answerBytes
        /// Arrival times, latencies, quota and burst windows, and delayed answers
        /// (`ManualScenarioClock` in tests).
        public var clock: any ScenarioClock

        public init(directory: URL? = nil, defaultScenario: String? = nil, seed: UInt64? = nil, adminEnabled: Bool = false,
                    apiKeys: Set<String> = [], journalCapacity: Int = 10_000, journalBodyBudget: Int = 16 * 1024 * 1024,
                    maxStates: Int = 10_000, adminToken: String? = nil, adminHosts: [String] = [],
                    clock: any ScenarioClock = SystemScenarioClock()) {
            self.directory = directory
            self.defaultScenario = defaultScenario
            self.seed = seed
            self.adminEnabled = adminEnabled
            self.apiKeys = apiKeys
            self.journalCapacity = journalCapacity
            self.journalBodyBudget = journalBodyBudget
            self.maxStates = maxStates
            self.adminToken = adminToken
            self.adminHosts = adminHosts
            self.clock = clock
        }
    }

    public let configuration: Configuration
    /// The token every admin request needs (`Authorization: Bearer …`): the configuration's, or
    /// one made up when the admin API is on, `adminHosts` name a non-loopback address and none was
    /// given (`adminTokenGenerated`); nil: no token.
    public let adminToken: String?
    /// `adminToken` was made up by the engine (the server prints it at start).
    public let adminTokenGenerated: Bool
    /// Every request the engine handled (admin requests excepted).
    public let journal: RequestJournal
    private let snapshot: Locked<ScenarioLibrary>
    /// The library as loaded from files (built-in and folder), before the runtime scenarios.
    private let files: Locked<ScenarioLibrary>
    private let runtime = Locked(RuntimeScenarios())
    private let active: Locked<String?>
    private let states: StateRegistry
    private let reloading = NSLock()
    private let watcher = Locked<DirectoryWatcher?>(nil)
    private let clock: any ScenarioClock
    /// Answers reused for clients that accept them (`untouchedHeader`).
    private let answers: InnerAnswerMemo
    /// `clock.now` when the engine was made: the origin of the journal's `arrivalMilliseconds`.
    private let started: UInt64

    /// An engine over a given library (for tests and embedding).
    public init(library: ScenarioLibrary, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let exposed = configuration.adminEnabled && configuration.adminHosts.contains { !AdminGuard.isLoopback($0) }
        adminTokenGenerated = configuration.adminToken == nil && exposed
        adminToken = configuration.adminToken ?? (exposed ? AdminGuard.makeToken() : nil)
        self.clock = configuration.clock
        self.answers = InnerAnswerMemo(keys: APIKeyPolicy(keys: configuration.apiKeys))
        self.started = configuration.clock.now
        self.journal = RequestJournal(capacity: configuration.journalCapacity, bodyBudget: configuration.journalBodyBudget)
        self.snapshot = Locked(library)
        self.files = Locked(library)
        self.active = Locked(configuration.defaultScenario)
        self.states = StateRegistry(capacity: configuration.maxStates)
    }

    /// An engine over the scenarios of `configuration.directory` (none without a directory).
    /// Problems are in `library.issues`; files that fail to load are left out.
    public convenience init(configuration: Configuration) {
        let library = ScenarioLibrary.load(builtIn: configuration.builtInFiles, directory: configuration.directory)
        self.init(library: library, configuration: configuration)
    }

    deinit {
        watcher.withLock { $0?.stop() }
    }

    // MARK: Wrapping

    /// Middleware: the scenarios applied in front of `inner`, and (with `adminEnabled`) `/__sim/…`
    /// answered by one table — the admin API's routes and `adminRoutes` (the dashboard's) behind
    /// `AdminGuard` —, never journaled.
    public func wrap(_ inner: any HTTPResponder, adminRoutes: [HTTPRoute] = []) -> any HTTPResponder {
        guard configuration.adminEnabled else {
            return ClosureResponder { [self] request, reply in handle(request, inner: inner, reply: reply) }
        }
        let admin = AdminAPI.table(engine: self, extraRoutes: adminRoutes)
        return ClosureResponder { [self] request, reply in
            if AdminAPI.handles(request.path) {
                admin.respond(to: request, reply: reply)
            } else {
                handle(request, inner: inner, reply: reply)
            }
        }
    }

    // MARK: Library and default scenario

    /// The current snapshot of scenarios.
    public var library: ScenarioLibrary {
        snapshot.current
    }

    /// The server-wide default scenario, if one is active.
    public var activeScenario: String? {
        active.current
    }

    /// Makes `name` the server-wide default scenario.
    /// - Throws: `ScenarioEngineError.unknownScenario` when no such scenario is loaded.
    public func activate(_ name: String) throws(ScenarioEngineError) {
        guard library.scenario(named: name) != nil else { throw .unknownScenario(name) }
        active.withLock { $0 = name }
    }

    /// Removes the server-wide default scenario.
    public func deactivate() {
        active.withLock { $0 = nil }
    }

    /// Reloads the scenarios folder and swaps the snapshot atomically; requests in flight
    /// finish with the definitions they started with. A file that no longer loads keeps
    /// its last valid version. Per-client states of changed scenarios start afresh.
    /// - Returns: the problems found (empty when everything loaded).
    @discardableResult
    public func reload() -> [ScenarioIssue] {
        guard let directory = configuration.directory else { return [] }
        return reloading.withLock {
            let next = ScenarioLibrary.load(builtIn: configuration.builtInFiles, directory: directory, previous: files.current)
            files.withLock { $0 = next }
            publish()
            return next.issues
        }
    }

    /// The files' library with the runtime scenarios over it becomes the snapshot (under `reloading`).
    private func publish() {
        let merged = runtime.current.overlaid(on: files.current)
        snapshot.withLock { $0 = merged }
    }

    // MARK: Runtime scenarios (admin API)

    /// Adds or replaces a runtime scenario from its JSON document, validated like a file.
    /// - Returns: whether it was new (false: it replaced a runtime scenario of that name).
    /// - Throws: the document's problems (`ScenarioIssue`s with JSON pointers), none loaded.
    public func putRuntimeScenario(_ document: Data) throws(RuntimeScenarioError) -> (name: String, created: Bool) {
        let (decoded, issues) = ScenarioDecoder.decode(document, file: RuntimeScenarios.origin)
        guard let scenario = decoded else { throw .invalid(issues) }
        return reloading.withLock {
            let created = runtime.withLock { $0.put(scenario) }
            publish()
            return (scenario.name, created)
        }
    }

    /// Removes a runtime scenario (a scenario from a file is edited in its file).
    public func removeRuntimeScenario(_ name: String) throws(RuntimeScenarioError) {
        let removed = reloading.withLock { () -> Bool in
            guard runtime.withLock({ $0.remove(name) }) != nil else { return false }
            publish()
            return true
        }
        guard removed else { throw library.scenario(named: name) == nil ? .unknown(name) : .fromFile(name) }
        if activeScenario == name, library.scenario(named: name) == nil { deactivate() }
    }

    /// Whether `name` is a runtime scenario.
    public func isRuntimeScenario(_ name: String) -> Bool {
        runtime.current.byName[name] != nil
    }

    /// Writes a runtime scenario to `NAME.json` in the scenarios folder (whole or not at all:
    /// a temporary file renamed), so the next start loads it from the file.
    /// - Returns: the file written.
    public func saveRuntimeScenario(_ name: String) throws(RuntimeScenarioError) -> URL {
        guard let scenario = runtime.current.byName[name] else {
            throw library.scenario(named: name) == nil ? .unknown(name) : .fromFile(name)
        }
        guard let directory = configuration.directory else { throw .noFolder }
        guard name.range(of: #"^[A-Za-z0-9._-]{1,100}$"#, options: .regularExpression) != nil, !name.hasPrefix(".") else {
            throw .unsafeFileName(name)
        }
        let file = directory.appendingPathComponent(name + ".json")
        let temporary = directory.appendingPathComponent(".\(name).json.\(getpid()).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((JSONPrettyPrinter.string(scenario.source) + "\n").utf8).write(to: temporary)
            if FileManager.default.fileExists(atPath: file.path) {
                _ = try FileManager.default.replaceItemAt(file, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: file)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotWrite(file.path, "\(error.localizedDescription)")
        }
        return file
    }

    /// Reloads when the folder's scenario files change, polling every `interval` seconds (a real
    /// timer, not `configuration.clock`: it watches files, it is not scenario time).
    public func startWatching(interval: TimeInterval = 1) {
        guard let directory = configuration.directory else { return }
        let newWatcher = DirectoryWatcher(directory: directory, interval: interval) { [weak self] in
            _ = self?.reload()
        }
        watcher.withLock {
            $0?.stop()
            $0 = newWatcher
        }
    }

    public func stopWatching() {
        watcher.withLock {
            $0?.stop()
            $0 = nil
        }
    }

    /// Forgets per-client state (counters, named states, quotas, random sequences): all of
    /// it, or that of one scenario and/or one API key. Returns how many states were dropped.
    @discardableResult
    public func resetState(scenario: String? = nil, apiKey: String? = nil) -> Int {
        states.reset(scenario: scenario, apiKey: apiKey)
    }

    /// One page of per-client states (creation order), for the admin API.
    func statePage(after: Int?, offset: Int, limit: Int) -> StateRegistry.Page {
        states.page(after: after, offset: offset, limit: limit)
    }

    /// How many per-client states are kept, the most kept, and how many were dropped to stay
    /// within that bound since the start.
    public var stateCounts: (kept: Int, capacity: Int, evicted: Int) {
        (states.count, states.capacity, states.evicted)
    }

    /// Milliseconds from the engine's start to `nanoseconds` (a `clock.now`): the journal's time.
    func uptimeMilliseconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds &- started) / 1e6
    }

    // MARK: Cost

    /// Regex work (Pike VM steps) above which a request counts as heavy for cost-aware serving
    /// (`heavyMatchingReason`): ≈ 1/20 of `ScenarioLimits.regexStepsPerRequest`.
    public static let heavyRegexSteps = ScenarioLimits.regexStepsPerRequest / 20

    /// Why matching `request` against its scenario may be heavy work — its candidate rules'
    /// `regex` conditions could cost more than `heavyRegexSteps` on its values — or nil. Linear in
    /// the request and the candidate rules; runs no pattern.
    /// The parameters a rule's `params` (and `exact`) see: the query, and for Directions v5 the two
    /// values its path carries, as `profile` (`mapbox/driving-traffic`) and `coordinates`
    /// (`106.69,10.77;106.70,10.78`) — so a rule, and a replay of a captured call, can tell routes apart;
    /// for a map resource the values its path carries (`MapRequest.pathParameters`: `z`, `x`, `y`,
    /// `dataset`, `look`, `scale`, `fontstack`, `range`, `format`, `style`).
    static func matchedParameters(_ request: HTTPRequest, endpoint: APIEndpoint?) -> QueryParameters {
        if endpoint?.family == .map {
            let path = innerPath(request.path)
            guard let map = MapPath(path: path), case .success(let mapRequest) = map.request else { return request.query }
            return QueryParameters(request.query.items + mapRequest.pathParameters)
        }
        guard endpoint == .directionsV5, let path = DirectionsPath(path: request.path) else { return request.query }
        return QueryParameters(request.query.items + [(DirectionsPath.profileParameter, path.profile),
                                                      (DirectionsPath.coordinatesParameter, path.coordinates)])
    }

    public func heavyMatchingReason(for request: HTTPRequest) -> String? {
        let library = self.library
        guard library.hasRegexConditions, case .selected(let selection, let forwarded) = ScenarioSelection.select(
            request, library: library, defaultName: activeScenario, apiKeys: configuration.apiKeys,
            boundKeys: configuration.boundKeys), let scenario = library.scenario(named: selection.name) else { return nil }
        let endpoint = forwarded.reading?.endpoint
        let steps = min(scenario.regexSteps(endpoint: endpoint, query: Self.matchedParameters(request, endpoint: endpoint)),
                        ScenarioLimits.regexStepsPerRequest)
        return steps > Self.heavyRegexSteps ? "scenario '\(selection.name.prefix(60))' may test regexes for \(steps) steps" : nil
    }

    /// The path the inner handler will see: `path` without a `/__scenario/NAME/` selector.
    public static func innerPath(_ path: String) -> String {
        guard path.hasPrefix(ScenarioSelection.pathPrefix) else { return path }
        let rest = path.utf8.dropFirst(ScenarioSelection.pathPrefix.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return "/" }
        return String(path[slash...])
    }

    // MARK: Request path

    private func handle(_ request: HTTPRequest, inner: any HTTPResponder, reply: ResponseHandle) {
        let arrival = clock.now
        let library = self.library
        let outcome = ScenarioSelection.select(request, library: library, defaultName: activeScenario,
                                               apiKeys: configuration.apiKeys, boundKeys: configuration.boundKeys)
        switch outcome {
        case .none(let forwarded),
             // CORS preflights carry no custom headers and get the normal answer.
             .refused(_, let forwarded) where request.method == "OPTIONS":
            let endpoint = forwarded.reading?.endpoint
            let sequence = record(request, endpoint: endpoint, arrival: arrival, selection: nil, decision: nil)
            let plain = Self.asksToSkipUntouched(request) ? answers.reusing(inner) : inner
            plain.respond(to: forwarded) { [self] response in finish(response, delay: 0, sequence: sequence, arrival: arrival, note: nil, reply: reply) }

        case .refused(let refusal, let forwarded):
            let endpoint = forwarded.reading?.endpoint
            let response = APIResponses.error(APIError(refusal.error, message: refusal.message), for: endpoint)
            let sequence = record(request, endpoint: endpoint, arrival: arrival, selection: nil, decision: nil)
            finish(response, delay: 0, sequence: sequence, arrival: arrival, note: refusal.message, reply: reply)

        case .selected(let selection, let forwarded):
            let endpoint = forwarded.reading?.endpoint
            guard let scenario = library.scenario(named: selection.name), request.method != "OPTIONS" else {
                // CORS preflights are not part of the app's traffic a scenario describes.
                let sequence = record(request, endpoint: endpoint, arrival: arrival, selection: selection, decision: nil)
                inner.respond(to: forwarded) { [self] response in finish(response, delay: 0, sequence: sequence, arrival: arrival, note: nil, reply: reply) }
                return
            }
            let seed = configuration.seed ?? scenario.seed ?? 0
            let state = states.state(for: scenario, clientKey: selection.clientKey, apiKey: selection.stateKey, seed: seed)
            let now = Self.pace(of: request).map { state.pacedNow(stepMilliseconds: $0) } ?? arrival
            let decision = state.decide(endpoint: endpoint, query: Self.matchedParameters(request, endpoint: endpoint),
                                        apiKey: selection.stateKey, now: now)
            let sequence = record(request, endpoint: endpoint, arrival: arrival, selection: selection, decision: decision)
            let virtualDelay = Self.asksForVirtualDelay(request)
            if virtualDelay, Self.asksToSkipUntouched(request), decision.quotaRetryAfter == nil, decision.action.leavesAnswerAlone {
                var response = HTTPResponse(status: 204)
                response.headers.set(Self.untouchedHeader, "1")
                response.headers.set(Self.virtualDelayHeader, String(decision.delayMilliseconds))
                finish(response, delay: 0, sequence: sequence, arrival: arrival, note: "untouched: the answer is the normal one, not computed",
                       reply: reply)
                return
            }
            let shaped = virtualDelay && Self.asksToSkipUntouched(request) ? answers.reusing(inner) : inner
            ResponseShaper.shape(decision, request: forwarded, endpoint: endpoint, inner: shaped,
                                 answerSizeLimit: configuration.answerSizeLimit) { [self] response, note in
                let remark = [decision.note, note].compactMap { $0 }.joined(separator: "; ")
                guard virtualDelay else {
                    finish(response, delay: decision.delayMilliseconds, sequence: sequence, arrival: arrival, note: remark.nilIfEmpty, reply: reply)
                    return
                }
                var response = response
                response.headers.set(Self.virtualDelayHeader, String(decision.delayMilliseconds))
                finish(response, delay: 0, sequence: sequence, arrival: arrival, note: remark.nilIfEmpty, reply: reply)
            }
        }
    }

    /// Sends `response` after `delay` ms on the clock (a timer: no thread waits) and completes its
    /// journal entry first, so a client that got the answer finds it journaled.
    private func finish(_ response: HTTPResponse, delay: Int, sequence: Int, arrival: UInt64, note: String?,
                        reply: ResponseHandle) {
        if delay > 0 {
            clock.schedule(afterMilliseconds: delay) { [self] in
                send(response, sequence: sequence, arrival: arrival, note: note, reply: reply)
            }
        } else {
            send(response, sequence: sequence, arrival: arrival, note: note, reply: reply)
        }
    }

    /// Completes the journal entry of `response`, then sends it.
    private func send(_ response: HTTPResponse, sequence: Int, arrival: UInt64, note: String?,
                      reply: ResponseHandle) {
        let status: Int
        switch response.transport {
        case .closeWithoutResponse, .reset: status = 0
        default: status = response.status
        }
        let latency = Double(clock.now &- arrival) / 1e6
        // An inner handler that answered from its fallback says so in this header (Capture).
        var remark = note
        if let fallback = response.headers[Self.fallbackHeader] {
            remark = [note, "fallback: " + fallback].compactMap { $0 }.joined(separator: "; ")
        }
        journal.complete(sequence: sequence, status: status, latencyMilliseconds: latency,
                         note: remark?.nilIfEmpty, body: response.body, contentType: response.headers["Content-Type"],
                         headers: response.headers.fields, transport: response.transport)
        reply.send(response)
    }

    /// `X-VietMap-Sim-Pace: MS` — the client asks for paced scenario time: each of its requests is
    /// MS milliseconds after the previous one as far as bursts and quotas are concerned (1…60000;
    /// anything else is ignored). The contract runner sends it, so its runs are reproducible.
    static let paceHeader = "X-VietMap-Sim-Pace"

    static func pace(of request: HTTPRequest) -> Int? {
        guard let text = request.headers[paceHeader], let value = Int(text.trimmingCharacters(in: .whitespaces)),
              (1...60_000).contains(value) else { return nil }
        return value
    }

    /// `X-VietMap-Sim-Virtual-Delay: 1` — the client asks for scenario delays in scenario time
    /// only: a delayed answer is sent at once, carrying the delay it would have waited in the same
    /// header of the response (`X-VietMap-Sim-Virtual-Delay: MS`, `0` without a delay); the client
    /// judges it against its own timeout. The contract runner sends it with `X-VietMap-Sim-Pace`,
    /// so a scenario run takes no real waiting. Dribbled bodies and transport faults are unchanged.
    static let virtualDelayHeader = "X-VietMap-Sim-Virtual-Delay"

    static func asksForVirtualDelay(_ request: HTTPRequest) -> Bool {
        request.headers[virtualDelayHeader]?.trimmingCharacters(in: .whitespaces) == "1"
    }

    /// `X-VietMap-Sim-Untouched: 1` (with `X-VietMap-Sim-Virtual-Delay: 1`) — when the scenario
    /// leaves a request's answer as it is (no rule applies, or one that only delays it or counts
    /// it for a quota within its limit), the engine takes its decision as always (counters,
    /// seeded draws, state) but does not compute the answer: it sends `204` with this header
    /// (and the virtual delay), and the client uses the same request's answer without scenario.
    /// Such a client also accepts reused answers: an answer its scenario edits is the edit of
    /// the same request's answer computed earlier (`InnerAnswerMemo`); without a scenario, the
    /// header alone asks for reuse. The contract runner sends
    /// it so the corpus' heavy queries (routes) are computed once, not once per scenario.
    static let untouchedHeader = "X-VietMap-Sim-Untouched"

    static func asksToSkipUntouched(_ request: HTTPRequest) -> Bool {
        request.headers[untouchedHeader]?.trimmingCharacters(in: .whitespaces) == "1"
    }

    /// Longest path or parameter value the journal keeps (characters).
    static let journalValueLimit = 256
    /// Most bytes of parameter names and values one journal entry keeps.
    static let journalQueryLimit = 2_048

    /// `text` cut to `journalValueLimit` characters; the same string (no copy) when it is shorter.
    static func journalValue(_ text: String) -> String {
        text.utf8.count <= journalValueLimit ? text : String(text.prefix(journalValueLimit))
    }

    private func record(_ request: HTTPRequest, endpoint: APIEndpoint?, arrival: UInt64, selection: ScenarioSelection?,
                        decision: Decision?) -> Int {
        // Values are cut to `journalValueLimit` characters, and parameters are kept only while
        // their total stays within `journalQueryLimit`, so a client sending huge URLs cannot make
        // the journal hold gigabytes (10,000 entries × a few KB at most).
        var query: [JournalEntry.QueryItem] = []
        query.reserveCapacity(request.query.items.count)
        var kept = 0
        var cut = false
        for item in request.query.items {
            let isKey = APIKeyPolicy.isKeyParameter(item.name)
            let value = isKey ? ScenarioSelection.redacted(item.value, apiKeys: configuration.apiKeys) : item.value
            let entry = JournalEntry.QueryItem(name: Self.journalValue(item.name), value: Self.journalValue(value))
            if !isKey, entry.name != item.name || entry.value != value { cut = true }
            kept += entry.name.utf8.count + entry.value.utf8.count
            guard kept <= Self.journalQueryLimit else { cut = true; break }
            query.append(entry)
        }
        // `timestamp` stays wall-clock time (the ISO `time` an admin lines up with other logs);
        // arrival, latency and gaps, which tests compare, come from `clock`.
        var entry = JournalEntry(sequence: 0, timestamp: Date(), arrivalMilliseconds: uptimeMilliseconds(arrival),
                                 method: request.method, path: Self.journalValue(request.path), endpoint: endpoint, query: query,
                                 scenario: selection?.name, selectedBy: selection?.via.rawValue, client: selection?.client,
                                 rule: decision?.ruleLabel, step: decision?.step, state: decision?.state,
                                 delayMilliseconds: decision.map(\.delayMilliseconds), fault: decision?.action.faultLabel,
                                 status: nil, latencyMilliseconds: nil, note: nil)
        entry.queryCut = cut
        return journal.record(entry)
    }
}

/// Errors of the engine's control API.
public enum ScenarioEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownScenario(String)

    public var description: String {
        switch self {
        case .unknownScenario(let name): return "no scenario named '\(name)'"
        }
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
