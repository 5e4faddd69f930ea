import BuiltInScenarios
import Dashboard
import Dataset
import DefaultData
import Foundation
import HTTPServer
import Scenarios
import VietMapAPI
import VietMapWire
import VietMapWireHTTP

/// A whole vietmap-sim in this process: the dataset (the embedded default data, built once into
/// the per-user cache, or a given file), the VietMap endpoints, the scenario engine with the
/// built-in scenarios (plus a folder that adds or overrides by name) and the HTTP server on a
/// loopback port — what `vietmap-sim serve` runs, and what an app's XCTest starts:
///
/// ```swift
/// let simulator = try SimulatorServer.start()        // 127.0.0.1, a free port
/// defer { simulator.stop() }                         // also stopped when released
/// let url = simulator.baseURL                        // http://127.0.0.1:PORT
/// ```
///
/// In-process rather than a child process of the built binary: nothing to build or find first,
/// no port to parse from output, and the server goes away with the test process. The first start
/// on a machine builds the default dataset (about half a minute); later starts reuse the cache
/// (`$VIETMAP_SIM_CACHE`, `$XDG_CACHE_HOME/vietmap-sim` or `~/.cache/vietmap-sim`).
public final class SimulatorServer: @unchecked Sendable {
    // @unchecked: immutable after init except `server`, whose start/stop are thread-safe.

    /// How to start a simulator. The defaults: loopback, a free port, 4 threads, the default
    /// dataset, every API key accepted, the built-in scenarios, admin API on.
    public struct Configuration: Sendable {
        /// Host, port (0 = a free one), threads and the HTTP limits.
        package var http: HTTPServerConfiguration
        /// The address to listen on (default loopback).
        public var host: String {
            get { http.host }
            set { http.host = newValue }
        }
        /// The port; 0 takes a free one (`SimulatorServer.port` says which).
        public var port: UInt16 {
            get { http.port }
            set { http.port = newValue }
        }
        /// A dataset file (`vietmap-sim import`); nil builds/reuses the default dataset.
        public var databasePath: String?
        /// Threads for heavy requests (`RequestCost`: big matrices, tours, many-waypoint routes,
        /// searches avoiding the hierarchies, long texts, costly scenario regexes), apart from the
        /// HTTP threads that answer light ones (``CostAwareServing``); 0 serves everything on the
        /// HTTP threads. Default: one per CPU (`HeavyWorkExecutor.defaultThreadCount`).
        public var heavyWorkThreads = HeavyWorkExecutor.defaultThreadCount
        /// Where the default dataset is cached; nil = `DatasetCache.defaultDirectory()`.
        public var datasetCacheDirectory: URL?
        /// Accepted API keys; empty accepts any non-empty key.
        public var apiKeys: [String]
        public var maxRoutePoints: Int
        public var maxSnapDistanceMeters: Double
        /// Load the scenarios embedded in the package (`Scenarios/*.json`).
        public var includeBuiltInScenarios: Bool
        /// A folder whose scenarios add to (or override by name) the built-in ones.
        public var scenariosDirectory: URL?
        /// Poll `scenariosDirectory` every second and reload on change.
        public var watchScenarios: Bool
        /// The server-wide default scenario.
        public var defaultScenario: String?
        /// Plain keys bound to a scenario (`--scenario-key KEY=NAME[@TAG]`): KEY → `NAME[@TAG]`.
        public var scenarioKeys: [String: String] = [:]
        /// Overrides every scenario's `seed`.
        public var seed: UInt64?
        /// Serve the admin API (`/__sim/…`: scenario list, activation, journal) and the dashboard
        /// (`/__sim/ui/`).
        public var adminEnabled: Bool
        /// When set, every admin request needs `Authorization: Bearer <token>`. Left nil with a
        /// non-loopback `host`, a token is made up at start (`SimulatorServer.adminToken`).
        public var adminToken: String?
        /// What answers the endpoints behind the scenario engine; nil = the simulator's own
        /// service. `serve --upstream/--replay` put a `Capture` proxy or replay here.
        package var endpoints: (@Sendable (VietMapService) throws -> any HTTPResponder)?
        /// A `databasePath` larger than this is served once its header, seal and metadata are
        /// checked; its whole-file checksum is compared in the background, and a mismatch goes to
        /// `datasetDamaged` (a smaller file is checked whole before start, as always).
        public var deferredCheckBytes = DatasetIntegrity.defaultDeferredCheckBytes
        /// Receives one line per answered API request (`serve`'s request log; `RequestLogLine`);
        /// nil logs nothing.
        public var requestLog: (@Sendable (String) -> Void)?
        /// Receives the one-line reason when the background check finds the served dataset
        /// damaged. Default: the line on stderr (`serve` then exits).
        public var datasetDamaged: @Sendable (String) -> Void = { DatasetCache.standardError("vietmap-sim: \($0)") }

