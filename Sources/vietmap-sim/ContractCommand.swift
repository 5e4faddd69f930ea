import BuiltInScenarios
import ContractKit
import Dispatch
import Foundation
import JSON

/// `vietmap-sim contract`: runs the contract suite (Contracts/) against a simulator URL or the
/// live service and reports; exit 0 when everything holds, 1 on contract failures, 64 on usage errors.
enum ContractCommand {
    static func run(_ options: CommandLineArguments) throws -> Int32 {
        let targetText = options.value("target")!  // required
        let environmentKey = ProcessInfo.processInfo.environment["VIETMAP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let apiKey = options.value("api-key") ?? environmentKey
        let timeout = options.number("timeout") ?? 15
        let seed = options.unsigned("seed") ?? 1
        let decoderTimeout = options.number("decoder-timeout") ?? 10
        if options.value("decoder")?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw UsageError("--decoder needs a command, e.g. --decoder 'node decode.js'")
        }
        let gaps = (options.value("accept-gap") ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if !gaps.isEmpty && options.value("decoder") == nil {
            throw UsageError("--accept-gap needs --decoder (it accepts findings of the app's decoder)")
        }
        let app = options.value("decoder").map { command -> AppContract in
            let decoder = ExternalDecoder(command: command)
            return AppContract(decoder: decoder, acceptedGaps: gaps.map { AcceptedGap(path: $0, property: decoder.name) })
        }
        let baseline = options.value("baseline").map { ScenarioBaseline(file: URL(fileURLWithPath: $0)) }
        let target: ContractSuite.Target
        if targetText == "live" {
            guard let apiKey else {
                throw UsageError("--target live needs an API key: pass --api-key KEY or set VIETMAP_API_KEY")
            }
            if options.has("scenarios") || baseline != nil {
                throw UsageError("--scenarios needs a simulator target (scenarios are the simulator's fault injection)")
            }
            target = .live(apiKey: apiKey)
        } else {
            guard let url = URL(string: targetText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw UsageError("--target must be an http(s) URL or 'live', got '\(targetText)'")
            }
            target = .simulator(url)
        }

        let contracts: Contracts
        do {
            contracts = try Contracts.load(from: options.value("contracts").map { URL(fileURLWithPath: $0) },
                                           queries: options.value("queries").map { URL(fileURLWithPath: $0) })
        } catch {
            throw UsageError("\(error)".replacingOccurrences(of: "\n", with: "; "))
        }
        let suite = try ContractSuite(target: target, contracts: contracts,
                                      options: .init(simulatorAPIKey: apiKey ?? "contract", timeout: timeout,
                                                     appCodeTimeout: decoderTimeout, runPending: options.has("pending"), seed: seed))
        let scenariosDirectory = [URL(fileURLWithPath: "Scenarios"), contracts.directory.deletingLastPathComponent().appendingPathComponent("Scenarios")]
            .first { FileManager.default.fileExists(atPath: $0.path) } ?? BuiltInScenarios.directory
        let wantScenarios = options.has("scenarios") || baseline != nil

        let report = blocking { () async -> ContractReport in
            var report = await suite.run(app: app)
            if wantScenarios {
                do {
                    let names = try await suite.scenarioNames(directory: scenariosDirectory)
                    report.scenarios = await suite.runScenarios(names, app: app)
                    report.scenarioSeed = seed
                    if let baseline {
                        let verdict = baseline.compare(report.scenarios, seed: seed, environment: ProcessInfo.processInfo.environment)
                        report.baselineFailures = verdict.failures
                        report.baselineNotes = verdict.notes
                    }
                } catch {
                    report.scenarioNote = "\(error)"
                    if baseline != nil {
                        report.baselineFailures = [ContractFailure(query: "scenarios", kind: .baseline, reason: "not run: \(error)")]
                    }
                }
            }
            report.gapFailures = ContractSuite.unusedGaps(app?.acceptedGaps ?? [], report: report, scenariosRun: !report.scenarios.isEmpty)
            return report
        }

        print(report.summary())
        if let path = options.value("junit") { try write(report.junitXML(), to: path) }
        if let path = options.value("json") { try write(JSONPrettyPrinter.string(report.json()), to: path) }
        return report.passed ? 0 : 1
    }

    private static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw CLIError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Runs `work` to completion from synchronous code (the CLI's main thread just waits).
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// Written once before the semaphore is signalled, read after the wait.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

extension ContractCommand {
    static let spec = CommandSpec(
        name: "contract",
        summary: "run the contract suite (Contracts/) against a simulator URL or the live service",
        positionals: .none,
        discussion: """
            Runs the contract suite: every query of the corpus (Contracts/queries.json) against the target,
            each answer checked against the OpenAPI document and JSON Schemas, the reference client's models
            (with model agreement) and the semantic checks; the recorded live fixtures are checked too.
            Prints one line per failure (query, JSON path, reason) and a summary.
            Exit status: 0 when everything holds, 1 on contract failures, 64 on usage errors.
            """,
        options: [
            .option("target", "URL|live", required: true, "a simulator (e.g. http://127.0.0.1:8080) or the live VietMap service"),
            .option("api-key", "KEY", .nonEmpty, "API key (default $VIETMAP_API_KEY; required for live; a simulator gets \"contract\" when none is given)"),
            .option("queries", "FILE", "another query corpus (default Contracts/queries.json)"),
            .option("contracts", "DIR", "the contracts folder (default ./Contracts)"),
            .option("junit", "PATH", "also write a JUnit XML report"),
            .option("json", "PATH", "also write a JSON report"),
            .flag("scenarios", "simulator only: run the corpus again under every scenario (apikey=scenario:NAME@TAG:KEY, names from /__sim/scenarios or ./Scenarios) and show what each does to the reference models; without --baseline it never changes the exit status"),
            .option("baseline", "FILE", "simulator only, implies --scenarios: compare each scenario's outcome (survives / breaks-models / crashes) with FILE and exit 1 when one differs; a missing FILE is written from this run (unless $CI is set), VIETMAP_SIM_UPDATE_BASELINE=1 rewrites it"),
            .option("seed", "N", .unsigned, "seed of the scenario runs (default 1): the same seed and target give the same findings on every run"),
            .option("decoder", "COMMAND", "the app's models in any language: COMMAND runs once per answer, as `sh -c 'COMMAND \"$@\"' - ENDPOINT` with the body on stdin and VIETMAP_ENDPOINT, VIETMAP_QUERY, VIETMAP_STATUS set; exit 0 = decoded, another status = a decode failure (stderr's first line the message, \"/json/pointer: message\" names the place), a signal or the timeout = a crash / hang of the app's code (docs/decoders.md)"),
            .option("decoder-timeout", "S", .number(0...Double.greatestFiniteMagnitude, unit: "seconds", above: true), "seconds one decoder run may take (default 10)"),
            .option("accept-gap", "P[,P…]", "with --decoder: JSON pointer patterns (`*` = any element) where the decoder's failures are accepted gaps, e.g. /paths/*/points for an app that never asks for points_encoded=false; a gap that matches nothing fails the run"),
            .flag("pending", "also run the corpus' queries marked \"pending\" (endpoints a corpus marks as not served yet; the shipped corpus has none)"),
            .option("timeout", "S", .number(0...Double.greatestFiniteMagnitude, unit: "seconds", above: true), "per-request timeout in seconds (default 15)"),
        ],
        run: { try run($0) })
}
