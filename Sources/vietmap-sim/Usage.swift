import Foundation
import VietMapWire

/// Help texts of the CLI.
enum Usage {
    static let main = """
        vietmap-sim — an offline simulator of VietMap's Maps APIs, plus a contract-test suite

        USAGE:
          vietmap-sim serve [options]           run the simulator (embedded default data unless --db)
          vietmap-sim import --out PATH [INPUT…] build a dataset from OSM/CSV/admin files
          vietmap-sim scenarios validate|list|from-har|from-recording
                                                check, list or make fault-injection scenario files
          vietmap-sim contract --target URL|live run the contract suite (Contracts/) against a target
          vietmap-sim drive --from LAT,LNG --to LAT,LNG  write a route's GPS trace (GPX/NMEA/KML) to replay
          vietmap-sim make-country --scale N --out FILE.osm.pbf  a country-sized OSM extract from a city (for import)
          vietmap-sim export-tiles --out FILE.mbtiles [--area NAME|--bbox W,S,E,N] [--zoom MIN-MAX]
                                                an area's map as MBTiles + style, glyphs, sprite (no server)
          vietmap-sim bench-routing [options]   A* vs contraction hierarchy figures (benchmarks)
          vietmap-sim help [COMMAND]            show help for a command

        ENDPOINTS (\(APIEndpoint.allCases.count), every one but \(keylessNames) with a key: apikey=ANY-NON-EMPTY-KEY):
        \(endpointLines)

        Run `vietmap-sim COMMAND --help` for the options of a command.
        Data: © OpenStreetMap contributors (ODbL 1.0); administrative units MIT (see README).
        """

    /// The endpoints that need no key (`APIEndpoint.requiresKey`), as `glyphs and sprite`.
    static var keylessNames: String {
        APIEndpoint.allCases.filter { !$0.requiresKey }.map(\.name).joined(separator: " and ")
    }

    /// One line per endpoint of the wire home: its name and path.
    static var endpointLines: String {
        APIEndpoint.allCases.map { endpoint in
            "  " + endpoint.name.padding(toLength: 16, withPad: " ", startingAt: 0) + " " + endpoint.documentedPath
        }.joined(separator: "\n")
    }

    /// The help of each command, for `vietmap-sim help COMMAND`.
    static var command: [String: String] {
        ["serve": serve, "import": importCommand, "scenarios": scenarios, "contract": contract, "drive": drive,
         "make-country": makeCountry, "export-tiles": exportTiles, "bench-routing": BenchRoutingCommand.usage]
    }

    static let serve = """
        USAGE: vietmap-sim serve [--host HOST] [--port PORT] [--db PATH] [--api-key KEY]… [--threads N]
                                 [--heavy-threads N] [--max-points N] [--max-snap-distance METRES]
                                 [--tls [--tls-cert PEM --tls-key PEM]] [connection limits…]
                                 [--proxy PORT [--proxy-host HOST]… [--proxy-pass HOST[:PORT]]…]
                                 [--scenarios DIR] [--scenario NAME] [--scenario-key KEY=NAME]… [--seed N]
                                 [--admin [--admin-token TOKEN]] [--log-requests on|off|auto]
                                 [--upstream live|URL [--record DIR]] [--replay DIR]

        Starts the simulator and prints `vietmap-sim listening on http://HOST:PORT` once it answers.
        Without --db it uses the embedded default dataset (HCMC, Hanoi Hoàn Kiếm, all admin units),
        built on first use into the cache ($VIETMAP_SIM_CACHE, else $XDG_CACHE_HOME/vietmap-sim,
        else ~/.cache/vietmap-sim). SIGINT/SIGTERM stop accepting and answer every request already
        received (up to --drain-timeout), then exit 0; a second signal exits at once (code 1).

        OPTIONS:
          --host HOST      address to bind (default 127.0.0.1)
          --port PORT      port to bind, 0 = any free port (default 8080)
          --db PATH        dataset built by `vietmap-sim import`
          --api-key KEY    accepted API key; repeatable. Without it any non-empty key is accepted;
                           a missing or empty key is always answered with 401
          --threads N      HTTP worker threads, which answer light requests (default: number of
                           CPUs, a cgroup quota counted, at least 4)
          --heavy-threads N
                           threads, at lower priority, for heavy requests (big matrices and tours,
                           routes of many points or avoiding tolls/ferries, long texts, costly
                           scenario regexes), so they never delay light ones; 0 = none, everything
                           on the HTTP threads (default: number of CPUs; docs/limits.md)
          --max-points N   most `point`s a route may have; more is MAX_POINTS_EXCEED (default 25)
          --max-snap-distance METRES
                           a route point farther than this from a usable road is an error
                           (default 1000, at most 100000)
        \(serveScenarioOptions)
        \(serveCaptureOptions)
          --tls            serve HTTPS. Without --tls-cert/--tls-key, a local CA and a certificate for
                           localhost, 127.0.0.1, ::1 and this machine's addresses are made in the cache
                           (tls/ca.pem is the CA to trust; see docs/tls.md)
          --tls-cert PEM, --tls-key PEM
                           serve this certificate (chain) and key instead
        \(serveProxyOptions)
          --max-connections N            open connections at once (default 1000); beyond it the one
                                         waiting longest for a request head makes room
          --max-connections-per-client N from one address (default 256, 0 = no limit); beyond it
                                         new connections are closed at once
          --header-timeout S   seconds to send a complete request head (default 10; also ends idle
                               keep-alive connections); trickled bytes do not extend it
          --body-timeout S     seconds to send the body after the head (default 30)
          --idle-timeout S     seconds without any traffic before a connection is closed (default 30)
          --drain-timeout S    seconds to finish requests in flight on SIGINT/SIGTERM (default 5)
          --log-requests on|off|auto
                           one line per answered request on stderr: time, method, path without the
                           key, status, latency, the scenario that fired (default auto: on when stderr
                           is a terminal)
          -h, --help       show this help
        """