        /// - Parameters: every one as the property of the same name.
        public init(host: String = "127.0.0.1", port: UInt16 = 0,
                    databasePath: String? = nil, datasetCacheDirectory: URL? = nil, apiKeys: [String] = [],
                    maxRoutePoints: Int = 25, maxSnapDistanceMeters: Double = 1_000,
                    includeBuiltInScenarios: Bool = true, scenariosDirectory: URL? = nil, watchScenarios: Bool = false,
                    defaultScenario: String? = nil, seed: UInt64? = nil, adminEnabled: Bool = true, adminToken: String? = nil) {
            self.init(http: HTTPServerConfiguration(host: host, port: port, threads: 4), databasePath: databasePath,
                      datasetCacheDirectory: datasetCacheDirectory, apiKeys: apiKeys, maxRoutePoints: maxRoutePoints,
                      maxSnapDistanceMeters: maxSnapDistanceMeters, includeBuiltInScenarios: includeBuiltInScenarios,
                      scenariosDirectory: scenariosDirectory, watchScenarios: watchScenarios, defaultScenario: defaultScenario,
                      seed: seed, adminEnabled: adminEnabled, adminToken: adminToken, endpoints: nil)
        }

        /// The whole configuration, HTTP limits and endpoint handler included (the CLI's).
        package init(http: HTTPServerConfiguration,
                    databasePath: String? = nil, datasetCacheDirectory: URL? = nil, apiKeys: [String] = [],
                    maxRoutePoints: Int = 25, maxSnapDistanceMeters: Double = 1_000,
                    includeBuiltInScenarios: Bool = true, scenariosDirectory: URL? = nil, watchScenarios: Bool = false,
                    defaultScenario: String? = nil, seed: UInt64? = nil, adminEnabled: Bool = true,
                    adminToken: String? = nil, endpoints: (@Sendable (VietMapService) throws -> any HTTPResponder)? = nil) {
            self.http = http
            self.databasePath = databasePath
            self.datasetCacheDirectory = datasetCacheDirectory
            self.apiKeys = apiKeys
            self.maxRoutePoints = maxRoutePoints
            self.maxSnapDistanceMeters = maxSnapDistanceMeters
            self.includeBuiltInScenarios = includeBuiltInScenarios
            self.scenariosDirectory = scenariosDirectory
            self.watchScenarios = watchScenarios
            self.defaultScenario = defaultScenario
            self.seed = seed
            self.adminEnabled = adminEnabled
            self.adminToken = adminToken
            self.endpoints = endpoints
        }
    }

