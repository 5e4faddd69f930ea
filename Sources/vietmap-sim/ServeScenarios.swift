import Dispatch
import Foundation
import HTTPServer
import Scenarios
import VietMapAPI

/// The scenario part of `serve`: reads `--scenarios DIR` (default `./Scenarios` when that
/// folder exists), `--scenario NAME`, `--seed N` and `--admin`, builds the `ScenarioEngine`,
/// watches the folder (poll every second, and on SIGHUP) and wraps the service with it.
/// Without a folder and without those options the service runs unwrapped.
///
/// Messages go to stderr: stdout's first line stays the ready line.
final class ServeScenarios {

    let engine: ScenarioEngine?
    private var hangup: DispatchSourceSignal?

    init(options: CommandLineArguments, apiKeys: [String], host: String) throws {
        let names = options.all("scenario")
        guard names.count <= 1 else {
            throw CommandLineArguments.UsageError(description: "--scenario can be given once; put the rules you need in one scenario file")
        }
        var seed: UInt64?
        if let text = options.value("seed") {
            guard let value = UInt64(text) else {
                throw CommandLineArguments.UsageError(description: "--seed must be a whole number from 0 to 2^64-1, got '\(text)'")
            }
            seed = value
        }
        var directory: URL?
        if let path = options.value("scenarios") {
            guard Self.isDirectory(path) else { throw CLIError("scenarios folder not found: \(path)") }
            directory = URL(fileURLWithPath: path)
        } else if Self.isDirectory("Scenarios") {
            directory = URL(fileURLWithPath: "Scenarios")
        }
        let admin = options.has("admin")
        let adminToken = options.value("admin-token")
        if let adminToken, adminToken.isEmpty || !admin {
            throw CommandLineArguments.UsageError(description: adminToken.isEmpty ? "--admin-token must not be empty" : "--admin-token needs --admin")
        }
        guard directory != nil || admin || !names.isEmpty || seed != nil else {
            engine = nil
            return
        }
        if let name = names.first, directory == nil {
            throw CLIError("--scenario \(name) needs a scenarios folder: give --scenarios DIR or start in a folder containing Scenarios/")
        }

        let configuration = ScenarioEngine.Configuration(directory: directory, seed: seed, adminEnabled: admin,
                                                         apiKeys: Set(apiKeys), adminToken: adminToken, adminHosts: [host])
        let engine = ScenarioEngine(configuration: configuration)
        Self.report(engine.library.issues)
        if let name = names.first {
            do {
                try engine.activate(name)
            } catch {
                let known = engine.library.scenarios.map(\.name).joined(separator: ", ")
                throw CLIError("\(error) in \(directory?.path ?? "?") (loaded: \(known.isEmpty ? "none" : known))")
            }
        }
        self.engine = engine
        if directory != nil {
            engine.startWatching(interval: 1)
            hangup = Self.reloadOnHangup(engine)
        }
        Self.log("\(engine.library.scenarios.count) scenarios from \(directory?.path ?? "nowhere")"
            + (names.first.map { ", default scenario '\($0)'" } ?? "")
            + (admin ? ", admin API under /__sim/" : ""))
    }

    /// The server's handler: the service behind the engine, or the service alone.
    func handler(for service: VietMapService) -> HTTPHandler {
        guard let engine else { return service.handler }
        return engine.wrap(respond: { service.respond(to: $0) })
    }

    /// The server's handler: `inner` (the service, an upstream, a replay) behind the engine, or alone.
    func handler(wrapping inner: @escaping HTTPHandler) -> HTTPHandler {
        guard let engine else { return inner }
        return engine.wrap(handler: inner)
    }

    func stop() {
        engine?.stopWatching()
        hangup?.cancel()
    }

    private static func reloadOnHangup(_ engine: ScenarioEngine) -> DispatchSourceSignal {
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
