import Foundation

/// The built `vietmap-sim` executable, run as a user runs it, for the CLI tests of every test
/// target: found next to the test bundle, its exit code and both outputs collected.
public enum CLIRunner {
    /// How one run ended.
    public struct Outcome: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The `vietmap-sim` executable in the build folder holding the test bundle of `anchor`;
    /// nil when it has not been built.
    public static func executable(besideBundleOf anchor: AnyClass) -> URL? {
        var directory = Bundle(for: anchor).bundleURL
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("vietmap-sim")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The first line a started `serve` writes to `out` (`vietmap-sim listening on …`), read as
    /// it arrives; what came before end of file when the process ended first.
    public static func readyLine(_ out: Pipe) -> String {
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text.split(separator: "\n").first.map(String.init) ?? text
    }

    /// The first `count` lines a started process writes to `out` (fewer if it ends first).
    public static func firstLines(_ out: Pipe, count: Int) -> [String] {
        var text = ""
        while text.split(separator: "\n").count < count {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }

    /// The base URL of a started `serve` from its ready line (`http://127.0.0.1:PORT`).
    public static func baseURL(_ out: Pipe) -> String {
        String(readyLine(out).dropFirst("vietmap-sim listening on ".count))
    }

    /// `/usr/bin/curl --silent --show-error --max-time SECONDS ARGUMENTS…` with no proxy taken from
    /// the environment: its exit status and its output (stdout and stderr together).
    public static func curl(_ arguments: [String], maxTime seconds: Int = 10) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", String(seconds)] + arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"] {
            environment[name] = nil
        }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `executable` with `arguments` (in `directory`, with `environment` added to this
    /// process's) until it exits.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}
