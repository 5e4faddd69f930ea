import Capture
import Foundation
import HARImport
import JSON
import Scenarios
import VietMapClient

/// `vietmap-sim scenarios from-har FILE.har [--out FILE.json] [--name NAME] [--host HOST…]
/// [--unmatched simulate|not-found] [--timing wait|total|none] [--max-inflated SIZE] [--max-entries N]
/// [--max-output SIZE]` and
/// `vietmap-sim scenarios from-recording DIR [--out FILE.json] [--name NAME] [--unmatched …]`:
/// a scenario that replays the captured VietMap exchanges (`ReplayScenario`; docs/replay.md).
/// The document is validated before it is written; `--out` is written to a temporary file and
/// renamed, so a failure leaves nothing behind; `--out` is checked before the HAR is read. The
/// HAR is read within a ``HARBudget`` (the `--max-*` options); going over is one line naming the
/// entry. A summary line goes to stderr, after one warning line per entry whose latency was cut
/// to the 10-minute delay limit.
enum ScenariosFromCapture {
    static func runHAR(_ options: CommandLineArguments) throws -> Int32 {
        let path = options.positionals[0]  // exactly one (declared)
        let unmatched = ReplayScenario.Unmatched(rawValue: options.value("unmatched") ?? "simulate")!  // a declared choice
        let timingName = options.value("timing") ?? "wait"
        let timing = HARImport.Timing(rawValue: timingName) ?? .wait  // none: no delays, latencies still read
        let file = URL(fileURLWithPath: path)
        let name = try scenarioName(options.value("name"), file: file)
        let givenHosts = options.all("host")
        let hosts = givenHosts.contains("*") ? [] : (givenHosts.isEmpty ? HARImport.defaultHosts : givenHosts)
        var budget = HARBudget.standard
        if let text = options.value("max-inflated") { budget.maxInflatedBytes = try SizeOption.bytes(text, option: "max-inflated") }
        if let text = options.value("max-output") { budget.maxOutputBytes = try SizeOption.bytes(text, option: "max-output") }
        if let count = options.integer("max-entries") { budget.maxEntries = count }
        if let out = options.value("out") { try OutputPath.check(out) }

        let result: HARImport.Result
        do {
            result = try HARImport.read(contentsOf: file, options: .init(hosts: hosts, timing: timing, budget: budget))
        } catch {
            throw CLIError("\(path): \(error)")
        }
        if timingName != "none" { warnClamped(result.clampedLatencies, path: path) }
        // Refused before the document is built when the bodies alone cannot fit the output budget.
        var least = 0
        for exchange in result.exchanges {
            guard case .response(let response) = exchange.outcome else { continue }
            least += HARBudget.minimumScenarioBytes(of: response.body)
            if least > budget.maxOutputBytes {
                throw CLIError("\(path): \(exchange.origin) (/log/entries/\(exchange.origin.split(separator: " ").last ?? "")): the scenario made from it would be larger than \(HARBudget.describe(bytes: budget.maxOutputBytes)) (its bodies written out take at least \(HARBudget.describe(bytes: least)) up to here); nothing written (--max-output raises the limit)")
            }
        }
        guard !result.exchanges.isEmpty else {
            let seen = result.otherHosts.isEmpty ? "" : "; VietMap paths were seen on \(result.otherHosts.prefix(5).joined(separator: ", ")) (add --host HOST, or --host '*')"
            throw CLIError("\(path): none of its \(result.entryCount) entries is a GET /api/autocomplete|place|route/v4 on \(hosts.isEmpty ? "any host" : hosts.joined(separator: ", "))\(seen)")
        }
        let count = result.exchanges.count
        let description = "Replays \(count) VietMap exchange\(count == 1 ? "" : "s") captured in \(file.lastPathComponent); other requests get \(unmatched == .notFound ? "404 NOT_FOUND" : "normal answers")."
        let skipped = result.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return try emit(result.exchanges, source: path, entries: "\(count) of \(result.entryCount) entries", skipped: skipped,
                        options: .init(name: name, description: description, unmatched: unmatched, replayTiming: timingName != "none"),
                        out: options.value("out"), command: "from-har", maxOutputBytes: budget.maxOutputBytes)
    }

