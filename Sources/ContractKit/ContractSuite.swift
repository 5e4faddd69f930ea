import Foundation
import JSON
import Polyline
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One reason a query (or fixture, or model) does not hold.
public struct ContractFailure: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No HTTP answer (connection reset, timeout, …).
        case transport
        /// Another HTTP status than expected.
        case status
        /// A status the OpenAPI document does not declare for the operation.
        case undocumentedStatus = "undocumented-status"
        /// A response header the document requires is missing, or the Content-Type is not JSON.
        case header
        /// The body is not JSON.
        case json
        /// The body does not match the JSON Schema.
        case schema
        /// The body's `code` is not the expected one.
        case code
        /// A semantic check failed.
        case semantic
        /// The model cannot decode the response (or would crash on the contract).
        case model
        /// A `$from` parameter could not be resolved.
        case dependency
        /// The app's code (its decoding, its polyline decoder) trapped on this answer.
        case crash
        /// The app's code did not return on this answer.
        case hang
        /// The app's polyline decoder and the strict decoder disagree on a valid polyline.
        case polyline
    }

    /// Query, fixture (`fixture:NAME`) or model (`model:NAME`).
    public var query: String
    public var kind: Kind
    /// JSON pointer into the response (`""`: the whole response).
    public var pointer: String
    public var reason: String

    public init(query: String, kind: Kind, pointer: String = "", reason: String) {
        self.query = query
        self.kind = kind
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String { "\(query) \(pointer.isEmpty ? "/" : pointer): [\(kind.rawValue)] \(reason)" }
}

/// The outcome of one query (or fixture).
public struct QueryResult: Sendable {
    public var name: String
    public var endpoint: VMEndpoint
    /// The request as sent (parameters resolved), nil when it could not be built.
    public var request: VMRequest?
    public var status: Int?
    public var body: JSONValue?
    public var duration: TimeInterval
    public var failures: [ContractFailure]
    /// Information: known model gaps met, ignored keys, …
    public var notes: [String]
    /// The model the body was decoded with, and whether `JSONDecoder` could decode it.
    public var model: String?
    public var modelDecodes: Bool?
    /// Why the query was not run (e.g. simulator-only query against the live service).
    public var skipped: String?

    public var passed: Bool { failures.isEmpty }
}

/// Thrown by `ContractSuite.verify` when the contract does not hold; `description` lists every failure.
public struct ContractViolation: Error, CustomStringConvertible, Sendable {
    public let report: ContractReport
    public var description: String {
        "contract does not hold against \(report.target):\n" + report.allFailures.map { "  " + $0.description }.joined(separator: "\n")
    }
}

/// Runs the contract — OpenAPI/JSON Schemas, reference (or an app's) models, semantic checks —
/// against a VietMap backend:
///
/// ```swift
/// let report = try await ContractSuite(target: .simulator(URL(string: "http://127.0.0.1:8080")!))
///     .verify(VMRouteResponse.self, for: .route)
/// ```
public struct ContractSuite: Sendable {
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

    public struct Options: Sendable {
        /// Key sent to a simulator target (`--api-key` of the runner).
        public var simulatorAPIKey: String
        /// Per-request timeout in seconds.
        public var timeout: TimeInterval
        /// Report the corpus' known model gaps as such (true) or as failures (false).
        public var acceptKnownGaps: Bool
        /// Scenario runs at once.
        public var scenarioConcurrency: Int
        /// Seconds one call of the app's code (in its child process) may take before it counts as a hang.
        public var appCodeTimeout: TimeInterval
        /// Also run the corpus' `pending` queries (endpoints not served yet); skipped otherwise.
        public var runPending: Bool

