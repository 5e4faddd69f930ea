/// The declaration of `vietmap-sim serve`: its own options, then those of its parts (scenarios,
/// capture, TLS and connection limits, proxy), each declared beside the code that reads it.
extension ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "run the simulator (embedded default data unless --db)",
        positionals: .none,
        discussion: """
            Starts the simulator and prints `vietmap-sim listening on http://HOST:PORT` once it answers.
            Without --db it uses the embedded default dataset (HCMC, Hanoi Hoàn Kiếm, all admin units),
            built on first use into the cache ($VIETMAP_SIM_CACHE, else $XDG_CACHE_HOME/vietmap-sim,
            else ~/.cache/vietmap-sim). SIGINT/SIGTERM stop accepting and answer every request already
            received (up to --drain-timeout), then exit 0; a second signal exits at once (code 1).
            """,
        options: ownOptions + ServeScenarios.options + ServeCapture.options + ServeTransportOptions.tlsOptions
            + ServeProxy.options + ServeTransportOptions.limitOptions + [logRequests],
        run: { try run($0) })

    static let ownOptions: [OptionSpec] = [
        .option("host", "HOST", "address to bind (default 127.0.0.1)"),
        .option("port", "PORT", .integer(0...65535), "port to bind, 0 = any free port (default 8080)"),
        .option("db", "PATH", "dataset built by `vietmap-sim import`"),
        .option("api-key", "KEY", .nonEmpty, repeatable: true,
                "accepted API key; repeatable. Without it any non-empty key is accepted; a missing or empty key is always answered with 401"),
        .option("threads", "N", .integer(1...256),
                "HTTP worker threads, which answer light requests (default: number of CPUs, a cgroup quota counted, at least 4)"),
        .option("heavy-threads", "N", .integer(0...256),
                "threads, at lower priority, for heavy requests (big matrices and tours, routes of many points or avoiding tolls/ferries, long texts, costly scenario regexes), so they never delay light ones; 0 = none, everything on the HTTP threads (default: number of CPUs; docs/limits.md)"),
        .option("max-points", "N", .integer(2...Int.max), "most `point`s a route may have; more is MAX_POINTS_EXCEED (default 25)"),
        .option("max-snap-distance", "METRES", .number(0...100_000, unit: "metres", above: true),
                "a route point farther than this from a usable road is an error (default 1000, at most 100000)"),
    ]

    static let logRequests = OptionSpec.option(
        "log-requests", "on|off|auto", .choice(["on", "off", "auto"]),
        "one line per answered request on stderr: time, method, path without the key, status, latency, the scenario that fired (default auto: on when stderr is a terminal)")
}
