/// A small parser for `--flag value`, `--flag=value` and boolean `--flag` options plus positionals.
/// Unknown or malformed options are a `UsageError` (one line, exit code 2).
struct CommandLineArguments {
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - valued: options that take a value (without the leading `--`).
    ///   - boolean: options that take none.
    init(_ arguments: [String], valued: Set<String>, boolean: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if name == "h" { name = "help" }
            if boolean.contains(name) {
                guard inlineValue == nil else { throw UsageError(description: "option --\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError(description: "option --\(name) needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw UsageError(description: "unknown option '\(argument)'" + Suggestion.hint(for: name, in: valued.union(boolean), prefix: "--"))
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}