    static let importCommand = """
        USAGE: vietmap-sim import --out PATH [INPUT…] [--progress]

        Builds a SQLite dataset for `serve --db`. Inputs are recognised by content: POI, street and
        address-point CSVs, units_2025 / units_pre2025 JSON, the old↔new mapping JSONs, the
        centroid/bbox CSV, OSM XML (.osm) and OSM PBF (.osm.pbf, e.g. a Geofabrik extract): named
        POIs and areas, streets, house numbers and roads. Without inputs the embedded default data is used;
        inputs without any unit file get the embedded units of Vietnam (so `import --out city.sqlite
        city.osm.pbf` gives a searchable city).
        The dataset is written to a temporary file and renamed into place when complete: a failed
        import leaves no partial file and an existing PATH untouched. Each step is shown on stderr
        (on a terminal, or with --progress) with the memory the import holds. Steps hold one thing
        at a time (places, then roads, then one or two vehicles' contraction, fewer when memory is
        short): its memory is that of the largest step, not of everything at once; when the machine has
        less than 3% of its memory left (at least 256 MiB; VIETMAP_SIM_IMPORT_MEMORY_FLOOR_MB sets
        it) the import stops with one line and exit code 1 rather than exhaust it. An OSM file beyond
        what OpenStreetMap allows (a node off the Earth, a way of more than 2,000 nodes, …) or a PBF
        inflating to more than 16 times its size is refused with one line naming the element
        (docs/limits.md, "Import and drive").

        OPTIONS:
          --out PATH       where to write the dataset (required)
          --progress       show each step on stderr even when it is not a terminal
          -h, --help       show this help
        """

    static let makeCountry = """
        USAGE: vietmap-sim make-country --scale N --out FILE.osm.pbf [--seed S] [--from CITY.osm.pbf]
                                        [--extra-addresses K]

        Writes a country-sized OSM PBF for `vietmap-sim import`: the part of a city's extract the
        import uses (roads and their nodes, turn restrictions, POIs, named areas, address points),
        copied N times over Vietnam's 34 provinces (2025 scheme; several copies side by side per
        province when N > 34, never overlapping), ids renumbered, coordinates translated, place
        names and addr:city-like tags varied per copy, the copies joined by `highway=trunk` roads
        (a spanning tree plus a few extra links) between junctions of their main road networks.
        Every copy but the first gets K more house numbers along its streets (--extra-addresses).
        The same input, N and seed give a byte-identical file. The file is written to a temporary
        file and renamed into place when complete. Progress goes to stderr. See docs/country.md.

        OPTIONS:
          --scale N        number of copies, 1…512 (1 = the city alone, in place)
          --out FILE       where to write the .osm.pbf (required)
          --seed S         seed of the name variations, province order and extra links
                           (unsigned integer, default \(CountryMakerDefaults.seed))
          --from FILE      the city to copy, OSM PBF or XML (default: the embedded whole-HCMC 2018
                           extract, 59k road junctions)
          --extra-addresses K
                           house numbers added along the streets of every copy but the first
                           (default \(CountryMakerDefaults.extraAddresses); 0 = plain copies)
          -h, --help       show this help

        Data: derived from OpenStreetMap data, © OpenStreetMap contributors, ODbL 1.0 — like the input.
        """
}