        public init(simulatorAPIKey: String = "contract", timeout: TimeInterval = 15, acceptKnownGaps: Bool = true,
                    scenarioConcurrency: Int = 4, appCodeTimeout: TimeInterval = 10, runPending: Bool = false) {
            self.simulatorAPIKey = simulatorAPIKey
            self.timeout = timeout
            self.acceptKnownGaps = acceptKnownGaps
            self.scenarioConcurrency = scenarioConcurrency
            self.appCodeTimeout = appCodeTimeout
            self.runPending = runPending
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

    // MARK: - Running

    /// Runs the corpus (or the queries named in `only`, plus what they depend on), checks the
    /// fixtures, and reports model agreement for every model used.
    /// - Parameters:
    ///   - models: replaces the corpus' model for an endpoint (an app's own types).
    ///   - app: an app's models, polyline decoder and accepted gaps (its models win over `models`).
    public func run(only: Set<String>? = nil, models: [VMEndpoint: ContractModel] = [:], app: AppContract? = nil) async -> ContractReport {
        let started = Date()
        let accumulator = AgreementAccumulator()
        let context = context(models: models, app: app)
        let queries = only.map { contracts.corpus.closure(of: $0) } ?? contracts.corpus.queries
        let results = await execute(queries, provider: provider, context: context, accumulator: accumulator)
        let fixtures = contracts.fixtures.map { check($0, context: context, accumulator: accumulator) }
        let reports = modelReports(accumulator, context: context)
        let calls = context.statistics.snapshot
        return ContractReport(target: target.description, contracts: contracts.directory.path, results: results, fixtures: fixtures,
                              models: reports, scenarios: [], scenarioNote: nil, duration: Date().timeIntervalSince(started),
                              appModels: context.appModelLines, acceptedGaps: app?.acceptedGaps ?? [],
                              isolatedCalls: calls.calls, isolatedSeconds: calls.seconds)
    }

    /// Runs the queries of `endpoint` (and their dependencies), decoding successful answers with
    /// `model` — with `decode` when given (the app's own decoding), in a child process — and route
    /// geometries with `polyline`, and throws `ContractViolation` unless everything holds
    /// (`acceptedGaps` aside). Returns the report.
    @discardableResult
    public func verify<Model: Decodable>(_ model: Model.Type, for endpoint: VMEndpoint,
                                         decode: (@Sendable (Data) throws -> Model)? = nil,
                                         polyline: AppPolylineDecoder? = nil,
                                         acceptedGaps: [AcceptedGap] = []) async throws -> ContractReport {
        var app = AppContract(polyline: polyline, acceptedGaps: acceptedGaps)
        app.models[endpoint] = ContractModel(model, decode: decode)
        return try await verify(app)
    }

    /// Runs the queries of every endpoint `app` has a model for (and their dependencies) with the
    /// app's models and decoders, and throws `ContractViolation` unless everything holds
    /// (`app.acceptedGaps` aside). Returns the report.
    @discardableResult
    public func verify(_ app: AppContract) async throws -> ContractReport {
        let endpoints = Set(app.models.keys)
        let names = Set(contracts.corpus.queries.filter { endpoints.contains($0.endpoint) }.map(\.name))
        var report = await run(only: names, app: app)
        report.fixtures = report.fixtures.filter { endpoints.contains($0.endpoint) }
        if !report.passed { throw ContractViolation(report: report) }
        return report
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
        var statistics = CallStatistics()

        /// `route: MyApp.VMRouteResponse (the app's)` lines for the report.
        var appModelLines: [String] {
            var lines = VMEndpoint.allCases.compactMap { endpoint in
                models[endpoint].map { "\(endpoint.name): \($0.name) (\($0.isReference ? "reference client's" : "the app's"))" }
            }
            if let polyline { lines.append("polyline: \(polyline.name) (the app's)") }
            return lines
        }
    }

    func context(models: [VMEndpoint: ContractModel], app: AppContract?) -> RunContext {
        RunContext(models: models.merging(app?.models ?? [:]) { $1 }, polyline: app?.polyline,
                   gaps: libraryGaps + (app?.gapRules ?? []), timeout: options.appCodeTimeout)
    }

    /// The corpus' known gaps, bound to the reference client's models they name.
    var libraryGaps: [GapRule] {
        guard options.acceptKnownGaps else { return [] }
        return contracts.corpus.knownModelGaps.compactMap { gap in
            guard let model = ContractModel.reference[gap.model]
                ?? ContractModel.reference.values.first(where: { $0.name == ContractModel.canonical(gap.model) }) else { return nil }
            return GapRule(modelIDs: [model.typeID], path: gap.path, property: nil, reason: gap.reason, declaredBy: "known gap of the reference client")
        }
    }

    /// Runs `queries` in order against `provider` (responses feed later `$from` parameters).
    func execute(_ queries: [ContractQuery], provider: any VietMapProvider, context: RunContext,
                 accumulator: AgreementAccumulator) async -> [QueryResult] {
        var results: [QueryResult] = []
        var byName: [String: QueryResult] = [:]
        for query in queries {
            let result: QueryResult
            if let only = query.only, let kind = target.kind, only != kind {
                result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                     failures: [], notes: [], model: nil, modelDecodes: nil, skipped: "\(only.rawValue) only")
            } else if let pending = query.pending, !options.runPending {
                result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                     failures: [], notes: [], model: nil, modelDecodes: nil, skipped: "pending: \(pending)")
            } else {
                result = await execute(query, previous: byName, provider: provider, context: context, accumulator: accumulator)
            }
            byName[query.name] = result
            results.append(result)
        }
        return results
    }

