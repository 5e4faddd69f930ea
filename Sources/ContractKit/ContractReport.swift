import Foundation
import JSON
import VietMapClient
import XMLEscaping

/// Everything a contract run found: per query, per fixture, per model, per scenario.
public struct ContractReport: Sendable {
    public var target: String
    public var contracts: String
    public var results: [QueryResult]
    public var fixtures: [QueryResult]
    public var models: [ModelAgreementReport]
    /// Informational: never part of `passed`.
    public var scenarios: [ScenarioReport]
    /// Why scenarios were not run, when they were asked for.
    public var scenarioNote: String?
    public var duration: TimeInterval
    /// The models and decoder used per endpoint: `route: MyApp.VMRouteResponse (the app's)`.
    public var appModels: [String] = []
    /// The gaps the app declared.
    public var acceptedGaps: [AcceptedGap] = []
    /// Calls of the app's code and their total time.
    public var isolatedCalls: Int = 0
    public var isolatedSeconds: Double = 0
    /// Where the app's code ran (`in contract workers (2 started)`, `in-process, not isolated …`).
    public var appCodeIsolation: String = ""
    /// Accepted gaps that matched nothing (`unused-gap`).
    public var gapFailures: [ContractFailure] = []
    /// Scenario outcomes that differ from the baseline (`verify(_:scenarios:)`).
    public var baselineFailures: [ContractFailure] = []
    /// Where the baseline came from or went to.
    public var baselineNotes: [String] = []
    /// The seed of the scenario runs, when scenarios were run.
    public var scenarioSeed: UInt64?

    /// Model agreement errors (not known gaps) as failures.
    public var modelFailures: [ContractFailure] {
        models.flatMap { report in
            report.errors.map { ContractFailure(query: "model:\(report.model)", kind: .model, pointer: $0.path, reason: $0.message) }
        }
    }

    /// Every failure that counts: queries, fixtures, model agreement, unused gaps, and scenario
    /// outcomes that differ from the baseline (scenario findings themselves count only through it).
    public var allFailures: [ContractFailure] {
        results.flatMap(\.failures) + fixtures.flatMap(\.failures) + modelFailures + gapFailures + baselineFailures
    }

    /// `FAIL …` lines: one per finding kind and query — the first finding whole, then how many
    /// more of that kind the query has and where.
    public func failureLines() -> [String] {
        Self.grouped(allFailures).map { group in
            var line = "FAIL \(group[0])"
            if group.count > 1 {
                let pointers = group.dropFirst().map { $0.pointer.isEmpty ? "/" : $0.pointer }
                let shown = pointers.prefix(3).joined(separator: ", ")
                line += " (+\(group.count - 1) more [\(group[0].kind.rawValue)] in \(group[0].query): \(shown)\(pointers.count > 3 ? ", …" : ""))"
            }
            return line
        }
    }

    /// Failures grouped by (query, kind), in order of first appearance.
    static func grouped(_ failures: [ContractFailure]) -> [[ContractFailure]] {
        var order: [String] = []
        var groups: [String: [ContractFailure]] = [:]
        for failure in failures {
            let key = failure.query + "\u{0}" + failure.kind.rawValue
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(failure)
        }
        return order.map { groups[$0]! }
    }

    public var passed: Bool { allFailures.isEmpty }

    // MARK: - Text

