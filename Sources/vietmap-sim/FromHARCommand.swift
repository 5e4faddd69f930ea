import Foundation
import HARImport
import JSON
import Scenarios

/// `vietmap-sim scenarios from-har FILE.har [--out FILE.json] [--name NAME] [--host HOST…]
/// [--unmatched simulate|not-found] [--timing wait|total|none]`: a scenario that replays the
/// HAR's VietMap exchanges. The document is validated before it is written; `--out` is
/// written to a temporary file and renamed, so a failure leaves nothing behind.
enum FromHARCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valued: ["out", "name", "host", "unmatched", "timing"], boolean: ["help"])
        if options.has("help") { print(Usage.scenarios); return 0 }
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw CommandLineArguments.UsageError(description: "scenarios from-har needs exactly one HAR file")
        }
        let unmatched = try choice(options.value("unmatched") ?? "simulate", of: ReplayScenario.Unmatched.self, option: "unmatched")
        let timingName = options.value("timing") ?? "wait"
        let timing = timingName == "none" ? HARImport.Timing.wait : try choice(timingName, of: HARImport.Timing.self, option: "timing",
                                                                                extra: ["none"])
        let file = URL(fileURLWithPath: path)
        let name = options.value("name") ?? defaultName(for: file)
        guard name.range(of: "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$", options: .regularExpression) != nil else {
            throw CommandLineArguments.UsageError(description: "--name must be 1–100 letters, digits, '.', '_' or '-' starting with a letter or digit")
        }

        let result: HARImport.Result
        do {
            result = try HARImport.read(contentsOf: file, options: .init(hosts: options.all("host"), timing: timing))
        } catch {
            throw CLIError("\(path): \(error)")
        }
        guard !result.exchanges.isEmpty else {
            let hosts = options.all("host").isEmpty ? "" : " on \(options.all("host").joined(separator: ", "))"
            throw CLIError("\(path): none of its \(result.entryCount) entries is a VietMap request (/api/autocomplete|place|route/v4\(hosts))")
        }
        let description = "Replays \(result.exchanges.count) VietMap exchange\(result.exchanges.count == 1 ? "" : "s") captured in \(file.lastPathComponent)."
        let document: JSONValue
        do {
            document = try ReplayScenario.document(for: result.exchanges, options: .init(
                name: name, description: description, unmatched: unmatched, replayTiming: timingName != "none"))
        } catch {
            throw CLIError("\(path): \(error)")
        }
        let text = JSONPrettyPrinter.string(document)
        do {
            _ = try Scenario(json: Data(text.utf8))
        } catch {
            throw CLIError("\(path): the scenario made from it does not validate (a bug): \(error.issues.first.map(\.description) ?? "")")
        }

        if let out = options.value("out") {
            try write(text, to: URL(fileURLWithPath: out))
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        let rules = document["rules"]?.arrayValue ?? []
        let sequences = rules.filter { $0["sequence"] != nil }.count
        let skipped = result.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        let summary = "from-har: \(path): \(result.exchanges.count) of \(result.entryCount) entries → \(rules.count) rule\(rules.count == 1 ? "" : "s")"
            + (sequences > 0 ? " (\(sequences) sequence\(sequences == 1 ? "" : "s"))" : "")
            + (skipped.isEmpty ? "" : "; skipped: " + skipped.joined(separator: ", "))
            + (options.value("out").map { "; wrote \($0)" } ?? "")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }

    /// `field-bug.har` → `field-bug`; characters a scenario name cannot hold become `-`.
    static func defaultName(for file: URL) -> String {
        let base = file.deletingPathExtension().lastPathComponent
        var name = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
        while let first = name.first, !(first.isLetter || first.isNumber) { name.removeFirst() }
        return name.isEmpty ? "har-replay" : String(name.prefix(100))
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ value: String, of type: T.Type, option: String,
                                                                    extra: [String] = []) throws -> T where T.RawValue == String {
        if let parsed = T(rawValue: value) { return parsed }
        let allowed = T.allCases.map(\.rawValue) + extra
        throw CommandLineArguments.UsageError(description: "--\(option) must be one of \(allowed.joined(separator: ", ")), found '\(value)'")
    }

    /// Writes next to the destination, then renames: readers never see half a file.
    private static func write(_ text: String, to destination: URL) throws {
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            if FileManager.default.fileExists(atPath: destination.path) {
                _ = try FileManager.default.replaceItemAt(destination, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: destination)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("cannot write \(destination.path): \((error as NSError).localizedDescription)")
        }
    }
}
