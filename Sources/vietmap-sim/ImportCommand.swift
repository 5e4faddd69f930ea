import Dataset
import DefaultData
import Foundation

/// `vietmap-sim import --out PATH [INPUT…]`.
enum ImportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valued: ["out"], boolean: ["help"])
        if options.has("help") { print(Usage.importCommand); return 0 }
        guard let out = options.value("out"), !out.isEmpty else {
            throw CommandLineArguments.UsageError(description: "import needs --out PATH")
        }
        let inputs = options.positionals.isEmpty
            ? DefaultData.inputFiles
            : options.positionals.map { URL(fileURLWithPath: $0) }
        let started = Date()
        let report = try DatasetBuilder().build(inputs: inputs, output: URL(fileURLWithPath: out))
        print(report)
        print(String(format: "wrote %@ in %.2f s", out, Date().timeIntervalSince(started)))
        return 0
    }
}