    /// Why a simulator could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public let configuration: Configuration
    /// `http://HOST:PORT` (IPv6 hosts in brackets).
    public let baseURL: URL
    public let port: UInt16
    package let service: VietMapService
    package let engine: ScenarioEngine
    /// The dataset file served.
    public let databasePath: String
    /// Scenarios loaded from the built-in set and from `scenariosDirectory` (after overrides).
    public let builtInScenarioCount: Int
    public let directoryScenarioCount: Int
    /// Built-in scenarios a file of `scenariosDirectory` replaced (same name): all of them when the folder is the
    /// repository's own `Scenarios/`, which the built-in set is a copy of.
    public let replacedBuiltInScenarioCount: Int
    private let server: HTTPServer
    /// Runs the heavy requests (nil with `heavyWorkThreads` 0).
    package let heavyWork: HeavyWorkExecutor?
    /// The whole responder chain (scenarios, journal, admin API, dashboard, capture/replay) and the
    /// HTTP settings it is served with: `serve --proxy` serves them again on a loopback port.
    package let responder: any HTTPResponder
    package let httpConfiguration: HTTPServerConfiguration

    /// Opens the dataset, loads the scenarios, starts the server; returns once it accepts connections.
    public static func start(_ configuration: Configuration = Configuration()) throws -> SimulatorServer {
        try SimulatorServer(configuration)
    }

    /// The dataset file to open: `databasePath` once it is checked to be a finished, intact
    /// `vietmap-sim import` output, or (nil) the default dataset, built into the cache on first
    /// use with progress lines on stderr. Every refusal is a one-line `StartError`. `serve` and
    /// `drive` open their data this way.
    public static func datasetPath(_ databasePath: String?, cacheDirectory: URL?) throws -> String {
        try datasetPath(databasePath, cacheDirectory: cacheDirectory, deferringChecksumAbove: .max).path
    }

    /// ``datasetPath(_:cacheDirectory:)``, a file larger than `limit` bytes checked by its header
    /// and seal only (`deferred`: its checksum is for the caller to compare in the background).
    static func datasetPath(_ databasePath: String?, cacheDirectory: URL?,
                            deferringChecksumAbove limit: Int) throws -> (path: String, deferred: Bool) {
        if let path = databasePath {
            if let problem = InputFile.problem(atPath: path), problem != "no such file" {
                throw StartError("\(path): \(problem); give a dataset file (`vietmap-sim import --out FILE`)")
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw StartError("dataset not found or not readable: \(path)")
            }
            let reimport = "re-import it (`vietmap-sim import --out \(path) INPUT…`) or delete it and serve the default dataset"
            do {
                // A finished import is sealed (a recorded checksum) and has its `meta`; a file
                // without them is the temporary file of an interrupted import, or no dataset.
                let outcome = try DatasetIntegrity.verify(path: path, deferringAbove: limit)
                guard outcome == .intact || outcome == .sealedCheckDeferred else {
                    if (try? DatasetInfo.read(path: path)) == nil {
                        throw StartError("\(path): a SQLite file, but not a vietmap-sim dataset (no seal, no `meta` table); give a file written by `vietmap-sim import --out FILE INPUT…`, or leave out --db to serve the default dataset")
                    }
                    throw StartError("\(path): the file has no recorded checksum, so it is not a finished `vietmap-sim import` output (an interrupted import's temporary file?); \(reimport)")
                }
                let info = try DatasetInfo.read(path: path)
                guard info.schemaVersion != nil else {
                    throw StartError("\(path): the file has no dataset metadata (meta.schema_version); \(reimport)")
                }
                _ = try DatasetInfo.validate(path: path)
                return (path, outcome == .sealedCheckDeferred)
            } catch let error as DatasetError where error.code == .damaged || error.code == .database {
                throw StartError("\(path): \(error.message); \(reimport)")
            }
        } else {
            return (try DatasetCache.ensureDefault(inputs: DefaultData.inputFiles, knownContents: DefaultData.inputDigests,
                                                   cacheDirectory: cacheDirectory,
                                                   progress: { DatasetCache.standardError("vietmap-sim: \($0)") }).path, false)
        }
    }

