import Foundation
import Scenarios

/// `vietmap-sim scenarios validate [FILE|DIR…]`, `vietmap-sim scenarios list [DIR]` and
/// `vietmap-sim scenarios from-har FILE.har …` / `from-recording DIR …` (`ScenariosFromCapture`).
enum ScenariosCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        switch arguments.first {
        case "from-har": return try ScenariosFromCapture.runHAR(Array(arguments.dropFirst()))
        case "from-recording": return try ScenariosFromCapture.runRecordings(Array(arguments.dropFirst()))
        default: break
        }
        let options = try CommandLineArguments(arguments, valued: ["scenarios"], boolean: ["help"])
        if options.has("help") { print(Usage.scenarios); return 0 }
        guard let subcommand = options.positionals.first else {
            throw CommandLineArguments.UsageError(description: "scenarios needs a subcommand: validate, list, from-har or from-recording")
        }
        let paths = Array(options.positionals.dropFirst())
        switch subcommand {
        case "validate": return try validate(paths, directory: options.value("scenarios"))
        case "list": return try list(paths, directory: options.value("scenarios"))
        default:
            throw CommandLineArguments.UsageError(description: "unknown scenarios subcommand '\(subcommand)'; use validate, list, from-har or from-recording")
        }
    }

    /// Prints every problem as `FILE: POINTER: REASON` (exit 1), or an OK line (exit 0).
    private static func validate(_ paths: [String], directory: String?) throws -> Int32 {
        let files = try scenarioFiles(paths, directory: directory)
        let library = ScenarioLibrary.load(files: files)
        for issue in library.issues { print(issue) }
        for warning in library.warnings { print(warning) }
        if library.issues.isEmpty {
            print("OK: \(library.scenarios.count) scenario\(library.scenarios.count == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")")
            return 0
        }
        let failed = Set(library.issues.compactMap(\.file)).count
        print("FAILED: \(library.issues.count) error\(library.issues.count == 1 ? "" : "s") in \(failed) of \(files.count) file\(files.count == 1 ? "" : "s")")
        return 1
    }

    private static func list(_ paths: [String], directory: String?) throws -> Int32 {
        let library = ScenarioLibrary.load(files: try scenarioFiles(paths, directory: directory))
        let width = library.scenarios.map(\.name.count).max() ?? 0
        for scenario in library.scenarios {
            print(scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.description)
        }
        for issue in library.issues { FileHandle.standardError.write(Data("vietmap-sim: \(issue)\n".utf8)) }
        return library.issues.isEmpty ? 0 : 1
    }

    /// Files as given, folders expanded to their scenario files; nothing given: `--scenarios`
    /// or `./Scenarios`.
    private static func scenarioFiles(_ paths: [String], directory: String?) throws -> [URL] {
        let targets = paths.isEmpty ? [directory ?? "Scenarios"] : paths
        var files: [URL] = []
        for path in targets {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                do {
                    files += try ScenarioFiles.list(in: URL(fileURLWithPath: path))
                } catch {
                    throw CLIError("cannot list \(path): \(error.localizedDescription)")
                }
            } else if paths.isEmpty {
                throw CLIError("no scenarios folder '\(path)'; give files or --scenarios DIR")
            } else {
                files.append(URL(fileURLWithPath: path))
            }
        }
        return files
    }
}
