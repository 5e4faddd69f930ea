import BuiltInScenarios
import Foundation
import Scenarios

/// `vietmap-sim scenarios validate [FILE|DIR…]`, `vietmap-sim scenarios list [DIR]` and
/// `vietmap-sim scenarios from-har FILE.har …` / `from-recording DIR …` (`ScenariosFromCapture`).
enum ScenariosCommand {
    static let name = "scenarios"

    /// `scenarios SUBCOMMAND …`; the options of `validate` and `list` may also come before the
    /// subcommand (`scenarios --scenarios DIR validate`), as they always could.
    static func run(_ arguments: [String]) throws -> Int32 {
        guard let first = arguments.first else {
            throw UsageError("scenarios needs a subcommand: \(subcommandNames.joined(separator: ", "))")
        }
        if first == "--help" || first == "-h" {
            print(help)
            return ExitStatus.success
        }
        if let spec = subcommand(first) {
            return try CommandTable.run(spec, Array(arguments.dropFirst()))
        }
        guard first.hasPrefix("-") else { throw unknown(first) }
        let leading = try CommandLineArguments(arguments, command: leadingOptions)
        if leading.has("help") {
            print(help)
            return ExitStatus.success
        }
        guard let name = leading.positionals.first, let spec = subcommand(name),
              let index = arguments.firstIndex(of: name) else {
            throw leading.positionals.first.map(unknown) ?? UsageError("scenarios needs a subcommand: \(subcommandNames.joined(separator: ", "))")
        }
        var rest = arguments
        rest.remove(at: index)
        return try CommandTable.run(spec, rest)
    }

    private static func subcommand(_ name: String) -> CommandSpec? {
        subcommands.first { $0.name == "\(Self.name) \(name)" }
    }

    private static func unknown(_ name: String) -> UsageError {
        UsageError("unknown scenarios subcommand '\(name.prefix(80))'" + Suggestion.hint(for: name, in: subcommandNames)
            + "; use \(subcommandNames.joined(separator: ", "))")
    }

    static func validate(_ options: CommandLineArguments) throws -> Int32 {
        try validate(options.positionals, directory: options.value("scenarios"))
    }

    static func list(_ options: CommandLineArguments) throws -> Int32 {
        try list(options.positionals, directory: options.value("scenarios"))
    }

    /// Prints every problem as `FILE: POINTER: REASON` (exit 1), or an OK line (exit 0).
    private static func validate(_ paths: [String], directory: String?) throws -> Int32 {
        let (library, fileCount, source) = try load(paths, directory: directory)
        for issue in library.issues { print(issue) }
        for warning in library.warnings { print(warning) }
        if library.issues.isEmpty {
            print("OK: \(library.scenarios.count) scenario\(library.scenarios.count == 1 ? "" : "s") in \(fileCount) file\(fileCount == 1 ? "" : "s")\(source)")
            return 0
        }
        let failed = Set(library.issues.compactMap(\.file)).count
        print("FAILED: \(library.issues.count) error\(library.issues.count == 1 ? "" : "s") in \(failed) of \(fileCount) file\(fileCount == 1 ? "" : "s")\(source)")
        return 1
    }

    private static func list(_ paths: [String], directory: String?) throws -> Int32 {
        let (library, _, _) = try load(paths, directory: directory)
        let width = library.scenarios.map(\.name.count).max() ?? 0
        for scenario in library.scenarios {
            print(scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.description)
        }
        for issue in library.issues { FileHandle.standardError.write(Data("vietmap-sim: \(issue)\n".utf8)) }
        return library.issues.isEmpty ? 0 : 1
    }

    /// What `serve` in this folder loads when nothing is given: the built-in scenarios, overridden
    /// by those of `--scenarios DIR` (which must exist) or of `./Scenarios` when it exists. Given
    /// files or folders: those alone. Also the number of files read and how to describe them.
    private static func load(_ paths: [String], directory: String?) throws -> (ScenarioLibrary, Int, String) {
        guard paths.isEmpty else {
            let files = try scenarioFiles(paths)
            return (ScenarioLibrary.load(files: files), files.count, "")
        }
        let builtIn = BuiltInScenarios.files
        var folder: URL?
        if let directory {
            guard isDirectory(directory) else { throw CLIError("no scenarios folder '\(directory)' (--scenarios); give an existing folder") }
            folder = URL(fileURLWithPath: directory)
        } else if isDirectory("Scenarios") {
            folder = URL(fileURLWithPath: "Scenarios")
        }
        let folderFiles: [URL]
        if let folder {
            do {
                folderFiles = try ScenarioFiles.list(in: folder)
            } catch {
                throw CLIError("cannot list \(folder.relativePath): \(error.localizedDescription)")
            }
        } else {
            folderFiles = []
        }
        let library = ScenarioLibrary.load(builtIn: builtIn, directory: folder)
        let source = " (\(builtIn.count) built-in" + (folder.map { ", \(folderFiles.count) in \($0.relativePath)" } ?? "; no ./Scenarios folder") + ")"
        return (library, builtIn.count + folderFiles.count, source)
    }

    /// Files as given, folders expanded to their scenario files.
    private static func scenarioFiles(_ paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            if isDirectory(path) {
                do {
                    files += try ScenarioFiles.list(in: URL(fileURLWithPath: path))
                } catch {
                    throw CLIError("cannot list \(path): \(error.localizedDescription)")
                }
            } else {
                files.append(URL(fileURLWithPath: path))
            }
        }
        return files
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
