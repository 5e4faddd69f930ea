import Capture
import Foundation
import HTTPServer
import VietMapAPI
import VietMapClient

/// The capture part of `serve` (docs/capture.md): `--upstream URL|live` with `--upstream-key KEY`
/// (or `$VIETMAP_API_KEY`), `--upstream-timeout S`, `--upstream-max-body BYTES`, `--record DIR`; `--replay DIR` with
/// `--replay-timing`; `--fallback simulator` for either. Without these the service answers alone.
struct ServeCapture {
    /// The largest `--upstream-max-body`, 1 GiB: a body is held in memory (and recorded) whole.
    static let maxBodyLimit = 1 << 30

    static let options: [OptionSpec] = [
        .option("upstream", "URL|live", "forward every endpoint (maps too) to another backend (a base URL, or `live` = https://maps.vietmap.vn) instead of computing answers; scenarios still apply. The client's key is checked here and never forwarded"),
        .option("upstream-key", "KEY", "with --upstream: key sent upstream (else $VIETMAP_API_KEY; required for `live`); never logged, journalled or recorded"),
        // Whole seconds, as the option has always taken them.
        .option("upstream-timeout", "S", .integer(1...300), "with --upstream: one deadline for the whole upstream exchange, head and body (1–300 whole seconds, default 10); then 504. Redirects are passed on, never followed"),
        .option("upstream-max-body", "BYTES", .integer(1...maxBodyLimit), "with --upstream: most body bytes taken from the upstream, after gzip (default 67108864 = 64 MiB, at most 1 GiB); past it a 502, nothing recorded. Statuses outside 100–599: 502"),
        .option("record", "DIR", "with --upstream: write every upstream exchange to DIR, one file each"),
        .option("replay", "DIR", "answer from the recordings in DIR (identical requests in recorded order); an unrecorded request is a 404 naming the nearest recording"),
        .flag("replay-timing", "with --replay: wait each recording's upstream latency before answering"),
        .option("fallback", "simulator", .choice(["simulator"]), "with --upstream or --replay: answer from the simulator when the upstream fails (unreachable, too slow, past a limit, 5xx) or nothing is recorded; says so in X-VietMap-Sim-Fallback and the journal"),
    ]

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
        let upstream = options.value("upstream"), replay = options.value("replay")
        fallback = options.value("fallback") != nil
        if upstream != nil && replay != nil { throw UsageError("--upstream and --replay cannot be combined") }
        if upstream == nil {
            for name in ["upstream-key", "upstream-timeout", "upstream-max-body", "record"] where options.value(name) != nil {
                throw UsageError("--\(name) needs --upstream URL|live")
            }
        }
        if replay == nil && options.has("replay-timing") { throw UsageError("--replay-timing needs --replay DIR") }
        if upstream == nil && replay == nil && fallback { throw UsageError("--fallback needs --upstream or --replay") }

        if let upstream {
            let baseURL: URL
            if upstream == "live" {
                baseURL = UpstreamProxy.liveBaseURL
            } else {
                guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
                      url.query == nil else {
                    throw UsageError("--upstream must be 'live' or a base URL such as http://127.0.0.1:8081, got '\(upstream.prefix(80))'")
                }
                baseURL = url
            }
            let key = options.value("upstream-key") ?? environment["VIETMAP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            if upstream == "live" && key == nil {
                throw UsageError("--upstream live needs a key: --upstream-key KEY or the environment variable VIETMAP_API_KEY")
            }
            let timeout = TimeInterval(options.integer("upstream-timeout") ?? 10)
            let maxBody = options.integer("upstream-max-body") ?? UpstreamClient.defaultMaxBodyBytes
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
