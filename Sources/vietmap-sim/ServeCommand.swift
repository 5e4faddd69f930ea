import Dispatch
import Foundation
import HTTPProxy
import HTTPServer
import Platform
import VietMapSimulator

/// `vietmap-sim serve`: start a `SimulatorServer` from the options, wait for a signal.
enum ServeCommand {
    /// Two malloc arenas instead of glibc's up to 8 per core: the request threads' short-lived
    /// allocations otherwise spread over arenas that each keep freed pages (≈ 3 MB of RSS under
    /// load, no measurable cost in req/s). Nothing on Darwin (``ProcessMemory/limitArenas(to:)``).
    /// `serve`'s request log: one line per answered request on stderr.
    static let logToStandardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func limitMallocArenas() { ProcessMemory.limitArenas(to: 2) }

    /// Hands the heap's free pages back to the system (``ProcessMemory/returnFreedHeap()``):
    /// loading the dataset briefly holds the search index twice (≈ 12 MB), and the first query
    /// with a typo builds a vocabulary from SQL; without it, what they freed stays in the
    /// process' resident memory for good.
    static func releaseFreedMemory() { ProcessMemory.returnFreedHeap() }

    /// `releaseFreedMemory()` once a second on a utility queue (a fraction of a millisecond
    /// each: ≈ 2.5 MB less resident memory after a burst of requests).
    static func releaseFreedMemoryPeriodically() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(250))
        timer.setEventHandler { releaseFreedMemory() }
        timer.resume()
        return timer
    }

    static func run(_ options: CommandLineArguments) throws -> Int32 {
        var configuration = HTTPServerConfiguration()
        configuration.host = options.value("host") ?? "127.0.0.1"
        configuration.port = UInt16(options.integer("port") ?? 8080)
        if let threads = options.integer("threads") { configuration.threads = threads }
        let transport = try ServeTransportOptions(options, configuration: &configuration)
        let keys = options.all("api-key")
        let maxPoints = options.integer("max-points") ?? 25
        let maxSnap = options.number("max-snap-distance") ?? 1_000

        let capture = try ServeCapture(options: options, apiKeys: Set(keys))
        let scenarios = try ServeScenarios(options: options)
        let proxy = try ServeProxy(options)
        var simulator = SimulatorServer.Configuration(http: configuration, databasePath: options.value("db"), apiKeys: keys,
                                                      maxRoutePoints: maxPoints, maxSnapDistanceMeters: maxSnap)
        if let threads = options.integer("heavy-threads") { simulator.heavyWorkThreads = threads }
        scenarios.apply(to: &simulator)
        // A large dataset's checksum is compared after start; damage found then stops the server.
        if let bytes = ProcessInfo.processInfo.environment["VIETMAP_SIM_DEFERRED_CHECK_BYTES"].flatMap(Int.init), bytes >= 0 {
            simulator.deferredCheckBytes = bytes
        }
        switch options.value("log-requests") ?? "auto" {
        case "on": simulator.requestLog = Self.logToStandardError
        case "auto": if isatty(2) != 0 { simulator.requestLog = Self.logToStandardError }
        default: break  // off (the declared choices)
        }
        simulator.datasetDamaged = { line in
            FileHandle.standardError.write(Data("vietmap-sim: \(line)\n".utf8))
            exit(1)
        }
        if capture.answersEndpoints {
            simulator.endpoints = { service in
                let (responder, note) = try capture.responder(service: service, apiKeys: Set(keys))
                if let note { FileHandle.standardError.write(Data("vietmap-sim: \(note)\n".utf8)) }
                return responder
            }
        }
        TerminationSignals.install()  // before the ready line: a signal right after it is not lost
        limitMallocArenas()
        let server = try SimulatorServer.start(simulator)
        releaseFreedMemory()
        let trimming = releaseFreedMemoryPeriodically()
        defer { trimming.cancel() }
        scenarios.started(server)
        let proxied = try proxy.start(simulator: server, host: configuration.host)
        defer { proxied?.stop() }
        if let caPath = transport.caCertificatePath {
            // stderr: stdout's first line stays the ready line.
            FileHandle.standardError.write(Data("vietmap-sim: TLS certificate authority to trust on devices: \(caPath) (see docs/tls.md)\n".utf8))
        }
        print("vietmap-sim listening on \(server.baseURL.absoluteString)")
        if let proxied {
            FileHandle.standardError.write(Data("vietmap-sim: proxy CA to trust on devices: \(proxied.caCertificatePath) (see docs/proxy.md)\n".utf8))
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            print("vietmap-sim proxy listening on http://\(host):\(proxied.proxy.port) for \(proxy.hosts.joined(separator: ", "))")
        }
        fflush(nil)  // the line must reach a pipe reader now, not at exit

        TerminationSignals.waitForFirst()
        // The proxy drains beside the direct port, within the same --drain-timeout.
        let proxyDrain = proxied.map { $0.drainInBackground(drainTimeout: transport.drainTimeout) }
        let cutOff = server.stop(drainTimeout: transport.drainTimeout) + (proxyDrain?.wait() ?? 0)
        if cutOff > 0 {
            FileHandle.standardError.write(Data("vietmap-sim: drain timeout: closed \(cutOff) connection(s) still open\n".utf8))
        }
        scenarios.stop()
        return 0
    }
}
