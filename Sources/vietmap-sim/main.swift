import Foundation

/// Entry point: run the command, turn errors into one line on stderr and an exit status
/// (``ExitStatus``: 64 for usage errors, 1 for everything else).
func runCommandLine() -> Int32 {
    do {
        return try CommandTable.run(Array(CommandLine.arguments.dropFirst()))
    } catch let error as UsageError {
        FileHandle.standardError.write(Data("vietmap-sim: \(error.description)\n".utf8))
        return ExitStatus.usage
    } catch {
        FileHandle.standardError.write(Data("vietmap-sim: \(error)\n".utf8))
        return ExitStatus.failure
    }
}

exit(runCommandLine())