    private init(_ configuration: Configuration) throws {
        self.configuration = configuration
        // The scenarios load on another thread while the dataset opens on this one (start-up time);
        // nothing is served before both are done.
        var scenarios = ScenarioEngine.Configuration(directory: configuration.scenariosDirectory, defaultScenario: nil,
                                                     seed: configuration.seed, adminEnabled: configuration.adminEnabled,
                                                     apiKeys: Set(configuration.apiKeys), adminToken: configuration.adminToken,
                                                     adminHosts: [configuration.http.host])
        scenarios.boundKeys = configuration.scenarioKeys
        nonisolated(unsafe) var loadedEngine: ScenarioEngine?
        let loading = DispatchGroup()
        DispatchQueue.global().async(group: loading) { [scenarios, includeBuiltIn = configuration.includeBuiltInScenarios] in
            var scenarios = scenarios
            scenarios.builtInFiles = includeBuiltIn ? BuiltInScenarios.files : []
            loadedEngine = ScenarioEngine(configuration: scenarios)
        }
        let dataset: (path: String, deferred: Bool)
        do {
            dataset = try Self.datasetPath(configuration.databasePath, cacheDirectory: configuration.datasetCacheDirectory,
                                           deferringChecksumAbove: configuration.deferredCheckBytes)
            databasePath = dataset.path
            service = try VietMapService(databasePath: databasePath, apiKeys: Set(configuration.apiKeys),
                                         maxRoutePoints: configuration.maxRoutePoints,
                                         maxSnapDistanceMeters: configuration.maxSnapDistanceMeters)
        } catch {
            loading.wait()
            throw error
        }
        loading.wait()
        engine = loadedEngine!
        let loaded = engine.library.scenarios
        let builtInDirectory = BuiltInScenarios.directory.path + "/"
        builtInScenarioCount = loaded.filter { ($0.file ?? "").hasPrefix(builtInDirectory) }.count
        directoryScenarioCount = loaded.count - builtInScenarioCount
        replacedBuiltInScenarioCount = configuration.includeBuiltInScenarios
            ? max(0, BuiltInScenarios.files.count - builtInScenarioCount) : 0
        for (key, selector) in configuration.scenarioKeys.sorted(by: { $0.key < $1.key }) {
            let name = String(selector.prefix { $0 != "@" })
            guard engine.library.scenario(named: name) != nil else {
                throw StartError("--scenario-key \(key.prefix(40))=\(selector.prefix(100)): no scenario '\(name.prefix(100))' is loaded (loaded: \(loaded.isEmpty ? "none" : loaded.map(\.name).joined(separator: ", ")))")
            }
        }
        if let name = configuration.defaultScenario {
            do {
                try engine.activate(name)
            } catch {
                throw StartError("\(error) (loaded: \(loaded.isEmpty ? "none" : loaded.map(\.name).joined(separator: ", ")))")
            }
        }
        if configuration.watchScenarios { engine.startWatching(interval: 1) }
        if let log = configuration.requestLog {
            engine.journal.observeCompletions { log(RequestLogLine.text($0)) }
        }
        let service = self.service, engine = self.engine
        // The responder chain, outermost first: cost-aware serving, the index, the scenario engine
        // (with the one `/__sim` table: admin API and dashboard), the endpoints.
        var middleware: [HTTPMiddleware] = []
        // Heavy requests leave the HTTP threads to light ones (docs/limits.md "Cost-aware serving").
        if configuration.heavyWorkThreads > 0 {
            let executor = HeavyWorkExecutor(threads: configuration.heavyWorkThreads)
            let classifier = HeavyRequestClassifier(engine: engine)
            middleware.append(CostAwareServing.middleware(executor: executor) { classifier.reason(for: $0) })
            heavyWork = executor
        } else {
            heavyWork = nil
        }
        middleware.append(ServerIndex.middleware(adminEnabled: configuration.adminEnabled,
                                                 keyHint: configuration.apiKeys.isEmpty ? "ANY-NON-EMPTY-KEY" : "YOUR-KEY"))
        // The page's place lookups go straight to the place endpoint: no front door, no scenario,
        // not journaled.
        let dashboard = Dashboard(roadGraph: service.roadGraph) { refid in
            service.respond(to: HTTPRequest(method: "GET", path: APIEndpoint.place.path, query: QueryParameters([("refid", refid)])),
                            as: .place)
        }
        let dashboardRoutes = configuration.adminEnabled ? dashboard.routes : []
        middleware.append { engine.wrap($0, adminRoutes: dashboardRoutes) }
        let handler: any HTTPResponder
        do {
            handler = try (configuration.endpoints?(service) ?? service).behind(middleware)
        } catch {
            heavyWork?.stop()
            throw error
        }
        // Every API answer but the 401 carries the CORS header (docs/api.md), the server
        // layer's own 413/414 included.
        var http = configuration.http
        if !http.errorResponseHeaders.contains("Access-Control-Allow-Origin") {
            APIResponses.applyCORS(to: &http.errorResponseHeaders, status: 413)
        }
        responder = handler
        httpConfiguration = http
        server = HTTPServer(configuration: http, responder: handler)
        do {
            try server.start()
        } catch {
            engine.stopWatching()
            heavyWork?.stop()
            throw error
        }
        port = server.port
        if dataset.deferred {
            // The whole file's CRC, at idle priority while it serves: damage that the header,
            // seal, metadata and SQLite's own page checks let through is still reported.
            let (path, damaged) = (dataset.path, configuration.datasetDamaged)
            DatasetIntegrity.verifyInBackground(path: path) { error in
                damaged("\(path): \(error.message) (found by the background check after start); re-import it")
            }
        }
        let host = configuration.http.host.contains(":") ? "[\(configuration.http.host)]" : configuration.http.host
        baseURL = URL(string: "\(configuration.http.tls == nil ? "http" : "https")://\(host):\(server.port)")!
    }

