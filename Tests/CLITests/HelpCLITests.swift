import Foundation
import SimTesting
import VietMapWire
import TestExpectations
import Testing

/// Help that cannot drift and mistakes that get a hint (issues #37, #38): the main help lists every
/// endpoint of the wire home and every command; `help X` works for every command and is an error
/// for anything else; a mistyped command or option names the nearest one; every declared option
/// (`help --options`) is in its command's help, in docs/cli.md (whose synopsis is the generated one)
/// and in its command's topic document; usage errors exit 64 with one line naming the option.
@Suite final class HelpCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: HelpCLITests.self)
            ?? Bundle(for: HelpCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    private func run(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, arguments, in: FileManager.default.temporaryDirectory, environment: [:])
    }

    @Test func testTheMainHelpListsEveryEndpointAndCommand() throws {
        let help = try run(["--help"])
        expectEqual(help.status, 0, help.stderr)
        expectTrue(help.stdout.contains("ENDPOINTS (\(APIEndpoint.allCases.count),"), help.stdout)
        for endpoint in APIEndpoint.allCases {
            expectTrue(help.stdout.contains(" " + endpoint.documentedPath + "\n"), "\(endpoint.name) missing from --help")
        }
        for command in try commands() {
            expectTrue(help.stdout.contains("\n  \(command) "), "\(command) missing from --help")
        }
        expectTrue(help.stdout.contains("EXIT STATUS:\n") && help.stdout.contains("  64   usage error"), help.stdout)
    }

    /// Every command and subcommand that declares options, from `help --options`.
    private func declaredOptions() throws -> [(command: String, option: String)] {
        let listed = try run(["help", "--options"])
        expectEqual(listed.status, 0, listed.stderr)
        return listed.stdout.split(separator: "\n").map { line in
            let words = line.split(separator: " ")
            return (words.dropLast().joined(separator: " "), String(words.last!))
        }
    }

    private func commands() throws -> [String] {
        var seen: [String] = []
        for (command, _) in try declaredOptions() where !seen.contains(command) { seen.append(command) }
        return seen
    }

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The document that explains each command's options besides docs/cli.md.
    private static let topicDocument: [String: String] = [
        "serve": "docs/cli.md", "import": "docs/cli.md", "scenarios validate": "docs/cli.md", "scenarios list": "docs/cli.md",
        "scenarios from-har": "docs/replay.md", "scenarios from-recording": "docs/replay.md", "contract": "Contracts/README.md",
        "drive": "docs/drive.md", "make-country": "docs/country.md", "export-tiles": "docs/maps.md", "bench-routing": "docs/cli.md",
    ]

    @Test func testEveryDeclaredOptionIsInItsHelpAndTheDocs() throws {
        let declared = try declaredOptions()
        expectGreaterThan(declared.count, 80, "help --options lists the declared options")
        expectTrue(declared.contains { $0 == ("serve", "--port") } && declared.contains { $0 == ("bench-routing", "--witness") })
        let cli = try String(contentsOf: Self.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        var helps: [String: String] = [:]
        for command in try commands() {
            let help = try run(command.split(separator: " ").map(String.init) + ["--help"])
            expectEqual(help.status, 0, "\(command): \(help.stderr)")
            expectEqual(try run(["help"] + command.split(separator: " ").map(String.init)).stdout, help.stdout, command)
            helps[command] = help.stdout
            expectNotNil(Self.topicDocument[command], "\(command) has no topic document in HelpCLITests.topicDocument")
        }
        for (command, option) in declared {
            let help = try unwrap(helps[command])
            let usage = help.components(separatedBy: "\n\n")[0]
            expectTrue(usage.contains("\(option) ") || usage.contains("\(option)]"), "\(command) \(option) missing from the usage line of its help")
            expectTrue(help.contains("\n  \(option)"), "\(command) \(option) missing from the OPTIONS of its help")
            expectTrue(cli.contains(option), "\(command) \(option) missing from docs/cli.md")
            if let path = Self.topicDocument[command] {
                let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                expectTrue(text.contains("`\(option)") || text.contains(" \(option)") || text.contains("[\(option)"),
                              "\(command) \(option) missing from \(path)")
            }
        }
    }

    @Test func testDocsCLIHoldsTheGeneratedSynopsis() throws {
        let synopsis = try run(["help", "--synopsis"])
        expectEqual(synopsis.status, 0, synopsis.stderr)
        expectTrue(synopsis.stdout.contains("vietmap-sim bench-routing [--osm FILE]…"), synopsis.stdout)
        let cli = try String(contentsOf: Self.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let open = try unwrap(cli.range(of: "```\n"))
        let close = try unwrap(cli.range(of: "```", range: open.upperBound..<cli.endIndex))
        expectEqual(String(cli[open.upperBound..<close.lowerBound]), synopsis.stdout,
                       "docs/cli.md's first block must be the output of `vietmap-sim help --synopsis`; paste it in")
    }

    /// `scenarios --scenarios DIR validate` (options before the subcommand) is accepted as it always was.
    @Test func testScenariosOptionsBeforeTheSubcommandStillWork() throws {
        let folder = Self.root.appendingPathComponent("Scenarios").path
        let before = try run(["scenarios", "--scenarios", folder, "validate"])
        expectEqual(before.status, 0, before.stderr)
        expectTrue(before.stdout.hasPrefix("OK: "), before.stdout)
        expectEqual(try run(["scenarios", "validate", "--scenarios", folder]).stdout, before.stdout)
        let help = try run(["scenarios", "--help"])
        expectEqual(help.status, 0)
        for subcommand in ["validate", "list", "from-har", "from-recording"] {
            expectTrue(help.stdout.contains("OPTIONS of scenarios \(subcommand):\n"), subcommand)
        }
    }

    @Test func testMalformedValuesAreUsageErrorsNamingTheOptionNeverDefaults() throws {
        for (arguments, message) in [
            (["bench-routing", "--pairs", "ten"], "--pairs must be a whole number from 1 to 10000000, got 'ten'"),
            (["bench-routing", "--tile", "0"], "--tile must be a whole number from 1 to 1024, got '0'"),
            (["bench-routing", "--witness", "-5"], "--witness must be a whole number from 1 to 100000000, got '-5'"),
            (["bench-routing", "--vehicles", "car,boat"], "--vehicles must be names from"),
            (["serve", "--port", "http"], "--port must be a whole number from 0 to 65535, got 'http'"),
            (["serve", "--threads"], "--threads needs a value: --threads N"),
            (["serve", "--admin=yes"], "--admin takes no value"),
            (["contract", "--target", "http://127.0.0.1:1", "--timeout", "0"], "--timeout must be a positive number of seconds, got '0'"),
            (["drive", "--to", "10,106"], "drive needs --from LAT,LNG"),
            (["make-country", "--scale", "2", "--out", "x.pbf", "extra"], "make-country takes no arguments besides options, got 'extra'"),
            (["scenarios", "from-har"], "scenarios from-har takes one FILE.har, got 0"),
            (["scenarios", "valdate"], "did you mean 'validate'?"),
            (["export-tiles", "--out", "x.mbtiles", "--look", "night"], "--look must be tm, lm or dm, got 'night'"),
            ([], "no command given"),
        ] {
            let outcome = try run(arguments)
            expectEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            expectEqual(outcome.stdout, "", "\(arguments)")
            expectEqual(outcome.stderr, "vietmap-sim: " + (outcome.stderr.dropFirst("vietmap-sim: ".count).split(separator: "\n").first ?? "") + "\n",
                           "\(arguments): one line")
            expectTrue(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func testHelpForEveryCommandAndAnErrorForAnythingElse() throws {
        for command in ["serve", "import", "scenarios", "contract", "drive", "make-country", "export-tiles", "bench-routing"] {
            let help = try run(["help", command])
            expectTrue(help.stdout.hasPrefix("USAGE: vietmap-sim \(command) "), "\(command): \(help.stdout.prefix(200))")
            expectEqual(help.status, 0, "\(command): \(help.stderr)")
            expectFalse(help.stdout.contains("ENDPOINTS ("), "help \(command) printed the main help")
        }
        let unknown = try run(["help", "nope"])
        expectEqual(unknown.status, 64)
        expectEqual(unknown.stdout, "")
        expectTrue(unknown.stderr.hasPrefix("vietmap-sim: no help for 'nope': not a command"), unknown.stderr)
        let near = try run(["help", "serv"])
        expectEqual(near.status, 64)
        expectTrue(near.stderr.contains("did you mean 'serve'?"), near.stderr)
    }

    @Test func testAMistypedCommandOrOptionNamesTheNearestOne() throws {
        let command = try run(["serv"])
        expectEqual(command.status, 64)
        expectTrue(command.stderr.contains("unknown command 'serv'; did you mean 'serve'?"), command.stderr)
        let option = try run(["serve", "--prot", "9000"])
        expectEqual(option.status, 64)
        expectTrue(option.stderr.contains("unknown option '--prot' for serve; did you mean '--port'?"), option.stderr)
        let subcommandOption = try run(["scenarios", "from-har", "x.har", "--max-entris", "5"])
        expectEqual(subcommandOption.status, 64)
        expectTrue(subcommandOption.stderr.contains("did you mean '--max-entries'?"), subcommandOption.stderr)
        let far = try run(["serve", "--zzzzzz"])
        expectEqual(far.status, 64)
        expectFalse(far.stderr.contains("did you mean"), far.stderr)
    }
}
