import Foundation
import JSON

/// What an app is expected to do under each scenario: survive it, have its models break on it
/// (and on which properties), or have its code crash on it (and which functions). A scenario
/// run whose outcome differs from its expectation — in either direction — fails the test, naming
/// the scenario, the query, the property or function, the JSON pointer and the input.
///
/// In code (scenarios not listed are expected to survive):
///
/// ```swift
/// let expected = ScenarioBaseline([
///     "autocomplete-no-ref-id": .breaksModels("VMSearchItem.refId"),
///     "malformed-polyline": .crashes("decodePolyline"),
/// ])
/// ```
///
/// Or in a file a first run writes (`ScenarioBaseline(file:)`): when the file does not exist, the
/// run records what it saw into it and passes (commit the file); with `VIETMAP_SIM_UPDATE_BASELINE=1`
/// the run rewrites it; under CI (`CI` set) a missing file is a failure instead, so a baseline is
/// never silently made up on a CI machine.
public struct ScenarioBaseline: Sendable, Equatable {
    /// How a scenario ends for the app.
    public enum Outcome: String, Sendable, Comparable, CaseIterable {
        /// Every answer the app decodes decodes; its code never crashes or hangs.
        case survives
        /// A 200 answer the app's models cannot decode (no crash).
        case breaksModels = "breaks-models"
        /// The app's code (its decoding or polyline decoder) crashes or hangs.
        case crashes

        public static func < (a: Outcome, b: Outcome) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        /// How reports spell it.
        var label: String {
            switch self {
            case .survives: return "survives"
            case .breaksModels: return "MODELS BREAK"
            case .crashes: return "APP CODE CRASH"
            }
        }
    }

    /// The expectation for one scenario.
    public struct Entry: Sendable, Equatable {
        public var outcome: Outcome
        /// The model properties (`VMSearchItem.refId`) expected to break; nil: any.
        public var properties: [String]?
        /// The functions (`decodePolyline`) expected to crash or hang; nil: any.
        public var functions: [String]?

        public init(_ outcome: Outcome, properties: [String]? = nil, functions: [String]? = nil) {
            self.outcome = outcome
            self.properties = properties.map { Array(Set($0)).sorted() }
            self.functions = functions.map { Array(Set($0)).sorted() }
        }

        /// The app survives the scenario.
        public static let survives = Entry(.survives)
        /// The app's models break on these properties (none given: on any).
        public static func breaksModels(_ properties: String...) -> Entry {
            Entry(.breaksModels, properties: properties.isEmpty ? nil : properties)
        }
        /// The app's code crashes (or hangs) in these functions (none given: in any).
        public static func crashes(_ functions: String...) -> Entry {
            Entry(.crashes, functions: functions.isEmpty ? nil : functions)
        }
    }

    /// Expectations by scenario name; a scenario not listed is expected to survive.
    public var entries: [String: Entry]
    /// The file the baseline lives in (`init(file:)`), nil for one given in code.
    public let file: URL?

    /// A baseline in code.
    public init(_ entries: [String: Entry] = [:]) {
        self.entries = entries
        self.file = nil
    }

    /// The baseline in `file` (JSON, see `Contracts/README.md`); loaded when the run compares.
    public init(file: URL) {
        self.entries = [:]
        self.file = file
    }

    /// `ScenarioBaseline(fileBeside: #filePath, named: "scenario-baseline.json")`: a file next to the
    /// test source, so it is committed with the test.
    public init(fileBeside sourceFile: String, named name: String = "scenario-baseline.json") {
        self.init(file: URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent(name))
    }

    // MARK: - Comparing

    /// The comparison of a run's scenarios with the baseline.
    package struct Verdict: Sendable {
        package var failures: [ContractFailure] = []
        /// What the report says about the baseline (loaded from, written to, …).
        package var notes: [String] = []
    }

