/// Help texts for scenarios (`vietmap-sim scenarios`, and the scenario options of `serve`).
extension Usage {
    static let scenarios = """
        USAGE: vietmap-sim scenarios validate [FILE|DIR…] [--scenarios DIR]
               vietmap-sim scenarios list [FILE|DIR…] [--scenarios DIR]
               vietmap-sim scenarios from-har FILE.har [--out FILE.json] [--name NAME] [--host HOST]…
               vietmap-sim scenarios from-recording DIR [--out FILE.json] [--name NAME]

        validate  checks scenario files (default: every *.json of ./Scenarios except *.schema.json)
                  and prints each problem as `FILE: JSON-POINTER: REASON`; exit 1 if there is any,
                  else prints OK and exits 0.
        list      prints the name and description of each scenario.
        from-har  turns the VietMap exchanges of a HAR 1.2 file (Proxyman, Charles, browser tools)
                  into a scenario replaying them in order with their status, body and timing;
                  entries of other hosts (default: only maps.vietmap.vn; --host adds) are ignored.
                  The scenario is validated; without --out it is printed (docs/capture.md).
        from-recording  the same from recordings (`serve --record DIR`, RecordingVietMapProvider).

        The format is described in Scenarios/README.md; Scenarios/scenario.schema.json is its
        JSON Schema (draft 2020-12) for editors.
        """

    static let serveScenarioOptions = """
          --scenarios DIR  scenario files that add to the built-in ones (embedded in the binary) or
                           override them by name (default ./Scenarios when it exists); reloaded
                           when they change (polled every second) and on SIGHUP
          --scenario NAME  server-wide default scenario (once). Per request: apikey=scenario:NAME[@TAG],
                           the path prefix /__scenario/NAME[@TAG]/… or the header
                           X-VietMap-Sim-Scenario: NAME[@TAG]; with --api-key K the request must also
                           carry K (apikey=K, or apikey=scenario:NAME[@TAG]:K)
          --seed N         seed for every scenario's random choices (overrides the files' seeds)
          --admin          serve the admin API and request journal under /__sim/ and the dashboard at
                           /__sim/ui/ (loopback Host only, same-origin, POSTs need
                           X-VietMap-Sim-Admin: 1 or a JSON Content-Type)
          --admin-token T  the admin API also needs Authorization: Bearer T
        """
}