    private func execute(_ query: ContractQuery, previous: [String: QueryResult], provider: any VietMapProvider,
                         context: RunContext, accumulator: AgreementAccumulator) async -> QueryResult {
        var result = QueryResult(name: query.name, endpoint: query.endpoint, request: nil, status: nil, body: nil, duration: 0,
                                 failures: [], notes: [], model: nil, modelDecodes: nil, skipped: nil)
        func fail(_ kind: ContractFailure.Kind, _ pointer: String, _ reason: String) {
            result.failures.append(ContractFailure(query: query.name, kind: kind, pointer: pointer, reason: reason))
        }
        var parameters: [VMParameter] = []
        for (name, value) in query.parameters {
            switch value {
            case .literal(let text): parameters.append(VMParameter(name, text))
            case .reference(let source, let pointer):
                guard let body = previous[source]?.body, let found = ContractPointer.resolve(pointer, in: body) else {
                    fail(.dependency, "", "parameter '\(name)' needs \(pointer) of query '\(source)', which \(previous[source]?.body == nil ? "has no JSON answer" : "has no value there")")
                    return result
                }
                switch found {
                case .string(let s): parameters.append(VMParameter(name, s))
                case .integer, .number, .bool: parameters.append(VMParameter(name, JSONSerializer.string(found)))
                default:
                    fail(.dependency, "", "parameter '\(name)': \(pointer) of query '\(source)' is \(found.typeName), not a scalar")
                    return result
                }
            }
        }
        let request = VMRequest(query.endpoint, parameters)
        result.request = request
        let started = Date()
        let response: VMRawResponse
        do {
            response = try await provider.send(request)
        } catch VMClientError.notRecorded(_, _) {
            result.duration = Date().timeIntervalSince(started)
            result.skipped = "not recorded"
            return result
        } catch {
            result.duration = Date().timeIntervalSince(started)
            fail(.transport, "", "no HTTP answer: \(Self.transportMessage(error))")
            return result
        }
        result.duration = Date().timeIntervalSince(started)
        result.status = response.status
        let checked = checkResponse(name: query.name, endpoint: query.endpoint, status: response.status, headers: response.headers,
                                    data: response.body, expect: query.expect,
                                    requestParameters: parameters.map { ($0.name, $0.value) }, context: context, accumulator: accumulator)
        result.body = checked.body
        result.failures += checked.failures
        result.notes += checked.notes
        result.model = checked.model
        result.modelDecodes = checked.modelDecodes
        return result
    }