    /// Compares `reports` with the expectations (loading, or writing on a first run, the file).
    package func compare(_ reports: [ScenarioReport], seed: UInt64, environment: [String: String]) -> Verdict {
        var verdict = Verdict()
        var expected = entries
        if let file {
            let exists = FileManager.default.fileExists(atPath: file.path)
            let update = ["1", "true", "yes"].contains(environment["VIETMAP_SIM_UPDATE_BASELINE"]?.lowercased() ?? "")
            if !exists || update {
                if !exists, environment["CI"].map({ !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" }) == true, !update {
                    verdict.failures.append(ContractFailure(query: "baseline", kind: .baseline,
                        reason: "no scenario baseline at \(file.path) — on CI it is never written; run the test once locally (it writes the file) and commit it"))
                    return verdict
                }
                do {
                    try Self.write(reports, seed: seed, to: file)
                    verdict.notes.append("baseline \(exists ? "rewritten" : "written") (\(reports.count) scenarios): \(file.path) — commit it; later runs fail when an outcome differs")
                } catch {
                    verdict.failures.append(ContractFailure(query: "baseline", kind: .baseline, reason: "could not write \(file.path): \(error)"))
                }
                return verdict
            }
            do {
                expected = try Self.load(file)
                verdict.notes.append("baseline: \(file.path) (\(expected.count) scenarios)")
            } catch {
                verdict.failures.append(ContractFailure(query: "baseline", kind: .baseline, reason: "\(file.path): \(error)"))
                return verdict
            }
        }
        let run = Set(reports.map(\.name))
        for name in expected.keys.sorted() where !run.contains(name) {
            verdict.failures.append(ContractFailure(query: "scenario \(name)", kind: .baseline,
                reason: "the baseline expects '\(name)', which the target does not offer (renamed or removed? delete the entry)"))
        }
        for report in reports {
            let entry = expected[report.name] ?? .survives
            if let note = Self.unobservable(report, expected: entry) {
                verdict.notes.append(note)
                continue
            }
            verdict.failures += Self.differences(report, expected: entry)
        }
        return verdict
    }

    /// Why an expected crash cannot be checked: the run was in-process and the app's functions the
    /// baseline expects to crash were not given the inputs that could trap them. Nil otherwise.
    static func unobservable(_ report: ScenarioReport, expected: Entry) -> String? {
        guard report.isolation == .inProcess, expected.outcome == .crashes, report.outcome != .crashes else { return nil }
        let unobserved = report.unobservedFunctions
        guard !unobserved.isEmpty, (expected.functions ?? unobserved).allSatisfy(unobserved.contains) else { return nil }
        let evidence = report.unobserved[0]
        return "scenario \(report.name): expected APP CODE CRASH (\(unobserved.joined(separator: ", "))) — not observable in-process, not checked: "
            + "\(evidence.query) \(evidence.pointer): \(evidence.reason)"
    }

    /// The ways `report` differs from `expected`: its outcome, then properties / functions.
    static func differences(_ report: ScenarioReport, expected: Entry) -> [ContractFailure] {
        let actual = report.outcome
        let scenario = "scenario \(report.name)"
        func line(_ reason: String, _ evidence: ContractFailure?) -> ContractFailure {
            let tail = evidence.map { " — \($0.query) \($0.pointer.isEmpty ? "/" : $0.pointer): \($0.reason)" } ?? ""
            return ContractFailure(query: scenario, kind: .baseline, reason: reason + tail, property: evidence?.property, function: evidence?.function)
        }
        if actual != expected.outcome {
            let now = describe(actual, properties: report.breakingProperties, functions: report.crashingFunctions)
            let was = describe(expected.outcome, properties: expected.properties ?? [], functions: expected.functions ?? [])
            let evidence = actual == .survives ? nil : (report.crashes.first ?? report.modelBreaks.first)
            let hint = actual == .survives ? " (fixed? update the baseline)" : ""
            return [line("expected \(was), now \(now)\(hint)", evidence)]
        }
        var out: [ContractFailure] = []
        func compare(_ expected: [String]?, _ now: [String], breaks verb: String, evidence: (String) -> ContractFailure?) {
            guard let expected else { return }
            for name in now where !expected.contains(name) {
                out.append(line("now also \(verb) \(name) (the baseline expects \(expected.joined(separator: ", ")))", evidence(name)))
            }
            for name in expected where !now.contains(name) {
                out.append(line("no longer \(verb) \(name) (fixed? update the baseline)", nil))
            }
        }
        compare(expected.properties, report.breakingProperties, breaks: "breaks") { name in report.modelBreaks.first { $0.property == name } }
        compare(expected.functions, report.crashingFunctions, breaks: "crashes in") { name in report.crashes.first { $0.function == name } }
        return out
    }

    static func describe(_ outcome: Outcome, properties: [String], functions: [String]) -> String {
        switch outcome {
        case .survives: return "survives"
        case .breaksModels: return "MODELS BREAK" + (properties.isEmpty ? "" : " (\(properties.joined(separator: ", ")))")
        case .crashes: return "APP CODE CRASH" + (functions.isEmpty ? "" : " (\(functions.joined(separator: ", ")))")
        }
    }

    // MARK: - File

    /// The file's text: keys sorted, one scenario per line, so a diff shows what changed.
    static func text(_ reports: [ScenarioReport], seed: UInt64) -> String {
        var lines = [
            "{",
            "  \"about\": \"Expected outcomes of vietmap-sim's scenarios for this app's models and decoders, written by ContractKit. A scenario whose outcome differs fails the test. Edit an entry to change an expectation; VIETMAP_SIM_UPDATE_BASELINE=1 rewrites the file from a run.\",",
            "  \"seed\": \(seed),",
            "  \"scenarios\": {",
        ]
        let sorted = reports.sorted { $0.name < $1.name }
        for (index, report) in sorted.enumerated() {
            var members: [(String, JSONValue)] = [("outcome", .string(report.outcome.rawValue))]
            switch report.outcome {
            case .survives: break
            case .breaksModels: members.append(("properties", .array(report.breakingProperties.map { .string($0) })))
            case .crashes:
                members.append(("functions", .array(report.crashingFunctions.map { .string($0) })))
                if !report.breakingProperties.isEmpty { members.append(("properties", .array(report.breakingProperties.map { .string($0) }))) }
            }
            if !report.gapsUsed.isEmpty { members.append(("throughGaps", .array(report.gapsUsed.map { .string($0) }))) }
            let value = JSONSerializer.string(.object(JSONObject(members)))
            lines.append("    \(JSONSerializer.string(.string(report.name))): \(value)\(index == sorted.count - 1 ? "" : ",")")
        }
        lines += ["  }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// Writes the file whole or not at all (a temporary file renamed over it).
    static func write(_ reports: [ScenarioReport], seed: UInt64, to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        try Data(text(reports, seed: seed).utf8).write(to: temporary)
        if rename(temporary.path, file.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ContractError("rename to \(file.path): \(reason)")
        }
    }

    /// Reads a baseline file; every problem is one line naming the entry.
    static func load(_ file: URL) throws -> [String: Entry] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Data(contentsOf: file))
        } catch {
            throw ContractError("not a JSON baseline: \(error)")
        }
        guard let scenarios = json["scenarios"]?.objectValue else {
            throw ContractError("a baseline needs \"scenarios\": {NAME: {\"outcome\": \"survives\" | \"breaks-models\" | \"crashes\"}}")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in scenarios.members {
            guard let text = value["outcome"]?.stringValue, let outcome = Outcome(rawValue: text) else {
                throw ContractError("scenario '\(name)': \"outcome\" must be one of survives, breaks-models, crashes")
            }
            func strings(_ key: String) throws -> [String]? {
                guard let raw = value[key] else { return nil }
                guard let items = raw.arrayValue?.compactMap(\.stringValue), items.count == raw.arrayValue?.count else {
                    throw ContractError("scenario '\(name)': \"\(key)\" must be an array of strings")
                }
                return items
            }
            entries[name] = Entry(outcome, properties: try strings("properties"), functions: try strings("functions"))
        }
        return entries
    }
}
