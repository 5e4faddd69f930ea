import HARImport
import Scenarios

/// The declarations of `vietmap-sim scenarios validate|list|from-har|from-recording` and the group's help.
extension ScenariosCommand {
    static let subcommands: [CommandSpec] = [validateSpec, listSpec, fromHARSpec, fromRecordingSpec]
    static var subcommandNames: [String] { subcommands.map { String($0.name.dropFirst(name.count + 1)) } }

    /// `vietmap-sim scenarios --help`.
    static var help: String { HelpText.group(discussion: discussion, subcommands: subcommands) }

    /// The options `validate` and `list` share, which may come before the subcommand.
    static let folderOptions: [OptionSpec] = [
        .option("scenarios", "DIR", "the folder `serve --scenarios DIR` would load (default ./Scenarios when it exists)"),
    ]
    /// What parses `scenarios --scenarios DIR validate|list …` up to the subcommand (never run:
    /// ``run(_:)`` hands the arguments to the subcommand it finds).
    static let leadingOptions = CommandSpec(name: name, summary: "", positionals: .any("SUBCOMMAND"), discussion: "",
                                            options: folderOptions, run: { _ in ExitStatus.usage })

    static let validateSpec = CommandSpec(
        name: "scenarios validate", summary: "check scenario files; every problem as FILE: JSON-POINTER: REASON",
        positionals: .any("[FILE|DIR…]"),
        discussion: "Checks scenario files (default: what `serve` in this folder loads — the built-in scenarios and every *.json of --scenarios DIR or ./Scenarios except *.schema.json) and prints each problem as `FILE: JSON-POINTER: REASON`; exit 1 if there is any, else prints OK and exits 0.",
        options: folderOptions, run: { try validate($0) })

    static let listSpec = CommandSpec(
        name: "scenarios list", summary: "print the name and description of each scenario",
        positionals: .any("[FILE|DIR…]"),
        discussion: "Prints the name and description of each scenario (default: the built-in ones and those of --scenarios DIR or ./Scenarios, as `serve` loads them).",
        options: folderOptions, run: { try list($0) })

    static let fromHARSpec = CommandSpec(
        name: "scenarios from-har", summary: "a scenario replaying the VietMap exchanges of a HAR file (docs/replay.md)",
        positionals: .one("FILE.har"),
        discussion: """
            Turns the VietMap exchanges of a HAR 1.2 file (Proxyman, Charles, browser developer tools) into a
            scenario that replays them: per request (apikey ignored, other parameters exact), the recorded
            status, body and latency; a sequence where one request got several answers (the last one then
            repeats). Prints the scenario, or writes it to --out (whole or not at all); a summary goes to
            stderr. The HAR is read within a budget (--max-inflated, --max-entries, --max-output): past it,
            one line naming the entry and nothing written. Walk-through: docs/replay.md.
            """,
        options: [
            .option("out", "FILE.json", "write the scenario there (temporary file + rename) instead of stdout"),
            nameOption,
            .option("host", "HOST", repeatable: true, "keep the entries of this host (or host:port; '*' any host) whose path is one of the API's endpoints (`vietmap-sim --help`; Directions v5 matched by its route too); repeatable (default maps.vietmap.vn)"),
            unmatchedOption,
            .option("timing", "wait|total|none", .choice(HARImport.Timing.allCases.map(\.rawValue) + ["none"]), "wait (default): each entry's time to first byte; total: the whole entry time; none: no delays (longer than 10 minutes: 10 minutes, with a warning)"),
            .option("max-inflated", "SIZE", "most bytes of all decoded bodies (default 128M; bytes or K, M, G)"),
            .option("max-entries", "N", .integer(1...10_000_000), "most entries read (default 100000)"),
            .option("max-output", "SIZE", "largest scenario written (default 128M; bytes or K, M, G)"),
        ],
        run: { try ScenariosFromCapture.runHAR($0) })

    static let fromRecordingSpec = CommandSpec(
        name: "scenarios from-recording", summary: "the same from recordings (serve --record DIR, RecordingVietMapProvider)",
        positionals: .one("DIR"),
        discussion: "Turns the recordings of a folder (`serve --record DIR`, RecordingVietMapProvider) into a scenario that replays them, as from-har does.",
        options: [
            .option("out", "FILE.json", "write the scenario there (temporary file + rename) instead of stdout"),
            nameOption,
            unmatchedOption,
        ],
        run: { try ScenariosFromCapture.runRecordings($0) })

    private static let nameOption = OptionSpec.option("name", "NAME", "the scenario's name (default: the file's name)")
    private static let unmatchedOption = OptionSpec.option(
        "unmatched", "simulate|not-found", .choice(ReplayScenario.Unmatched.allCases.map(\.rawValue)),
        "what requests without a capture get: simulate (default), the simulator's answer, or not-found, a 404")

    private static let discussion = """
        validate        checks scenario files (default: what `serve` in this folder loads — the built-in
                        scenarios and every *.json of --scenarios DIR or ./Scenarios except *.schema.json)
                        and prints each problem as `FILE: JSON-POINTER: REASON`; exit 1 if there is any,
                        else prints OK and exits 0.
        list            prints the name and description of each scenario (default: the built-in ones and
                        those of --scenarios DIR or ./Scenarios, as `serve` loads them).
        from-har        turns the VietMap exchanges of a HAR 1.2 file (Proxyman, Charles, browser
                        developer tools) into a scenario that replays them: per request (apikey ignored,
                        other parameters exact), the recorded status, body and latency; a sequence where
                        one request got several answers (the last one then repeats). Prints the scenario,
                        or writes it to --out (whole or not at all); a summary goes to stderr. The HAR is
                        read within a budget (--max-*; sizes in bytes or K/M/G): past it, one line naming
                        the entry and nothing written. Walk-through: docs/replay.md.
        from-recording  the same from recordings (`serve --record DIR`, RecordingVietMapProvider).

        The format is described in Scenarios/README.md; Scenarios/scenario.schema.json is its
        JSON Schema (draft 2020-12) for editors. `vietmap-sim scenarios SUBCOMMAND --help` shows one.
        """
}
