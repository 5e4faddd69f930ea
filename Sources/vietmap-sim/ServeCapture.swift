import Capture
import Foundation
import HTTPServer
import VietMapAPI
import VietMapClient

/// The capture part of `serve` (docs/capture.md): `--upstream URL|live` with `--upstream-key KEY`
/// (or `$VIETMAP_API_KEY`), `--upstream-timeout S`, `--upstream-max-body BYTES`, `--record DIR`; `--replay DIR` with
/// `--replay-timing`; `--fallback simulator` for either. Without these the service answers alone.
struct ServeCapture {
    static let valuedOptions = ["upstream", "upstream-key", "upstream-timeout", "upstream-max-body", "fallback", "record", "replay"]
    static let booleanOptions = ["replay-timing"]

    /// The largest `--upstream-max-body`, 1 GiB: a body is held in memory (and recorded) whole.
    static let maxBodyLimit = 1 << 30

    enum Mode {
        case simulator
        case upstream(UpstreamProxy.Configuration, record: URL?)
        case replay(URL, timing: Bool)
    }

    let mode: Mode
    let fallback: Bool

    /// Whether an upstream or recordings answer the endpoints instead of the simulator.
    var answersEndpoints: Bool {
        if case .simulator = mode { return false }
        return true
    }

    init(options: CommandLineArguments, apiKeys: Set<String>, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        typealias UsageError = CommandLineArguments.UsageError
        let upstream = options.value("upstream"), replay = options.value("replay")
        if let value = options.value("fallback"), value != "simulator" {
            throw UsageError(description: "--fallback takes 'simulator', got '\(value.prefix(40))'")
        }
        fallback = options.value("fallback") != nil
        if upstream != nil && replay != nil { throw UsageError(description: "--upstream and --replay cannot be combined") }
        if upstream == nil {
            for name in ["upstream-key", "upstream-timeout", "upstream-max-body", "record"] where options.value(name) != nil {
                throw UsageError(description: "--\(name) needs --upstream URL|live")
            }
        }
        if replay == nil && options.has("replay-timing") { throw UsageError(description: "--replay-timing needs --replay DIR") }
        if upstream == nil && replay == nil && fallback { throw UsageError(description: "--fallback needs --upstream or --replay") }

        if let upstream {
            let baseURL: URL
            if upstream == "live" {
                baseURL = UpstreamProxy.liveBaseURL
            } else {
                guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
                      url.query == nil else {
                    throw UsageError(description: "--upstream takes 'live' or a base URL such as http://127.0.0.1:8081, got '\(upstream.prefix(80))'")
                }
                baseURL = url
            }
            let key = options.value("upstream-key") ?? environment["VIETMAP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            if upstream == "live" && key == nil {
                throw UsageError(description: "--upstream live needs a key: --upstream-key KEY or the environment variable VIETMAP_API_KEY")
            }
            var timeout: TimeInterval = 10
            if let text = options.value("upstream-timeout") {
                // Whole seconds, as the option has always taken them.
                guard let value = Int(text), (1...300).contains(value) else {
                    throw UsageError(description: "--upstream-timeout must be a whole number of seconds from 1 to 300, got '\(text.prefix(40))'")
                }
                timeout = TimeInterval(value)
            }
            var maxBody = UpstreamClient.defaultMaxBodyBytes
            if let text = options.value("upstream-max-body") {
                guard let value = Int(text), (1...Self.maxBodyLimit).contains(value) else {
                    throw UsageError(description: "--upstream-max-body must be a number of bytes from 1 to \(Self.maxBodyLimit), got '\(text.prefix(40))'")
                }
                maxBody = value
            }
            let record = options.value("record").map { URL(fileURLWithPath: $0, isDirectory: true) }
            mode = .upstream(UpstreamProxy.Configuration(baseURL: baseURL, upstreamKey: key, timeout: timeout, apiKeys: apiKeys,
                                                                maxBodyBytes: maxBody), record: record)
        } else if let replay {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: replay, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError("recordings folder not found: \(replay)")
            }
            mode = .replay(URL(fileURLWithPath: replay, isDirectory: true), timing: options.has("replay-timing"))
        } else {
            mode = .simulator
        }
    }

    /// The responder that answers the endpoints (scenarios are applied around it), and one line
    /// for stderr saying what it does (nil for the plain simulator). The upstream key is never in it.
    func responder(service: VietMapService, apiKeys: Set<String>) throws -> (any HTTPResponder, String?) {
        let simulator: (any HTTPResponder)? = fallback ? service : nil
        let fallbackNote = fallback ? ", falling back to the simulator" : ""
        switch mode {
        case .simulator:
            return (service, nil)
        case .upstream(let configuration, let record):
            let recorder = try record.map { directory in
                do {
                    return try ExchangeRecorder(directory: directory, notice: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
                } catch {
                    throw CLIError("cannot create the recordings folder \(directory.path): \(error.localizedDescription)")
                }
            }
            let proxy = UpstreamProxy(configuration: configuration, recorder: recorder, fallback: simulator,
                                      warning: { line in FileHandle.standardError.write(Data("vietmap-sim: \(line)\n".utf8)) })
            let note = "forwarding the endpoints to \(configuration.baseURL.absoluteString) (upstream key \(configuration.upstreamKey == nil ? "none" : "set"))"
                + (record.map { ", recording into \($0.path)" } ?? "") + fallbackNote
            return (proxy, note)
        case .replay(let directory, let timing):
            let replay: ReplayResponder
            do {
                replay = try ReplayResponder(directory: directory, timing: timing, apiKeys: apiKeys, fallback: simulator)
            } catch {
                throw CLIError("\(error)")
            }
            let note = "replaying \(replay.recordings.recordings.count) recordings from \(directory.path)"
                + (timing ? " with their latency" : "") + fallbackNote
            return (replay, note)
        }
    }
}
