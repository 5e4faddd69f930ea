import Foundation

/// Entry point: dispatch to a command, turn errors into one line and an exit code
/// (2 for usage errors, 1 for everything else).
func runCommandLine() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
        print(Usage.main)
        return 2
    }
    arguments.removeFirst()
    do {
        switch command {
        case "serve": return try ServeCommand.run(arguments)
        case "import": return try ImportCommand.run(arguments)
        case "scenarios": return try ScenariosCommand.run(arguments)
        case "contract": return try ContractCommand.run(arguments)
        case "drive": return try DriveCommand.run(arguments)
        case "make-country": return try MakeCountryCommand.run(arguments)
        case "export-tiles": return try ExportTilesCommand.run(arguments)
        case "bench-routing": return try BenchRoutingCommand.run(arguments)
        case "help", "--help", "-h":
            guard let topic = arguments.first else {
                print(Usage.main)
                return 0
            }
            guard let text = Usage.command[topic] else {
                throw CommandLineArguments.UsageError(description: "no help for '\(topic)': not a command"
                    + Suggestion.hint(for: topic, in: Usage.command.keys) + " (commands: \(Usage.command.keys.sorted().joined(separator: ", ")))")
            }
            print(text)
            return 0
        case "--version": print("vietmap-sim 0.1.0"); return 0
        default:
            throw CommandLineArguments.UsageError(description: "unknown command '\(command)'"
                + Suggestion.hint(for: command, in: Usage.command.keys) + "; try 'vietmap-sim --help'")
        }
    } catch let error as CommandLineArguments.UsageError {
        FileHandle.standardError.write(Data("vietmap-sim: \(error.description)\n".utf8))
        return 2
    } catch {
        FileHandle.standardError.write(Data("vietmap-sim: \(error)\n".utf8))
        return 1
    }
}

exit(runCommandLine())
