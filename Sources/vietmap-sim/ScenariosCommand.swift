import BuiltInScenarios
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
