import Dispatch
import Foundation
import Scenarios
import VietMapSimulator

/// The scenario part of `serve`: reads `--scenarios DIR` (default `./Scenarios` when that
/// folder exists), `--scenario NAME`, `--seed N` and `--admin` into the simulator's
/// configuration; once started, prints what was loaded and from where, and reloads the folder
/// on SIGHUP (the simulator polls it every second). The built-in scenarios are always there.
///
/// Messages go to stderr: stdout's first line stays the ready line.
final class ServeScenarios {
    static let options: [OptionSpec] = [
        .option("scenarios", "DIR", "scenario files that add to the built-in ones (embedded in the binary) or override them by name (default ./Scenarios when it exists); reloaded when they change (polled every second) and on SIGHUP. A file of the folder that does not load stops the start (one line: file, place, reason)"),
        .flag("skip-broken-scenarios", "start anyway, without the files that do not load (each reported; a request for one gets a 401 saying its file does not load)"),
        .option("scenario", "NAME", "server-wide default scenario (once). Per request: apikey=scenario:NAME[@TAG], the path prefix /__scenario/NAME[@TAG]/… or the header X-VietMap-Sim-Scenario: NAME[@TAG]; the request must also carry a non-empty apikey (else 401), with --api-key K that is K (apikey=K, or apikey=scenario:NAME[@TAG]:K). Spelled only with letters, digits, '-', '_' and '.' (what every SDK's URL builder passes unchanged): apikey=scenario.NAME[__TAG[__K]]"),
        .option("scenario-key", "KEY=NAME[@TAG]", repeatable: true,
                "requests with the plain API key KEY get scenario NAME (for apps whose key is baked in); repeatable"),
        .option("seed", "N", .unsigned, "seed for every scenario's random choices (overrides the files' seeds)"),
        .flag("admin", "serve the admin API and request journal under /__sim/ and the dashboard at /__sim/ui/ (loopback Host only, same-origin, POSTs need X-VietMap-Sim-Admin: 1 or a JSON Content-Type; never through --proxy)"),
        .option("admin-token", "T", .nonEmpty, "with --admin: the admin API also needs Authorization: Bearer T (with a non-loopback --host and no --admin-token, a token is made up and printed at start)"),
    ]

    let directory: URL?
    let defaultScenario: String?
    let seed: UInt64?
    let admin: Bool
    let adminToken: String?
    /// `--scenario-key KEY=NAME[@TAG]`, repeatable.
    let boundKeys: [String: String]
    private var hangup: (any DispatchSourceSignal)?

    init(options: CommandLineArguments) throws {
        let names = options.all("scenario")
        guard names.count <= 1 else {
            throw UsageError("--scenario can be given once; put the rules you need in one scenario file")
        }
        defaultScenario = names.first
        seed = options.unsigned("seed")
        if let path = options.value("scenarios") {
            guard Self.isDirectory(path) else { throw CLIError("scenarios folder not found: \(path)") }
            directory = URL(fileURLWithPath: path)
        } else if Self.isDirectory("Scenarios") {
            directory = URL(fileURLWithPath: "Scenarios")
        } else {
            directory = nil
        }
        // A scenario file that does not load stops the start (a test run would otherwise get
        // 401s for it), unless --skip-broken-scenarios: then it is reported and left out.
        if let directory, !options.has("skip-broken-scenarios") {
            let issues = ScenarioLibrary.load(directory: directory).issues
            if let last = issues.last {
                for issue in issues.dropLast() { Self.log("scenario problem: \(issue)") }
                throw CLIError("\(last) — serve does not start with a scenario file that does not load; fix it (`vietmap-sim scenarios validate`) or add --skip-broken-scenarios")
            }
        }
        var boundKeys: [String: String] = [:]
        for binding in options.all("scenario-key") {
            guard let equals = binding.firstIndex(of: "="), equals != binding.startIndex,
                  binding.index(after: equals) != binding.endIndex else {
                throw UsageError("--scenario-key must be KEY=NAME[@TAG] (a plain API key bound to a scenario), got '\(binding.prefix(80))'")
            }
            let key = String(binding[..<equals])
            guard boundKeys[key] == nil else {
                throw UsageError("--scenario-key binds '\(key.prefix(80))' twice")
            }
            boundKeys[key] = String(binding[binding.index(after: equals)...])
        }
        self.boundKeys = boundKeys
        admin = options.has("admin")
        adminToken = options.value("admin-token")
        if adminToken != nil && !admin {
            throw UsageError("--admin-token needs --admin")
        }
    }

    func apply(to configuration: inout SimulatorServer.Configuration) {
        configuration.scenariosDirectory = directory
        configuration.watchScenarios = directory != nil
        configuration.defaultScenario = defaultScenario
        configuration.scenarioKeys = boundKeys
        configuration.seed = seed
        configuration.adminEnabled = admin
        configuration.adminToken = adminToken
    }

    /// Start-up output and SIGHUP reloading for a started simulator.
    func started(_ simulator: SimulatorServer) {
        Self.report(simulator.scenarioIssues)
        Self.log(simulator.scenarioSummary
            + (defaultScenario.map { ", default scenario '\($0)'" } ?? "")
            + (admin ? ", admin API under /__sim/, dashboard at /__sim/ui/" : ""))
        if let token = simulator.adminToken, simulator.adminTokenGenerated {
            Self.log("admin token: \(token) — --host \(simulator.configuration.host) is not a loopback address, so the admin API "
                + "needs 'Authorization: Bearer \(token)' (dashboard: \(simulator.baseURL.absoluteString)/__sim/ui/#token=\(token)); "
                + "choose your own with --admin-token")
        }
        if directory != nil { hangup = Self.reloadOnHangup(simulator.engine) }
    }

    func stop() {
        hangup?.cancel()
    }

    private static func reloadOnHangup(_ engine: ScenarioEngine) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            let issues = engine.reload()
            report(issues)
            log("reloaded: \(engine.library.scenarios.count) scenarios")
        }
        source.resume()
        return source
    }

    private static func report(_ issues: [ScenarioIssue]) {
        for issue in issues { log("scenario problem: \(issue)") }
    }

    private static func log(_ message: String) {
        FileHandle.standardError.write(Data("vietmap-sim: \(message)\n".utf8))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