    static func runRecordings(_ options: CommandLineArguments) throws -> Int32 {
        let path = options.positionals[0]  // exactly one (declared)
        let unmatched = ReplayScenario.Unmatched(rawValue: options.value("unmatched") ?? "simulate")!  // a declared choice
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let name = try scenarioName(options.value("name"), file: folder)
        if let out = options.value("out") { try OutputPath.check(out) }
        let recordings: [VMRecording]
        do {
            recordings = try VMRecording.load(directory: folder)
        } catch {
            throw CLIError("\(error)")
        }
        guard !recordings.isEmpty else { throw CLIError("\(path): no recordings") }
        let description = "Replays \(recordings.count) VietMap exchange\(recordings.count == 1 ? "" : "s") recorded in \(folder.lastPathComponent); other requests get \(unmatched == .notFound ? "404 NOT_FOUND" : "normal answers")."
        return try emit(ReplayScenarioBuilder.exchanges(from: recordings), source: path, entries: "\(recordings.count) recordings", skipped: [],
                        options: .init(name: name, description: description, unmatched: unmatched), out: options.value("out"),
                        command: "from-recording", maxOutputBytes: HARBudget.standard.maxOutputBytes)
    }

    /// One warning line per entry whose latency is replayed as the 10-minute maximum (five at most, then a count).
    private static func warnClamped(_ clamped: [(entry: Int, milliseconds: Double)], path: String) {
        let limit = ReplayScenario.maxDelayMilliseconds
        for (entry, milliseconds) in clamped.prefix(5) {
            let shown = milliseconds < 1e15 ? "\(Int(milliseconds.rounded()))" : "\(milliseconds)"
            FileHandle.standardError.write(Data("vietmap-sim: warning: \(path): entry \(entry) (/log/entries/\(entry)): its time \(shown) ms is over the longest delay a scenario holds (\(limit / 60_000) minutes); replayed as \(limit / 60_000) minutes\n".utf8))
        }
        if clamped.count > 5 {
            FileHandle.standardError.write(Data("vietmap-sim: warning: \(path): \(clamped.count - 5) more entries over \(limit / 60_000) minutes, replayed as \(limit / 60_000) minutes\n".utf8))
        }
    }

    /// Builds, validates and writes (or prints) the scenario, refused when longer than
    /// `maxOutputBytes`; the summary goes to stderr.
    private static func emit(_ exchanges: [CapturedExchange], source: String, entries: String, skipped: [String],
                             options: ReplayScenario.Options, out: String?, command: String, maxOutputBytes: Int) throws -> Int32 {
        let document: JSONValue
        do {
            document = try ReplayScenario.document(for: exchanges, options: options)
        } catch {
            throw CLIError("\(source): \(error)")
        }
        let bytes: [UInt8]
        do throws(JSONPrettyPrinter.Overflow) {
            bytes = try JSONPrettyPrinter.bytes(document, limit: maxOutputBytes)
        } catch {
            let components = error.components
            var rule = ""
            if components.count >= 2, components[0] == "rules", let index = Int(components[1]),
               let rules = document["rules"]?.arrayValue, rules.indices.contains(index), let name = rules[index]["name"]?.stringValue {
                rule = " at rule \(index) \"\(name.prefix(120))\" (\(error.pointer))"
            }
            throw CLIError("\(source): the scenario made from it would be larger than \(HARBudget.describe(bytes: maxOutputBytes))\(rule); nothing written (--max-output raises the limit)")
        }
        let text = Data(bytes)
        do {
            _ = try Scenario(json: text)
        } catch {
            throw CLIError("\(source): the scenario made from it does not validate (a bug): \(error.issues.first.map(\.description) ?? "")")
        }
        if let out {
            try AtomicWrite.write(text, to: URL(fileURLWithPath: out))
        } else {
            FileHandle.standardOutput.write(text)
        }
        let rules = document["rules"]?.arrayValue ?? []
        let sequences = rules.filter { $0["sequence"] != nil }.count
        // Appended piece by piece: one `+` chain of optionals and ternaries took the type checker 16 s.
        var summary = "\(command): \(source): \(entries) → \(rules.count) rule\(rules.count == 1 ? "" : "s")"
        if sequences > 0 { summary += " (\(sequences) sequence\(sequences == 1 ? "" : "s"))" }
        if !skipped.isEmpty { summary += "; skipped: " + skipped.joined(separator: ", ") }
        if let out { summary += "; wrote \(out)" }
        summary += "\n"
        FileHandle.standardError.write(Data(summary.utf8))
        return 0
    }

    /// `--name`, else the file's name: `field bug.har` → `field-bug`.
    private static func scenarioName(_ given: String?, file: URL) throws -> String {
        if let given {
            guard given.range(of: "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$", options: .regularExpression) != nil else {
                throw UsageError("--name must be 1–100 letters, digits, '.', '_' or '-' starting with a letter or digit, got '\(given.prefix(120))'")
            }
            return given
        }
        let base = file.pathExtension.lowercased() == "har" ? file.deletingPathExtension().lastPathComponent : file.lastPathComponent
        var name = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
        while let first = name.first, !(first.isLetter || first.isNumber) { name.removeFirst() }
        return name.isEmpty ? "replay" : String(name.prefix(100))
    }
}
