import Capture
import Foundation
import Scenarios
import VietMapClient

/// `vietmap-sim scenarios from-har FILE.har [--out FILE.json] [--name NAME] [--host HOST]…` and
/// `vietmap-sim scenarios from-recording DIR [--out FILE.json] [--name NAME]`: a scenario that
/// replays the captured VietMap exchanges (docs/capture.md). The result is validated before it
/// is written; without --out it goes to stdout.
enum ScenariosFromCapture {
    enum Source { case har, recordings }

    static func run(_ paths: [String], options: CommandLineArguments, from source: Source) throws -> Int32 {
        guard paths.count == 1, let path = paths.first else {
            throw CommandLineArguments.UsageError(description: source == .har ? "scenarios from-har takes one HAR file" : "scenarios from-recording takes one folder")
        }
        let name = options.value("name") ?? ReplayScenarioBuilder.scenarioName(fromFile: path)
        let output: ReplayScenarioBuilder.Output
        do {
            switch source {
            case .har:
                guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
                let hosts = options.all("host").isEmpty ? ReplayScenarioBuilder.defaultHosts : Set(options.all("host"))
                output = try ReplayScenarioBuilder.build(har: data, name: name, source: URL(fileURLWithPath: path).lastPathComponent, hosts: hosts)
            case .recordings:
                let recordings = try VMRecording.load(directory: URL(fileURLWithPath: path, isDirectory: true))
                output = try ReplayScenarioBuilder.build(recordings: recordings, name: name, source: path)
            }
        } catch let error as CLIError {
            throw error
        } catch let error as VMFixtureError {
            throw CLIError("\(error)")
        } catch {
            throw CLIError("\(path): \(error)")
        }
        // Validate through the engine's own loader before anything is written.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("from-har-\(UUID().uuidString).json")
        try Data(output.text.utf8).write(to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = ScenarioLibrary.load(files: [scratch])
        if let issue = library.issues.first {
            throw CLIError("\(path): the scenario made from it does not validate: \(issue)")
        }
        for note in output.notes { FileHandle.standardError.write(Data("vietmap-sim: \(path): \(note)\n".utf8)) }
        let summary = "scenario '\(name)': \(output.exchanges) exchange(s), \(output.ignored) other entr\(output.ignored == 1 ? "y" : "ies") ignored"
        if let out = options.value("out") {
            do {
                try Data(output.text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            } catch {
                throw CLIError("cannot write \(out): \(error.localizedDescription)")
            }
            print("\(summary) → \(out)")
        } else {
            print(output.text, terminator: "")
            FileHandle.standardError.write(Data("vietmap-sim: \(summary)\n".utf8))
        }
        return 0
    }
}
