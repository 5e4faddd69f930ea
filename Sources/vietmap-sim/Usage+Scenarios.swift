/// Help texts for scenarios (`vietmap-sim scenarios`, and the scenario options of `serve`).
extension Usage {
    static let scenarios = """
        USAGE: vietmap-sim scenarios validate [FILE|DIR…] [--scenarios DIR]
               vietmap-sim scenarios list [FILE|DIR…] [--scenarios DIR]
               vietmap-sim scenarios from-har FILE.har [--out FILE.json] [--name NAME] [--host HOST…]
                           [--unmatched simulate|not-found] [--timing wait|total|none]
                           [--max-inflated SIZE] [--max-entries N] [--max-output SIZE]
               vietmap-sim scenarios from-recording DIR [--out FILE.json] [--name NAME] [--unmatched …]

        validate  checks scenario files (default: what `serve` in this folder loads — the built-in
                  scenarios and every *.json of --scenarios DIR or ./Scenarios except *.schema.json)
                  and prints each problem as `FILE: JSON-POINTER: REASON`; exit 1 if there is any,
                  else prints OK and exits 0.
        list      prints the name and description of each scenario (default: the built-in ones and
                  those of --scenarios DIR or ./Scenarios, as `serve` loads them).
        from-har  turns the VietMap exchanges of a HAR 1.2 file (Proxyman, Charles, browser
                  developer tools) into a scenario that replays them: per request (apikey
                  ignored, other parameters exact), the recorded status, body and latency; a
                  sequence where one request got several answers (the last one then repeats).
                  Prints the scenario, or writes it to --out (whole or not at all); a summary
                  goes to stderr. --name (default: the file's name); --host HOST (repeatable,
                  host or host:port; default maps.vietmap.vn; '*' any host) keeps entries of
                  those hosts whose path is one of the API's endpoints (`vietmap-sim --help`;
                  Directions v5 matched by its route too); --unmatched
                  not-found answers other requests 404 instead of simulating them; --timing
                  total replays the whole entry time (default wait: time to first byte),
                  none no delays (longer than 10 minutes: 10 minutes, with a warning).
                  Budget (refused past it, one line naming the entry, nothing written):
                  --max-inflated all decoded bodies (default 128M), --max-entries (default
                  100000), --max-output the scenario (default 128M); sizes in bytes or K/M/G.
                  Walk-through: docs/replay.md.
        from-recording  the same from recordings (`serve --record DIR`, RecordingVietMapProvider).

        The format is described in Scenarios/README.md; Scenarios/scenario.schema.json is its
        JSON Schema (draft 2020-12) for editors.
        """

    static let serveScenarioOptions = """
          --scenarios DIR  scenario files that add to the built-in ones (embedded in the binary) or
                           override them by name (default ./Scenarios when it exists); reloaded
                           when they change (polled every second) and on SIGHUP. A file of the
                           folder that does not load stops the start (one line: file, place, reason)
          --skip-broken-scenarios
                           start anyway, without the files that do not load (each reported; a
                           request for one gets a 401 saying its file does not load)
          --scenario NAME  server-wide default scenario (once). Per request: apikey=scenario:NAME[@TAG],
                           the path prefix /__scenario/NAME[@TAG]/… or the header
                           X-VietMap-Sim-Scenario: NAME[@TAG]; the request must also carry a non-empty
                           apikey (else 401), with --api-key K that is K (apikey=K, or
                           apikey=scenario:NAME[@TAG]:K). Spelled only with letters, digits, '-', '_'
                           and '.' (what every SDK's URL builder passes unchanged):
                           apikey=scenario.NAME[__TAG[__K]]
          --scenario-key KEY=NAME[@TAG]
                           requests with the plain API key KEY get scenario NAME (for apps whose key
                           is baked in); repeatable
          --seed N         seed for every scenario's random choices (overrides the files' seeds)
          --admin          serve the admin API and request journal under /__sim/ and the dashboard at
                           /__sim/ui/ (loopback Host only, same-origin, POSTs need
                           X-VietMap-Sim-Admin: 1 or a JSON Content-Type; never through --proxy)
          --admin-token T  the admin API also needs Authorization: Bearer T (with a
                           non-loopback --host and no --admin-token, a token is made up and
                           printed at start)
        """
}