    /// One short line for a transport failure, without URLs (they carry the API key).
    static func transportMessage(_ error: Error) -> String {
        var inner: Error = error
        if let client = error as? VMClientError, case .transport(let wrapped) = client { inner = wrapped }
        var ns = inner as NSError
        while let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { ns = underlying }
        var text = (ns.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        if text.isEmpty || text == "(null)" {
            text = (inner as? URLError).map { "URLError \($0.code.rawValue)" } ?? String(describing: inner)
        }
        return text.replacingOccurrences(of: #"apikey=[^&\s,]*"#, with: "apikey=…", options: .regularExpression)
    }

    struct Checked {
        var body: JSONValue?
        var failures: [ContractFailure] = []
        var notes: [String] = []
        var model: String?
        var modelDecodes: Bool?
    }

    /// Every check of one response: status, headers, JSON, schema of the documented status, code,
    /// semantic checks and the model.
    func checkResponse(name: String, endpoint: VMEndpoint, status: Int, headers: [String: String]?, data: Data,
                       expect: Expectation, requestParameters: [(name: String, value: String)],
                       context: RunContext, accumulator: AgreementAccumulator) -> Checked {
        let models = context.models
        var out = Checked()
        func fail(_ kind: ContractFailure.Kind, _ pointer: String, _ reason: String) {
            out.failures.append(ContractFailure(query: name, kind: kind, pointer: pointer, reason: reason))
        }
        let body = try? JSONParser.parse(data)
        out.body = body
        if status != expect.status {
            let detail = body.flatMap { b in (b["message"] ?? b["messages"] ?? b["code"])?.stringValue }.map { ": \($0.prefix(120))" } ?? ""
            fail(.status, "", "expected HTTP \(expect.status), got \(status)\(detail)")
        }
        let spec = contracts.response(endpoint, status: status)
        if spec == nil {
            fail(.undocumentedStatus, "", "HTTP \(status) is not documented for GET \(endpoint.path) (documented: \(contracts.documentedStatuses(endpoint).map(String.init).joined(separator: ", ")))")
        }
        if let headers {
            let type = headers["content-type"] ?? ""
            if !type.lowercased().hasPrefix("application/json") {
                fail(.header, "", "Content-Type is '\(type)', expected application/json")
            }
            for header in spec?.requiredHeaders ?? [] where headers[header] == nil {
                fail(.header, "", "header \(header) is missing (required for HTTP \(status))")
            }
        }
        guard let body else {
            let text = String(decoding: data.prefix(80), as: UTF8.self)
            fail(.json, "", data.isEmpty ? "empty body" : "body is not JSON (\(data.count) bytes: \(text.debugDescription))")
            // The client decodes every 200: a body that is not JSON breaks its model.
            if status == 200, let declared = expect.model, let model = models[endpoint] ?? ContractModel.reference[declared] {
                out.model = model.name
                out.modelDecodes = false
                fail(.model, "", "\(model.name) cannot decode an HTTP 200 whose body is not JSON")
            }
            return out
        }
        if let reference = spec?.schemaReference {
            if let validator = contracts.validator(reference: reference) {
                for error in validator.validate(body).prefix(25) {
                    fail(.schema, error.instancePath, "\(error.message) [\(reference.replacingOccurrences(of: "schemas/", with: ""))\(error.schemaPath.isEmpty ? "" : "#" + error.schemaPath)]")
                }
            } else {
                fail(.schema, "", "no compiled schema for \(reference)")
            }
        }
        guard status == expect.status else { return out }
        if let code = expect.code, body["code"]?.stringValue != code {
            fail(.code, "/code", "expected code \(code), got \(body["code"].map { JSONSerializer.string($0) } ?? "none")")
        }
        for failure in SemanticChecks.run(expect.checks, endpoint: endpoint, body: body, parameters: requestParameters) {
            fail(.semantic, failure.pointer, "\(failure.check.rawValue): \(failure.reason)")
        }
        // The reference client decodes only HTTP 200 bodies (anything else is VMError.http).
        let model: ContractModel?
        if let declared = expect.model {
            model = models[endpoint] ?? ContractModel.reference[declared]
        } else {
            model = nil
        }
        if let model, status == 200 {
            out.model = model.name
            let verdict = model.decode(data, timeout: context.timeout, statistics: context.statistics)
            switch verdict {
            case .crashed, .hung, .failed:
                // The app's code did not survive this answer: no field-by-field walk (it runs the
                // same code in-process), no polyline.
                out.modelDecodes = false
                let kind: ContractFailure.Kind = { if case .hung = verdict { return .hang } else { return .crash } }()
                fail(kind, "", "\(model.decoderName) \(verdict.error ?? "") — input: the \(data.count)-byte body \(Self.snippet(String(decoding: data, as: UTF8.self)))")
                return out
            case .decoded, .threw:
                break
            }
            let recording = accumulator.recorder(for: model).walk(body, data: data, verdict: verdict)
            accumulator.add(recording, model: model.name, endpoint: endpoint.rawValue)
            out.modelDecodes = recording.decodes
            if recording.decodes {
                for issue in recording.issues { out.notes.append("\(model.name) \(issue) (JSONDecoder accepts it)") }
                if endpoint.family == .route || endpoint.family == .tsp, let polyline = context.polyline {
                    checkPolylines(body, decoder: polyline, context: context, fail: fail, note: { out.notes.append($0) })
                }
            } else {
                var reported = false
                for issue in recording.issues {
                    if let gap = context.gaps.first(where: { $0.covers(model: model, pointer: issue.pointer, field: issue.field) }) {
                        out.notes.append("\(gap.declaredBy) \(model.name) \(issue.pointer): \(issue.message)\(gap.reason.isEmpty ? "" : " — \(gap.reason)")")
                    } else {
                        fail(.model, issue.pointer, "\(model.name): \(issue.message)")
                    }
                    reported = true
                }
                if !reported {
                    fail(.model, recording.decoderErrorPointer ?? "", "\(model.name) does not decode: \(recording.decoderError ?? "?")")
                }
            }
        }
        return out
    }

    /// Runs the app's polyline decoder (each call in a child process) on every encoded
    /// `/paths/N/points`: a crash or hang fails; on a polyline the strict decoder reads, the points
    /// must agree within 1e-5°.
    func checkPolylines(_ body: JSONValue, decoder: AppPolylineDecoder, context: RunContext,
                        fail: (ContractFailure.Kind, String, String) -> Void, note: (String) -> Void) {
        for (index, path) in (body["paths"]?.arrayValue ?? []).enumerated() {
            guard let encoded = path["points"]?.stringValue else { continue }
            let pointer = "/paths/\(index)/points"
            let input = Self.snippet(encoded)
            let strict = try? Polyline.decode(encoded, precision: 5)
            switch decoder.call(encoded, timeout: context.timeout, statistics: context.statistics) {
            case .crashed(let signal, let message):
                fail(.crash, pointer, "\(decoder.name)(\(input)) crashed (\(IsolatedCall.describe(signal: signal)))\(message.isEmpty ? "" : ": " + message)")
            case .hung(let seconds):
                fail(.hang, pointer, "\(decoder.name)(\(input)) did not return within \(Int(seconds)) s (twice)")
            case .failed(let reason):
                fail(.crash, pointer, "\(decoder.name)(\(input)): \(reason)")
            case .points(let points):
                guard let strict else {
                    note("\(decoder.name)(\(input)) returns \(points.count) points for a polyline the strict decoder rejects (no crash)")
                    continue
                }
                if points.count != strict.count {
                    fail(.polyline, pointer, "\(decoder.name)(\(input)) gives \(points.count) points, the strict decoder \(strict.count)")
                } else if let i = Self.firstDifference(points, strict) {
                    fail(.polyline, pointer, "\(decoder.name)(\(input)) point \(i) is \(points[i].lat),\(points[i].lng); the strict decoder gives \(strict[i].lat),\(strict[i].lng) (tolerance 1e-5)")
                }
            }
        }
    }

    /// The first point where the two decoders differ by more than 1e-5°.
    static func firstDifference(_ app: [GeoPoint], _ strict: [Coordinate2D]) -> Int? {
        for i in app.indices {
            let latDelta: Double = abs(app[i].lat - strict[i].lat)
            let lngDelta: Double = abs(app[i].lng - strict[i].lng)
            if latDelta > 1e-5 || lngDelta > 1e-5 { return i }
        }
        return nil
    }

    /// A string as it appears in findings: quoted, escaped, cut to 60 characters.
    static func snippet(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return cut.debugDescription + (text.count > 60 ? " (\(text.count) characters)" : "")
    }

    /// Checks one recorded fixture offline (schema, model, semantic checks).
    func check(_ fixture: ContractFixture, context: RunContext, accumulator: AgreementAccumulator) -> QueryResult {
        let expect = Expectation(status: fixture.status, schema: fixture.schema, model: fixture.model, code: nil, checks: fixture.checks)
        let data = Data(JSONSerializer.bytes(fixture.body))
        var checked = checkResponse(name: "fixture:\(fixture.name)", endpoint: fixture.endpoint, status: fixture.status, headers: nil,
                                    data: data, expect: expect, requestParameters: fixture.parameters, context: context, accumulator: accumulator)
        if let validator = contracts.validator(stem: fixture.schema), contracts.response(fixture.endpoint, status: fixture.status)?.schemaStem != fixture.schema {
            for error in validator.validate(fixture.body).prefix(25) {
                checked.failures.append(ContractFailure(query: "fixture:\(fixture.name)", kind: .schema, pointer: error.instancePath, reason: error.message))
            }
        }
        return QueryResult(name: "fixture:\(fixture.name)", endpoint: fixture.endpoint, request: nil, status: fixture.status,
                           body: fixture.body, duration: 0, failures: checked.failures, notes: checked.notes, model: checked.model,
                           modelDecodes: checked.modelDecodes, skipped: nil)
    }

    // MARK: - Scenarios

    /// Runs the corpus once per scenario (`apikey=scenario:NAME@TAG:KEY`, a fresh client state per
    /// run) and reports which scenarios the models survive. Informational: nothing here fails a run.
    /// - Parameter app: an app's models, decoders and accepted gaps instead of the reference models.
    public func runScenarios(_ names: [String], only: Set<String>? = nil, models: [VMEndpoint: ContractModel] = [:],
                             app: AppContract? = nil) async -> [ScenarioReport] {
        guard case .simulator(let url) = target else { return [] }
        let base = context(models: models, app: app)
        let queries = only.map { contracts.corpus.closure(of: $0) } ?? contracts.corpus.queries
        let tag = "contract-\(UInt32.random(in: 0...UInt32.max))"
        let limit = max(1, options.scenarioConcurrency)
        return await withTaskGroup(of: (Int, ScenarioReport).self) { group in
            var reports: [(Int, ScenarioReport)] = []
            var next = 0
            func add(_ group: inout TaskGroup<(Int, ScenarioReport)>) {
                let index = next, name = names[index]
                next += 1
                group.addTask {
                    let provider = ContractHTTPProvider(baseURL: url, apiKey: self.scenarioKey(name, tag: tag), timeout: self.options.timeout)
                    let started = Date()
                    var context = base
                    context.statistics = CallStatistics()
                    let results = await self.execute(queries, provider: provider, context: context, accumulator: AgreementAccumulator())
                    return (index, ScenarioReport(name: name, results: results, duration: Date().timeIntervalSince(started),
                                                  models: context.appModelLines.isEmpty ? ["the reference client's models"] : context.appModelLines))
                }
            }
            while next < min(limit, names.count) { add(&group) }
            while let finished = await group.next() {
                reports.append(finished)
                if next < names.count { add(&group) }
            }
            return reports.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Every scenario the simulator target offers (`scenarioNames(directory: nil)`: its admin API
    /// must be on, as in `SimulatorServer`), run with `app`'s models and decoders.
    public func runScenarios(app: AppContract, only: Set<String>? = nil) async throws -> [ScenarioReport] {
        let names = try await scenarioNames(directory: nil)
        return await runScenarios(names, only: only, app: app)
    }

    /// The scenarios a simulator target offers: from its admin API (`/__sim/scenarios`, with
    /// `serve --admin`), else the `*.json` files of `directory`. Throws when the target does not
    /// run scenarios at all (then every `scenario:` key would be answered normally).
    public func scenarioNames(directory: URL?) async throws -> [String] {
        guard case .simulator(let url) = target else { throw ContractError("scenarios need a simulator target") }
        let probe = ContractHTTPProvider(baseURL: url, apiKey: scenarioKey("__contract-probe__", tag: nil), timeout: options.timeout)
        let answer = try await probe.send(VMRequest(.autocomplete, [VMParameter("text", "a")]))
        let message = (try? JSONParser.parse(answer.body))?["message"]?.stringValue ?? ""
        guard answer.status == 401, message.contains("unknown scenario") else {
            throw ContractError("the target does not run scenarios (an unknown scenario key got HTTP \(answer.status)); start it with `vietmap-sim serve --scenarios DIR` or in a folder containing Scenarios/")
        }
        if let names = try? await adminScenarioNames(url), !names.isEmpty { return names }
        guard let directory else { throw ContractError("no scenario list: the admin API is off and no Scenarios folder was given") }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let names = files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted().map { file -> String in
            let json = try? Contracts.readJSON(directory.appendingPathComponent(file))
            return json?["name"]?.stringValue ?? String(file.dropLast(5))
        }
        guard !names.isEmpty else { throw ContractError("no scenario files in \(directory.path)") }
        return names
    }

    /// `scenario:NAME@TAG:KEY` — the real key after the scenario, so that a simulator started with
    /// `--api-key KEY` applies the scenario (a bare `scenario:` key is a 401 there); without
    /// `--api-key` the suffix is only part of the client tag.
    private func scenarioKey(_ name: String, tag: String?) -> String {
        "scenario:\(name)" + (tag.map { "@\($0)" } ?? "") + ":\(options.simulatorAPIKey)"
    }

    private func adminScenarioNames(_ url: URL) async throws -> [String] {
        var request = URLRequest(url: url.appendingPathComponent("__sim/scenarios"), timeoutInterval: options.timeout)
        request.httpMethod = "GET"
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { return [] }
        return try JSONParser.parse(data)["scenarios"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }
}

/// One scenario's run of the corpus.
public struct ScenarioReport: Sendable {
    public var name: String
    public var results: [QueryResult]
    public var duration: TimeInterval
    /// The models (and decoder) the answers went through: `route: MyApp.VMRouteResponse (the app's)`.
    public var models: [String] = ["the reference client's models"]

    /// Kinds that break an app: a model that cannot decode a 200, its code crashing or hanging,
    /// its polyline decoder disagreeing with the strict one.
    public static let breakingKinds: Set<ContractFailure.Kind> = [.model, .crash, .hang, .polyline]

    /// What breaks the app: 200 answers a model could not decode, crashes and hangs of its code.
    public var modelBreaks: [ContractFailure] { results.flatMap { $0.failures.filter { Self.breakingKinds.contains($0.kind) } } }
    /// Crashes and hangs of the app's code.
    public var crashes: [ContractFailure] { results.flatMap { $0.failures.filter { $0.kind == .crash || $0.kind == .hang } } }
    /// Every contract failure (schema, status, semantic, transport, …).
    public var violations: [ContractFailure] { results.flatMap(\.failures) }
    public var transportErrors: Int { results.filter { $0.failures.contains { $0.kind == .transport } }.count }
    public var survives: Bool { modelBreaks.isEmpty }
    /// HTTP statuses seen, by count.
    public var statuses: [Int: Int] { results.compactMap(\.status).reduce(into: [:]) { $0[$1, default: 0] += 1 } }
}

// MARK: - Record and replay

extension ContractSuite.Target {
    /// Answers recorded by `ContractSuite.record(into:)` (or `RecordingVietMapProvider`),
    /// replayed offline; a query whose request was not recorded is skipped.
    public static func recorded(_ directory: URL) throws -> ContractSuite.Target {
        .provider(try RecordedVietMapProvider(directory: directory))
    }
}

extension ContractSuite {
    /// Runs the corpus (or `only`) against the target like `run`, recording every answer into
    /// `directory` (one fixture file per request), for replay with `.recorded(directory)`.
    /// Returns the report of the recorded run.
    public func record(into directory: URL, only: Set<String>? = nil, app: AppContract? = nil) async throws -> ContractReport {
        let recorder = RecordingVietMapProvider(wrapping: provider)
        var recording = self
        recording.recordingProvider = recorder
        let report = await recording.run(only: only, app: app)
        try await recorder.write(to: directory)
        return report
    }
}
