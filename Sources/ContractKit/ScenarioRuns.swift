import Foundation
import JSON
import Polyline
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Scenarios: the corpus once per scenario of a simulator target, with the app's models.
extension ContractSuite {

    /// Runs the corpus once per scenario (`apikey=scenario:NAME@TAG:KEY`) and reports what each
    /// did to the models and the app's code. Nothing here fails a run by itself: compare the
    /// reports with a `ScenarioBaseline` (`verify(_:scenarios:)` does) to make them a test.
    ///
    /// Reproducible: `TAG` is `contract-seed<options.seed>`, so every seeded draw of the simulator
    /// (`probability`, latency distributions) depends only on the seed, and each scenario's client
    /// state is reset through the admin API before its run; within a run the queries go one after
    /// another in corpus order, each in paced scenario time (50 ms apart for bursts and quotas,
    /// `X-VietMap-Sim-Pace`). The same binary, seed and target give the same findings on every
    /// run. No real time is waited: a scenario's delays are virtual (`X-VietMap-Sim-Virtual-Delay`,
    /// judged against `options.timeout`), an answer a scenario leaves alone is the request's answer
    /// without scenario (`PlainAnswers`, `X-VietMap-Sim-Untouched`), and an answer already checked
    /// in another scenario's run is not checked again (`CheckMemo`). (A target without the admin API cannot be reset: the run then uses a fresh tag and
    /// each report's `reproducible` is false.)
    /// - Parameter app: an app's models, decoders and accepted gaps instead of the reference models.
    public func runScenarios(_ names: [String], only: Set<String>? = nil, models: [VMEndpoint: ContractModel] = [:],
                             app: AppContract? = nil) async -> [ScenarioReport] {
        guard case .simulator(let url) = target else { return [] }
        let queries = only.map { contracts.corpus.closure(of: $0) } ?? contracts.corpus.queries
        let seeded = "contract-seed\(options.seed)"
        let reset = await resetScenarioStates(url, names: names, tag: seeded)
        let tag = reset ? seeded : seeded + "-run\(UInt32.random(in: 0...UInt32.max))"
        let limit = max(1, options.scenarioConcurrency)
        let runner = appCodeRunner(app)
        defer { runner.shutDown() }
        let checks = CheckMemo()
        let plain = PlainAnswers(provider: ContractHTTPProvider(baseURL: url, apiKey: options.simulatorAPIKey, timeout: options.timeout,
                                                                reusesAnswers: true))
        let reports = await withTaskGroup(of: (Int, ScenarioReport).self) { group in
            var reports: [(Int, ScenarioReport)] = []
            var next = 0
            func add(_ group: inout TaskGroup<(Int, ScenarioReport)>) {
                let index = next, name = names[index]
                next += 1
                group.addTask {
                    let provider = ContractHTTPProvider(baseURL: url, apiKey: self.scenarioKey(name, tag: tag), timeout: self.options.timeout,
                                                        paceMilliseconds: Self.scenarioPaceMilliseconds, virtualDelays: true,
                                                        plainAnswers: plain)
                    let started = Date()
                    var context = self.context(models: models, app: app, scenario: name, runner: runner)
                    context.checks = checks
                    let results = await self.execute(queries, provider: provider, context: context, accumulator: AgreementAccumulator())
                    var report = ScenarioReport(name: name, results: results, duration: Date().timeIntervalSince(started),
                                                models: context.appModelLines.isEmpty ? ["the reference client's models"] : context.appModelLines)
                    report.tag = tag
                    report.reproducible = reset
                    report.isolation = runner.isolation
                    return (index, report)
                }
            }
            while next < min(limit, names.count) { add(&group) }
            while let finished = await group.next() {
                reports.append(finished)
                if next < names.count { add(&group) }
            }
            return reports.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return await withoutOrdinaryGaps(reports, url: url, models: models, app: app, runner: runner)
    }

    /// `runScenarios` with the contract `App` holds; its closures run in contract workers.
    public func runScenarios<App: AppContractProvider>(_ names: [String], only: Set<String>? = nil, app: App.Type) async -> [ScenarioReport] {
        await runScenarios(names, only: only, app: AppContract.held(by: app))
    }

    /// Keeps on each result only the gaps the scenario brought out: a gap the same query also
    /// meets without any scenario (the corpus' `points_encoded=false` routes and an app that never
    /// asks for them) is how the app always works, not how it survives the scenario. Reruns the
    /// few queries that met a gap without a scenario to find out.
    func withoutOrdinaryGaps(_ reports: [ScenarioReport], url: URL, models: [VMEndpoint: ContractModel],
                             app: AppContract?, runner: AppCodeRunner) async -> [ScenarioReport] {
        let queriesWithGaps = Set(reports.flatMap { $0.results.filter { !$0.gapsUsed.isEmpty }.map(\.name) })
        guard !queriesWithGaps.isEmpty else { return reports }
        let provider = ContractHTTPProvider(baseURL: url, apiKey: options.simulatorAPIKey, timeout: options.timeout)
        let plain = await execute(contracts.corpus.closure(of: queriesWithGaps), provider: provider,
                                  context: context(models: models, app: app, runner: runner), accumulator: AgreementAccumulator())
        let ordinary = Dictionary(plain.map { ($0.name, Set($0.gapsUsed)) }, uniquingKeysWith: { $0.union($1) })
        return reports.map { report in
            var report = report
            report.results = report.results.map { result in
                var result = result
                result.gapsUsed = result.gapsUsed.filter { !(ordinary[result.name]?.contains($0) ?? false) }
                return result
            }
            return report
        }
    }

    /// Scenario time between two requests of a scenario run (`X-VietMap-Sim-Pace`): bursts and
    /// quota windows see the corpus' requests this far apart whatever the machine's speed.
    static let scenarioPaceMilliseconds = 50

    /// Forgets the simulator's state of every `scenario:NAME@TAG` client (`POST /__sim/reset`);
    /// false when the target's admin API does not answer.
    func resetScenarioStates(_ url: URL, names: [String], tag: String) async -> Bool {
        let session = ContractHTTPProvider.session(timeout: options.timeout, paceMilliseconds: nil)
        // Without the admin API a POST to /__sim/reset would be an ordinary request of the
        // scenario its key names (one more draw): ask whether the admin API answers first.
        guard let (_, probe) = try? await session.data(for: URLRequest(url: url.appendingPathComponent("__sim/active"), timeoutInterval: options.timeout)),
              (probe as? HTTPURLResponse)?.statusCode == 200 else { return false }
        for name in names {
            var components = URLComponents(url: url.appendingPathComponent("__sim/reset"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "apikey", value: scenarioKey(name, tag: tag))]
            guard let resetURL = components?.url else { return false }
            var request = URLRequest(url: resetURL, timeoutInterval: options.timeout)
            request.httpMethod = "POST"
            request.setValue("1", forHTTPHeaderField: "X-VietMap-Sim-Admin")
            guard let (_, response) = try? await session.data(for: request),
                  (response as? HTTPURLResponse)?.statusCode == 200 else { return false }
        }
        return true
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
        let (data, response) = try await ContractHTTPProvider.session(timeout: options.timeout, paceMilliseconds: nil).data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { return [] }
        return try JSONParser.parse(data)["scenarios"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }
}