    deinit { stop() }

    /// The token every admin request needs (`Authorization: Bearer …`, the dashboard as
    /// `/__sim/ui/#token=…`): `Configuration.adminToken`, or one made up at start when the admin
    /// API is on, the host is not a loopback address and none was given (`adminTokenGenerated`).
    public var adminToken: String? { engine.adminToken }

    /// `adminToken` was made up at start (no `adminToken` given, a non-loopback host).
    public var adminTokenGenerated: Bool { engine.adminTokenGenerated }

    /// Problems of scenario files that did not load.
    package var scenarioIssues: [ScenarioIssue] { engine.library.issues }

    /// Problems of scenario files that did not load, one line each (`file: where: what`).
    public var scenarioProblems: [String] { engine.library.issues.map(\.description) }

    /// Where the scenarios came from, for start-up output: `21 scenarios (built-in 19, /path/Scenarios 2)`, and
    /// the built-in ones a folder's files replaced by name: `35 scenarios (/repo/Scenarios 35, replacing the built-in
    /// ones of the same names)` when serving from the repository, whose `Scenarios/` the built-in set is a copy of.
    public var scenarioSummary: String {
        var parts: [String] = []
        if configuration.includeBuiltInScenarios && builtInScenarioCount > 0 { parts.append("built-in \(builtInScenarioCount)") }
        if let directory = configuration.scenariosDirectory {
            var part = "\(directory.path) \(directoryScenarioCount)"
            if replacedBuiltInScenarioCount > 0 {
                part += builtInScenarioCount == 0 ? ", replacing the built-in ones of the same names"
                    : ", replacing \(replacedBuiltInScenarioCount) built-in of the same names"
            }
            parts.append(part)
        }
        return "\(builtInScenarioCount + directoryScenarioCount) scenarios (\(parts.isEmpty ? "none" : parts.joined(separator: ", ")))"
    }

    /// Stops the server and the folder watcher at once (idempotent).
    public func stop() {
        stop(drainTimeout: 0)
    }

    /// Stops accepting, lets requests in flight (delayed ones included) finish for up to
    /// `drainTimeout` seconds, then stops; returns how many connections had to be cut off.
    @discardableResult
    public func stop(drainTimeout: TimeInterval) -> Int {
        engine.stopWatching()
        let cutOff = server.stop(drainTimeout: drainTimeout)
        heavyWork?.stop()
        return cutOff
    }
}
