/// Help texts for scenarios (`vietmap-sim scenarios`, and the scenario options of `serve`).
extension Usage {
    static let scenarios = """
        USAGE: vietmap-sim scenarios validate [FILE|DIR…] [--scenarios DIR]
               vietmap-sim scenarios list [FILE|DIR…] [--scenarios DIR]

        validate  checks scenario files (default: every *.json of ./Scenarios except *.schema.json)
                  and prints each problem as `FILE: JSON-POINTER: REASON`; exit 1 if there is any,
                  else prints OK and exits 0.
        list      prints the name and description of each scenario.

        The format is described in Scenarios/README.md; Scenarios/scenario.schema.json is its
        JSON Schema (draft 2020-12) for editors.
        """

    static let serveScenarioOptions = """
          --scenarios DIR  scenario files that add to the built-in ones (embedded in the binary) or
                           override them by name (default ./Scenarios when it exists); reloaded
                           when they change (polled every second) and on SIGHUP
          --scenario NAME  server-wide default scenario (once). Per request: apikey=scenario:NAME[@TAG]
                           or the path prefix /__scenario/NAME[@TAG]/…
          --seed N         seed for every scenario's random choices (overrides the files' seeds)
          --admin          serve the admin API and request journal under /__sim/
        """
}
