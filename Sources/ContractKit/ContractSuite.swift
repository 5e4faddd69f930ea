import Foundation
import JSON
import Polyline
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the contract — OpenAPI/JSON Schemas, reference (or an app's) models, semantic checks —
/// against a VietMap backend:
///
/// ```swift
/// let report = try await ContractSuite(target: .simulator(URL(string: "http://127.0.0.1:8080")!))
///     .verify(VMRouteResponse.self, for: .route)
/// ```
public struct ContractSuite: Sendable {
    /// The backend a suite runs against.
    public enum Target: Sendable, CustomStringConvertible {
        /// A `vietmap-sim serve` (any non-empty API key works unless it was started with `--api-key`).
        case simulator(URL)
        /// `https://maps.vietmap.vn` with a real key.
        case live(apiKey: String)
        /// Any backend (recorded responses, a proxy, …).
        case provider(any VietMapProvider)

        public var description: String {
            switch self {
            case .simulator(let url): return "\(url.absoluteString) (simulator)"
            case .live: return "\(ContractHTTPProvider.liveBaseURL.absoluteString) (live)"
            case .provider(let provider): return "\(type(of: provider)) (provider)"
            }
        }

        var kind: ContractQuery.Only? {
            switch self {
            case .simulator: return .simulator
            case .live: return .live
            case .provider: return nil
            }
        }
    }

    /// How a suite runs: keys, timeouts, concurrency, the scenario seed.
    public struct Options: Sendable {
        /// Key sent to a simulator target (`--api-key` of the runner).
        public var simulatorAPIKey: String
        /// Per-request timeout in seconds.
        public var timeout: TimeInterval
        /// Report the corpus' known model gaps as such (true) or as failures (false).
        public var acceptKnownGaps: Bool
        /// Scenario runs at once.
        public var scenarioConcurrency: Int
        /// Seconds one call of the app's code (in its worker) may take before it counts as a hang.
        public var appCodeTimeout: TimeInterval
        /// Where the app's code runs: contract workers or this process (`automatic`: workers where
        /// processes can be started, `VIETMAP_CONTRACT_ISOLATION` overriding).
        public var appCodeIsolation: AppCodeIsolation
        /// Also run the corpus' `pending` queries (endpoints not served yet); skipped otherwise.
        public var runPending: Bool
        /// The seed of scenario runs: their client tag (`contract-seed<seed>`) and so every seeded
        /// draw of the simulator. Fixed by default; another seed gives other (equally repeatable) draws.
        public var seed: UInt64
        /// `verify(_:scenarios:)` prints the report (contract, scenarios, baseline) to stdout, pass or fail.
        public var printsReport: Bool

        public init(simulatorAPIKey: String = "contract", timeout: TimeInterval = 15, acceptKnownGaps: Bool = true,
                    scenarioConcurrency: Int = 8, appCodeTimeout: TimeInterval = 10, runPending: Bool = false,
                    seed: UInt64 = 1, printsReport: Bool = true, appCodeIsolation: AppCodeIsolation = .automatic) {
            self.appCodeIsolation = appCodeIsolation
            self.simulatorAPIKey = simulatorAPIKey
            self.timeout = timeout
            self.acceptKnownGaps = acceptKnownGaps
            self.scenarioConcurrency = scenarioConcurrency
            self.appCodeTimeout = appCodeTimeout
            self.runPending = runPending
            self.seed = seed
            self.printsReport = printsReport
        }
    }

    public let target: Target
    public let contracts: Contracts
    public var options: Options

    /// - Parameter contracts: nil loads `Contracts.load()` (see there for where it looks).
    public init(target: Target, contracts: Contracts? = nil, options: Options = Options()) throws {
        self.target = target
        self.contracts = try contracts ?? Contracts.load()
        self.options = options
    }

    /// Set by `record(into:)`: the target's provider wrapped in a recorder.
    var recordingProvider: (any VietMapProvider)?

    var provider: any VietMapProvider {
        if let recordingProvider { return recordingProvider }
        switch target {
        case .simulator(let url): return ContractHTTPProvider(baseURL: url, apiKey: options.simulatorAPIKey, timeout: options.timeout)
        case .live(let key): return ContractHTTPProvider(baseURL: ContractHTTPProvider.liveBaseURL, apiKey: key, timeout: options.timeout)
        case .provider(let provider): return provider
        }
    }

    var walker: SchemaWalker { SchemaWalker(documents: contracts.documents) }

    /// The names of the corpus' queries, in corpus order (for `only:`).
    public var queryNames: [String] { contracts.corpus.queries.map(\.name) }

    // MARK: - Running

    /// Runs the corpus (or the queries named in `only`, plus what they depend on), checks the
    /// fixtures, and reports model agreement for every model used.
    /// - Parameters:
    ///   - models: replaces the corpus' model for an endpoint (an app's own types).
    ///   - app: an app's models, polyline decoder and accepted gaps (its models win over `models`).
    public func run(only: Set<String>? = nil, models: [VMEndpoint: ContractModel] = [:], app: AppContract? = nil) async -> ContractReport {
        let started = Date()
        let accumulator = AgreementAccumulator()
        let runner = appCodeRunner(app)
        defer { runner.shutDown() }
        let context = context(models: models, app: app, runner: runner)
        let queries = only.map { contracts.corpus.closure(of: $0) } ?? contracts.corpus.queries
        let results = await execute(queries, provider: provider, context: context, accumulator: accumulator)
        let fixtures = contracts.fixtures.map { check($0, context: context, accumulator: accumulator) }
        let reports = modelReports(accumulator, context: context)
        let calls = runner.statistics.snapshot
        return ContractReport(target: target.description, contracts: contracts.directory.path, results: results, fixtures: fixtures,
                              models: reports, scenarios: [], scenarioNote: nil, duration: Date().timeIntervalSince(started),
                              appModels: context.appModelLines, acceptedGaps: app?.acceptedGaps ?? [],
                              isolatedCalls: calls.calls, isolatedSeconds: calls.seconds, appCodeIsolation: runner.description)
    }

    /// `run(only:app:)` with the contract `App` holds; its closures run in contract workers.
    public func run<App: AppContractProvider>(only: Set<String>? = nil, app: App.Type) async -> ContractReport {
        await run(only: only, app: AppContract.held(by: app))
    }

    /// Runs the queries of `endpoint` (and their dependencies), decoding successful answers with
    /// `model` — with `decode` when given (the app's own decoding), in a contract worker — and
    /// route geometries with `polyline`, and throws `ContractViolation` unless everything holds
    /// (`acceptedGaps` aside). Returns the report.
    /// - Parameter provider: the type holding the app's contract (`AppContractProvider`), through
    ///   which a worker finds `decode` and `polyline`; without it they run in-process.
    @discardableResult
    public func verify<Model: Decodable>(_ model: Model.Type, for endpoint: VMEndpoint,
                                         decode: (@Sendable (Data) throws -> Model)? = nil,
                                         polyline: AppPolylineDecoder? = nil,
                                         acceptedGaps: [AcceptedGap] = [],
                                         isolatedBy provider: (any AppContractProvider.Type)? = nil) async throws -> ContractReport {
        var app = AppContract(polyline: polyline, acceptedGaps: acceptedGaps)
        app.models[endpoint] = ContractModel(model, decode: decode)
        app.providerTypeName = provider.flatMap { _mangledTypeName($0) }
        return try await verify(app)
    }

    /// `verify(_:)` of the contract `App` holds; its closures run in contract workers.
    @discardableResult
    public func verify<App: AppContractProvider>(_ app: App.Type) async throws -> ContractReport {
        try await verify(AppContract.held(by: app))
    }

    /// `verify(_:scenarios:)` of the contract `App` holds; its closures run in contract workers.
    @discardableResult
    public func verify<App: AppContractProvider>(_ app: App.Type, scenarios baseline: ScenarioBaseline,
                                                 environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ContractReport {
        try await verify(AppContract.held(by: app), scenarios: baseline, environment: environment)
    }

    /// Runs the queries of every endpoint `app` has a model for (and their dependencies) with the
    /// app's models and decoders, and throws `ContractViolation` unless everything holds
    /// (`app.acceptedGaps` aside, and every accepted gap that applies to the contract run matched
    /// something). Returns the report.
    @discardableResult
    public func verify(_ app: AppContract) async throws -> ContractReport {
        let report = await contractRun(app)
        if !report.passed { throw ContractViolation(report: report) }
        return report
    }

    /// The one call of an app's contract test: the contract run of `verify(app)`, then every
    /// scenario the simulator target offers through the app's models and decoders, each outcome
    /// compared with `baseline`. Throws `ContractViolation` — one line per finding kind and query,
    /// contract findings and scenario differences together — when the contract fails, when a
    /// scenario's outcome differs from the baseline (either way), or when an accepted gap matched
    /// nothing. Prints the whole report first (`options.printsReport`).
    ///
    /// ```swift
    /// let simulator = try SimulatorServer.start()
    /// defer { simulator.stop() }
    /// try await ContractSuite(target: .simulator(simulator.baseURL))
    ///     .verify(App.self, scenarios: ScenarioBaseline(fileBeside: #filePath))   // App: AppContractProvider
    /// ```
    @discardableResult
    public func verify(_ app: AppContract, scenarios baseline: ScenarioBaseline,
                       environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ContractReport {
        var report = await contractRun(app, checkingGaps: false)
        do {
            let names = try await scenarioNames(directory: nil)
            report.scenarios = await runScenarios(names, app: app)
            report.scenarioSeed = options.seed
            let verdict = baseline.compare(report.scenarios, seed: options.seed, environment: environment)
            report.baselineFailures = verdict.failures
            report.baselineNotes = verdict.notes
        } catch {
            report.scenarioNote = "\(error)"
            report.baselineFailures = [ContractFailure(query: "scenarios", kind: .baseline, reason: "not run: \(error)")]
        }
        report.gapFailures = Self.unusedGaps(app.acceptedGaps, report: report, scenariosRun: !report.scenarios.isEmpty)
        if options.printsReport { print(report.summary()) }
        if !report.passed { throw ContractViolation(report: report) }
        return report
    }

    /// `run` restricted to the endpoints `app` has models for, its accepted gaps held to account.
    func contractRun(_ app: AppContract, checkingGaps: Bool = true) async -> ContractReport {
        let endpoints = Set(app.models.keys)
        let names = Set(contracts.corpus.queries.filter { endpoints.contains($0.endpoint) }.map(\.name))
        var report = await run(only: names, app: app)
        report.fixtures = report.fixtures.filter { endpoints.contains($0.endpoint) }
        if checkingGaps { report.gapFailures = Self.unusedGaps(app.acceptedGaps, report: report, scenariosRun: false) }
        return report
    }

    /// An `unused-gap` failure for every accepted gap that applies to a run of `report` and
    /// matched nothing in any of them, with the nearest property names the app's models have.
    package static func unusedGaps(_ gaps: [AcceptedGap], report: ContractReport, scenariosRun: Bool) -> [ContractFailure] {
        let contractUsed = Set(report.results.flatMap(\.gapsUsed) + report.fixtures.flatMap(\.gapsUsed)
                               + report.models.flatMap { $0.findings.compactMap(\.gap) })
        let offered = Set(report.scenarios.map(\.name))
        let properties = Array(Set(report.models.filter { !$0.isReference }.flatMap { $0.shape.propertyNames })).sorted()
        var failures: [ContractFailure] = []
        for gap in gaps {
            var used = false
            var applies = false
            if let scenarios = gap.scenarios {
                guard scenariosRun else { continue }
                for name in scenarios where !offered.contains(name) {
                    failures.append(ContractFailure(query: "gap \(gap.id)", kind: .unusedGap,
                        reason: "names scenario '\(name)', which the target does not offer", property: gap.property))
                }
                let runs = report.scenarios.filter { scenarios.contains($0.name) }
                applies = !runs.isEmpty
                used = runs.contains { $0.gapsUsed.contains(gap.id) }
            } else {
                applies = true
                used = contractUsed.contains(gap.id) || report.scenarios.contains { $0.gapsUsed.contains(gap.id) }
            }
            guard applies, !used else { continue }
            var reason = "accepted gap matched nothing in this run" + (gap.scenarios == nil && !scenariosRun ? " (the contract run)" : "")
            if !properties.contains(gap.property) {
                let near = properties.sorted { editDistance($0, gap.property) < editDistance($1, gap.property) }.prefix(3)
                reason += ": the app's models have no property \(gap.property)" + (near.isEmpty ? "" : " (nearest: \(near.joined(separator: ", ")))")
            } else {
                reason += ": no answer had a finding of \(gap.property) at \(gap.path) — remove the gap, or fix its path"
            }
            failures.append(ContractFailure(query: "gap \(gap.id)", kind: .unusedGap, reason: reason, property: gap.property))
        }
        return failures
    }

    func modelReports(_ accumulator: AgreementAccumulator, context: RunContext) -> [ModelAgreementReport] {
        accumulator.models.compactMap { name in
            let endpoints = accumulator.endpoints(of: name).compactMap { VMEndpoint(rawValue: $0) }
            let references = endpoints.flatMap { contracts.successReferences($0) }
            return accumulator.report(model: name, references: Array(Set(references)).sorted(), walker: walker, gaps: context.gaps)
        }
    }

    /// Models, decoders and gaps of one run.
    struct RunContext: Sendable {
        var models: [VMEndpoint: ContractModel]
        var polyline: AppPolylineDecoder?
        var gaps: [GapRule]
        var timeout: TimeInterval
        /// Where the app's code runs, and its call statistics.
        var runner: AppCodeRunner
        /// Checks already done in other scenario runs of the suite (nil: check every answer).
        var checks: CheckMemo? = nil

        /// `route: MyApp.VMRouteResponse (the app's)` lines for the report.
        var appModelLines: [String] {
            var lines = VMEndpoint.allCases.compactMap { endpoint in
                models[endpoint].map { "\(endpoint.name): \($0.name) (\($0.isReference ? "reference client's" : "the app's"))" }
            }
            if let polyline { lines.append("polyline: \(polyline.name) (the app's)") }
            return lines
        }
    }

    /// The context of the contract run (`scenario` nil) or of one scenario's run: gaps declared
    /// for certain scenarios apply to those runs only.
    func context(models: [VMEndpoint: ContractModel], app: AppContract?, scenario: String? = nil, runner: AppCodeRunner) -> RunContext {
        RunContext(models: models.merging(app?.models ?? [:]) { $1 }, polyline: app?.polyline,
                   gaps: libraryGaps + (app?.gapRules ?? []).filter { $0.applies(toScenario: scenario) }, timeout: options.appCodeTimeout,
                   runner: runner)
    }

    /// Runs the app's code of one run (or of a set of scenario runs) as `options` say.
    func appCodeRunner(_ app: AppContract?) -> AppCodeRunner {
        AppCodeRunner(isolation: options.appCodeIsolation, provider: app?.providerTypeName)
    }

    /// The corpus' known gaps, bound to the reference client's models they name.
    var libraryGaps: [GapRule] {
        guard options.acceptKnownGaps else { return [] }
        return contracts.corpus.knownModelGaps.compactMap { gap in
            guard let model = ContractModel.reference[gap.model]
                ?? ContractModel.reference.values.first(where: { $0.name == ContractModel.canonical(gap.model) }) else { return nil }
            return GapRule(modelIDs: [model.typeID], path: gap.path, property: nil, reason: gap.reason, declaredBy: "known gap of the reference client",
                           id: "\(model.name) at \(gap.path)")
        }
    }

}

/// Levenshtein distance (for "nearest property" hints here, "did you mean" in the CLI).
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