    /// The readable summary: one line per failure (query, JSON path, reason), model agreement,
    /// the result line, then the scenarios, clearly apart.
    public func summary() -> String {
        var lines: [String] = []
        let run = results.filter { $0.skipped == nil }
        lines.append("vietmap-sim contract — target \(target)")
        lines.append("contracts \(contracts): \(results.count) queries (\(run.count) run, \(results.count - run.count) skipped), \(fixtures.count) live fixtures")
        let pending = results.filter { $0.skipped?.hasPrefix("pending:") == true }
        if !pending.isEmpty {
            lines.append("pending (skipped; `contract --pending` runs them): " + pending.map(\.name).joined(separator: ", "))
        }
        lines += failureLines()
        if !appModels.isEmpty {
            lines.append("models: " + appModels.joined(separator: "; "))
        }
        if isolatedCalls > 0 {
            lines.append("app code: \(isolatedCalls) calls \(appCodeIsolation) "
                + String(format: "(%.1f ms per call, %.1f s in all)", isolatedSeconds * 1000 / Double(isolatedCalls), isolatedSeconds))
        }
        let unobserved = results.flatMap(\.unobserved) + fixtures.flatMap(\.unobserved)
        for group in Self.grouped(unobserved) {
            lines.append("NOT ISOLATED \(group[0])" + (group.count > 1 ? " (+\(group.count - 1) more)" : ""))
        }
        if !models.isEmpty {
            lines.append("")
            lines.append("Model agreement (what each model reads vs the contract and the responses):")
            for report in models {
                let ignored = report.findings.filter { $0.kind == .ignoredKey }
                let unexercised = report.findings.filter { $0.kind == .neverObserved }
                let errors = report.errors.count, gaps = report.knownGaps.count
                let warnings = report.findings.filter { $0.severity == .warning }
                var status = errors == 0 ? "ok" : "\(errors) error\(errors == 1 ? "" : "s")"
                if gaps > 0 { status += ", \(gaps) known/accepted gap\(gaps == 1 ? "" : "s")" }
                if !warnings.isEmpty { status += ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
                let owner = report.isReference ? "reference client's model" : "the app's model"
                lines.append("  \(report.model) (\(owner)): \(status) (\(report.responses) responses decoded; \(ignored.count) keys sent but not read)")
                for finding in report.findings where finding.severity != .info {
                    lines.append("    \(finding.severity.rawValue.uppercased()) \(finding.path): \(finding.message)")
                }
                if !ignored.isEmpty {
                    lines.append("    ignored keys: " + ignored.map { $0.path }.joined(separator: ", "))
                }
                for finding in unexercised {
                    lines.append("    never exercised \(finding.path): \(finding.message)")
                }
                if report.responses == 0 {
                    lines.append("    never exercised: no response of this run was decoded with it")
                }
            }
        }
        if !acceptedGaps.isEmpty {
            lines.append("")
            lines.append("Accepted gaps (declared by the app):")
            for gap in acceptedGaps {
                lines.append("  \(gap.property) at \(gap.path)\(gap.reason.isEmpty ? "" : " — \(gap.reason)")")
            }
        }
        lines.append("")
        let failedQueries = run.filter { !$0.passed }.count
        let failedFixtures = fixtures.filter { !$0.passed }.count
        let modelErrors = models.reduce(0) { $0 + $1.errors.count }
        lines.append("Result: \(passed ? "PASS" : "FAIL") — queries \(run.count - failedQueries) passed, \(failedQueries) failed, \(results.count - run.count) skipped; fixtures \(fixtures.count - failedFixtures)/\(fixtures.count); model agreement \(modelErrors) error\(modelErrors == 1 ? "" : "s") (\(String(format: "%.1f", duration)) s)")
        if let scenarioNote {
            lines.append("")
            lines.append("Scenarios: not run — \(scenarioNote)")
        }
        if !scenarios.isEmpty {
            lines.append("")
            lines.append(Self.scenarioTable(scenarios))
        }
        if scenarioSeed != nil || !baselineNotes.isEmpty || !baselineFailures.isEmpty {
            lines.append("")
            lines += baselineNotes
            let differing = baselineFailures.count
            lines.append(differing == 0 ? "Baseline: every scenario as expected (\(scenarios.count) scenarios)"
                                        : "Baseline: \(differing) difference\(differing == 1 ? "" : "s") (the FAIL lines [baseline] above)")
        }
        return lines.joined(separator: "\n")
    }

    /// The scenario section of `summary()`: one line per scenario — what it did to the app, how
    /// many contract violations, which statuses — then the first findings that break it, and the
    /// gaps it survives through.
    public static func scenarioTable(_ scenarios: [ScenarioReport]) -> String {
        var lines: [String] = []
        let used = Array(Set(scenarios.flatMap(\.models))).sorted()
        let seeds = Array(Set(scenarios.map(\.tag))).sorted().joined(separator: ", ")
        lines.append("Scenarios (client tag \(seeds.isEmpty ? "-" : seeds)): do these models survive? \(used.joined(separator: "; "))")
        if scenarios.contains(where: { !$0.reproducible }) {
            lines.append("  note: the target's scenario states could not be reset (no admin API): stateful and seeded scenarios may differ between runs")
        }
        let width = min(40, scenarios.map(\.name.count).max() ?? 0)
        for scenario in scenarios {
            let statuses = scenario.statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
            let transport = scenario.transportErrors > 0 ? ", \(scenario.transportErrors) without HTTP answer" : ""
            var verdict: String
            switch scenario.outcome {
            case .survives where !scenario.unobserved.isEmpty: verdict = "NOT ISOLATED  "
            case .survives: verdict = scenario.gapsUsed.isEmpty ? "models survive" : "survives (gap)"
            case .breaksModels: verdict = "MODELS BREAK  "
            case .crashes: verdict = "APP CODE CRASH"
            }
            let name = scenario.name.count < width ? scenario.name.padding(toLength: width, withPad: " ", startingAt: 0) : scenario.name
            lines.append("  \(name) \(verdict)  \(scenario.violations.count) contract violations (HTTP \(statuses.isEmpty ? "-" : statuses)\(transport))")
            let breaks = scenario.crashes + scenario.modelBreaks.filter { $0.kind != .crash && $0.kind != .hang }
            let groups = grouped(breaks)
            for group in groups.prefix(3) {
                lines.append("      breaks: \(group[0])" + (group.count > 1 ? " (+\(group.count - 1) more in \(group[0].query))" : ""))
            }
            if groups.count > 3 { lines.append("      … \(groups.count - 3) more queries") }
            for gap in scenario.gapsUsed { lines.append("      through gap: \(gap)") }
            if let first = scenario.unobserved.first { lines.append("      not run in-process: \(first)") }
            if scenario.survives, let first = scenario.violations.first { lines.append("      first violation: \(first)") }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - JUnit

    /// JUnit XML: one `<testsuite>` per endpoint plus `fixtures` and `model-agreement` (a
    /// `<testcase>` each, `<failure>` per failing check), and one informational suite per scenario
    /// whose test cases never carry `<failure>` (its findings go to `<system-out>`).
    public func junitXML() -> String {
        var suites: [String] = []
        var totalTests = 0, totalFailures = 0, totalSkipped = 0
        func testcase(_ result: QueryResult, classname: String) -> String {
            var xml = "    <testcase classname=\"\(xmlEscape(classname))\" name=\"\(xmlEscape(result.name))\" time=\"\(String(format: "%.3f", result.duration))\""
            if let skipped = result.skipped {
                return xml + ">\n      <skipped message=\"\(xmlEscape(skipped))\"/>\n    </testcase>"
            }
            if result.failures.isEmpty && result.notes.isEmpty { return xml + "/>" }
            xml += ">"
            for failure in result.failures {
                xml += "\n      <failure type=\"\(failure.kind.rawValue)\" message=\"\(xmlEscape((failure.pointer.isEmpty ? "/" : failure.pointer) + ": " + failure.reason))\">\(xmlEscape(failure.description))</failure>"
            }
            if !result.notes.isEmpty { xml += "\n      <system-out>\(xmlEscape(result.notes.joined(separator: "\n")))</system-out>" }
            return xml + "\n    </testcase>"
        }
        func suite(_ name: String, _ cases: [String], tests: Int, failures: Int, skipped: Int, time: TimeInterval, informational: Bool = false) {
            var xml = "  <testsuite name=\"\(xmlEscape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(String(format: "%.3f", time))\">"
            if informational {
                xml += "\n    <properties>\n      <property name=\"informational\" value=\"true\"/>\n    </properties>"
            }
            xml += cases.isEmpty ? "" : "\n" + cases.joined(separator: "\n")
            suites.append(xml + "\n  </testsuite>")
            totalTests += tests
            totalFailures += failures
            totalSkipped += skipped
        }
        for endpoint in VMEndpoint.allCases {
            let group = results.filter { $0.endpoint == endpoint }
            guard !group.isEmpty else { continue }
            let name = "contract.\(endpoint.name)"
            suite(name, group.map { testcase($0, classname: name) }, tests: group.count, failures: group.filter { !$0.passed }.count,
                  skipped: group.filter { $0.skipped != nil }.count, time: group.reduce(0) { $0 + $1.duration })
        }
        if !fixtures.isEmpty {
            suite("contract.fixtures", fixtures.map { testcase($0, classname: "contract.fixtures") }, tests: fixtures.count,
                  failures: fixtures.filter { !$0.passed }.count, skipped: 0, time: 0)
        }
        if !models.isEmpty {
            let cases = models.map { report -> String in
                var xml = "    <testcase classname=\"contract.model-agreement\" name=\"\(xmlEscape(report.model))\" time=\"0.000\">"
                for error in report.errors {
                    xml += "\n      <failure type=\"\(error.kind.rawValue)\" message=\"\(xmlEscape(error.path + ": " + error.message))\">\(xmlEscape(error.description))</failure>"
                }
                let other = report.findings.filter { $0.severity != .error }
                if !other.isEmpty { xml += "\n      <system-out>\(xmlEscape(other.map(\.description).joined(separator: "\n")))</system-out>" }
                return xml + "\n    </testcase>"
            }
            suite("contract.model-agreement", cases, tests: models.count, failures: models.filter { !$0.errors.isEmpty }.count, skipped: 0, time: 0)
        }
        let checks = gapFailures + baselineFailures
        if !checks.isEmpty {
            let cases = checks.map { failure in
                "    <testcase classname=\"contract.expectations\" name=\"\(xmlEscape(failure.query))\" time=\"0.000\">\n      <failure type=\"\(failure.kind.rawValue)\" message=\"\(xmlEscape(failure.reason))\">\(xmlEscape(failure.description))</failure>\n    </testcase>"
            }
            suite("contract.expectations", cases, tests: checks.count, failures: checks.count, skipped: 0, time: 0)
        }
        for scenario in scenarios {
            let name = "scenario.\(scenario.name)"
            let cases = scenario.results.map { result -> String in
                var xml = "    <testcase classname=\"\(xmlEscape(name))\" name=\"\(xmlEscape(result.name))\" time=\"\(String(format: "%.3f", result.duration))\""
                let lines = result.failures.map(\.description) + result.notes
                if lines.isEmpty && result.skipped == nil { return xml + "/>" }
                xml += ">"
                if let skipped = result.skipped { xml += "\n      <skipped message=\"\(xmlEscape(skipped))\"/>" }
                if !lines.isEmpty { xml += "\n      <system-out>\(xmlEscape(lines.joined(separator: "\n")))</system-out>" }
                return xml + "\n    </testcase>"
            }
            suite(name, cases, tests: scenario.results.count, failures: 0, skipped: scenario.results.filter { $0.skipped != nil }.count,
                  time: scenario.duration, informational: true)
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="vietmap-sim contract" tests="\(totalTests)" failures="\(totalFailures)" errors="0" skipped="\(totalSkipped)" time="\(String(format: "%.3f", duration))">
            \(suites.joined(separator: "\n"))
            </testsuites>

            """
    }

    // MARK: - JSON

    public func json() -> JSONValue {
        func result(_ r: QueryResult) -> JSONValue {
            .object(JSONObject([
                ("name", .string(r.name)),
                ("endpoint", .string(r.endpoint.name)),
                ("request", .string(r.request?.description)),
                ("status", r.status.map { .integer($0) } ?? .null),
                ("passed", .bool(r.passed)),
                ("skipped", .string(r.skipped)),
                ("durationMs", .number((r.duration * 1000).rounded())),
                ("model", .string(r.model)),
                ("modelDecodes", r.modelDecodes.map { .bool($0) } ?? .null),
                ("failures", .array(r.failures.map(failure))),
                ("notes", .array(r.notes.map { .string($0) })),
            ]))
        }
        func failure(_ f: ContractFailure) -> JSONValue {
            .object(JSONObject([("query", .string(f.query)), ("kind", .string(f.kind.rawValue)), ("path", .string(f.pointer)), ("reason", .string(f.reason)),
                                ("property", .string(f.property)), ("function", .string(f.function))]))
        }
        let run = results.filter { $0.skipped == nil }
        return .object(JSONObject([
            ("target", .string(target)),
            ("contracts", .string(contracts)),
            ("passed", .bool(passed)),
            ("summary", .object(JSONObject([
                ("queries", .integer(results.count)),
                ("passed", .integer(run.filter(\.passed).count)),
                ("failed", .integer(run.filter { !$0.passed }.count)),
                ("skipped", .integer(results.count - run.count)),
                ("fixtures", .integer(fixtures.count)),
                ("fixturesFailed", .integer(fixtures.filter { !$0.passed }.count)),
                ("modelErrors", .integer(models.reduce(0) { $0 + $1.errors.count })),
                ("knownGaps", .integer(models.reduce(0) { $0 + $1.knownGaps.count })),
                ("appCodeCalls", .integer(isolatedCalls)),
                ("appCodeSeconds", .number(isolatedSeconds)),
                ("appCodeIsolation", .string(appCodeIsolation)),
                ("durationMs", .number((duration * 1000).rounded())),
            ]))),
            ("failures", .array(allFailures.map(failure))),
            ("queries", .array(results.map(result))),
            ("fixtures", .array(fixtures.map(result))),
            ("models", .array(models.map { report in
                .object(JSONObject([
                    ("model", .string(report.model)),
                    ("owner", .string(report.isReference ? "reference" : "app")),
                    ("responses", .integer(report.responses)),
                    ("shape", .string(report.shape.description)),
                    ("findings", .array(report.findings.map { f in
                        .object(JSONObject([("severity", .string(f.severity.rawValue)), ("kind", .string(f.kind.rawValue)),
                                            ("path", .string(f.path)), ("field", .string(f.field)), ("message", .string(f.message))]))
                    })),
                ]))
            })),
            ("scenarioNote", .string(scenarioNote)),
            ("scenarioSeed", scenarioSeed.map { .integer(Int($0)) } ?? .null),
            ("gapFailures", .array(gapFailures.map(failure))),
            ("baselineFailures", .array(baselineFailures.map(failure))),
            ("scenarios", .array(scenarios.map { s in
                .object(JSONObject([
                    ("name", .string(s.name)),
                    ("informational", .bool(true)),
                    ("models", .array(s.models.map { .string($0) })),
                    ("modelsSurvive", .bool(s.survives)),
                    ("outcome", .string(s.outcome.rawValue)),
                    ("tag", .string(s.tag)),
                    ("breakingProperties", .array(s.breakingProperties.map { .string($0) })),
                    ("crashingFunctions", .array(s.crashingFunctions.map { .string($0) })),
                    ("gapsUsed", .array(s.gapsUsed.map { .string($0) })),
                    ("violations", .integer(s.violations.count)),
                    ("transportErrors", .integer(s.transportErrors)),
                    ("statuses", .object(JSONObject(s.statuses.sorted { $0.key < $1.key }.map { (String($0.key), JSONValue.integer($0.value)) }))),
                    ("modelBreaks", .array(s.modelBreaks.map(failure))),
                    ("results", .array(s.results.map(result))),
                ]))
            })),
        ]))
    }
}
