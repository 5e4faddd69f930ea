/// Help texts of the CLI.
enum Usage {
    static let main = """
        vietmap-sim — an offline simulator of VietMap's REST APIs (autocomplete v4, place v4, route v4)

        USAGE:
          vietmap-sim serve [options]           run the simulator (embedded default data unless --db)
          vietmap-sim import --out PATH [INPUT…] build a dataset from OSM/CSV/admin files
          vietmap-sim scenarios validate|list  check or list fault-injection scenario files
          vietmap-sim contract --target URL|live run the contract suite (Contracts/) against a target
          vietmap-sim help [COMMAND]            show help for a command

        Run `vietmap-sim COMMAND --help` for the options of a command.
        Data: © OpenStreetMap contributors (ODbL 1.0); administrative units MIT (see README).
        """

    static let serve = """
        USAGE: vietmap-sim serve [--host HOST] [--port PORT] [--db PATH] [--api-key KEY]… [--threads N]
                                 [--max-points N] [--max-snap-distance METRES]

        Starts the simulator and prints `vietmap-sim listening on http://HOST:PORT` once it answers.
        Without --db it uses the embedded default dataset (HCMC, Hanoi Hoàn Kiếm, all admin units),
        built on first use into the cache ($VIETMAP_SIM_CACHE, else $XDG_CACHE_HOME/vietmap-sim,
        else ~/.cache/vietmap-sim). SIGINT/SIGTERM stop it cleanly.

        OPTIONS:
          --host HOST      address to bind (default 127.0.0.1)
          --port PORT      port to bind, 0 = any free port (default 8080)
          --db PATH        dataset built by `vietmap-sim import`
          --api-key KEY    accepted API key; repeatable. Without it any non-empty key is accepted;
                           a missing or empty key is always answered with 401
          --threads N      HTTP worker threads (default: number of CPUs)
          --max-points N   most `point`s a route may have; more is MAX_POINTS_EXCEED (default 25)
          --max-snap-distance METRES
                           a route point farther than this from a usable road is an error
                           (default 1000, at most 100000)
        \(serveScenarioOptions)
        \(serveCaptureOptions)
          -h, --help       show this help
        """

    static let importCommand = """
        USAGE: vietmap-sim import --out PATH [INPUT…]

        Builds a SQLite dataset for `serve --db`. Inputs are recognised by content: POI, street and
        address-point CSVs, units_2025 / units_pre2025 JSON, the old↔new mapping JSONs, the
        centroid/bbox CSV, OSM XML (.osm: POIs and roads) and OSM PBF (.osm.pbf: roads, e.g. a
        Geofabrik extract). Without inputs the embedded default data is used.
        The dataset is written to a temporary file and renamed into place when complete: a failed
        import leaves no partial file and an existing PATH untouched.

        OPTIONS:
          --out PATH       where to write the dataset (required)
          -h, --help       show this help
        """
}
