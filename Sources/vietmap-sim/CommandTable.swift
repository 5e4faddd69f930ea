import Foundation
import VietMapWire

/// Every command of `vietmap-sim`, and the dispatch from the first argument to one of them: help for
/// `--help`, `help COMMAND` and `COMMAND --help`, a usage error with the nearest name for anything else.
enum CommandTable {
    /// The commands in the order of the main help; `scenarios` is a group (``ScenariosCommand``).
    static let commands: [CommandSpec] = [
        ServeCommand.spec, ImportCommand.spec, ContractCommand.spec, DriveCommand.spec,
        MakeCountryCommand.spec, ExportTilesCommand.spec, BenchRoutingCommand.spec,
    ]

    /// Every command and subcommand, for the main help, `help COMMAND` and the option list.
    static var allSpecs: [CommandSpec] {
        Array(commands.prefix(2)) + ScenariosCommand.subcommands + Array(commands.dropFirst(2))
    }

    /// The names `vietmap-sim` takes as its first argument.
    static var names: [String] { commands.map(\.name) + [ScenariosCommand.name, "help"] }

    /// Runs the command named by `arguments[0]`; returns the exit status.
    static func run(_ arguments: [String]) throws -> Int32 {
        guard let name = arguments.first else {
            throw UsageError("no command given (\(names.joined(separator: ", "))); try 'vietmap-sim --help'")
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "help", "--help", "-h":
            print(try help(rest))
            return ExitStatus.success
        case "--version":
            print("vietmap-sim 0.1.0")
            return ExitStatus.success
        case ScenariosCommand.name:
            return try ScenariosCommand.run(rest)
        default:
            guard let spec = commands.first(where: { $0.name == name }) else {
                throw UsageError("unknown command '\(name)'" + Suggestion.hint(for: name, in: names) + "; try 'vietmap-sim --help'")
            }
            return try run(spec, rest)
        }
    }

    /// Parses `arguments` against `spec`, prints its help for `--help`, else runs it.
    static func run(_ spec: CommandSpec, _ arguments: [String]) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, command: spec)
        if parsed.has("help") {
            print(HelpText.command(spec))
            return ExitStatus.success
        }
        return try spec.run(parsed)
    }

    /// The text of `help [TOPIC…]`: the main help, a command's, or (for scripts and the option-table
    /// test) `--options`, every declared option as `COMMAND --OPTION` lines, and `--synopsis`, every
    /// command's usage line (docs/cli.md holds it).
    static func help(_ topic: [String]) throws(UsageError) -> String {
        switch topic.first {
        case nil:
            return main
        case "--options":
            return allSpecs.flatMap { spec in spec.options.map { "\(spec.name) --\($0.name)" } }.joined(separator: "\n")
        case "--synopsis":
            return allSpecs.map { HelpText.synopsis($0) }.joined(separator: "\n")
        case ScenariosCommand.name where topic.count == 1:
            return ScenariosCommand.help
        default:
            let name = topic.joined(separator: " ")
            guard let spec = allSpecs.first(where: { $0.name == name }) else {
                let known = [ScenariosCommand.name] + allSpecs.map(\.name)
                throw UsageError("no help for '\(name.prefix(80))': not a command" + Suggestion.hint(for: name, in: known)
                    + " (commands: \(known.joined(separator: ", ")))")
            }
            return HelpText.command(spec)
        }
    }

    /// `vietmap-sim --help`: every command and subcommand, every endpoint (from the wire home,
    /// ``APIEndpoint``), the exit codes.
    static var main: String {
        let entries = allSpecs.map { ($0.name, $0.summary) } + [
            ("help [COMMAND]", "show the help of a command (also: COMMAND --help); help --options lists every option of every command as `COMMAND --OPTION`, help --synopsis every usage line"),
            ("--version", "print the version"),
        ]
        let width = entries.map(\.0.count).max()! + 2
        let commandLines = entries.map { name, summary in
            HelpText.wrap(summary.split(separator: " ").map(String.init),
                          first: "  " + name.padding(toLength: width, withPad: " ", startingAt: 0),
                          indent: String(repeating: " ", count: width + 3))
        }.joined(separator: "\n")
        return """
            vietmap-sim — an offline simulator of VietMap's Maps APIs, plus a contract-test suite

            USAGE: vietmap-sim COMMAND [OPTIONS]

            COMMANDS:
            \(commandLines)

            ENDPOINTS (\(APIEndpoint.allCases.count), every one but \(keylessNames) with a key: apikey=ANY-NON-EMPTY-KEY):
            \(endpointLines)

            \(ExitStatus.help)

            Run `vietmap-sim COMMAND --help` for the options of a command (docs/cli.md lists them all).
            Data: © OpenStreetMap contributors (ODbL 1.0); administrative units MIT (see README).
            """
    }

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
}
