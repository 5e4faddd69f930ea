/// The arguments of one command parsed against its declared options (``CommandSpec``):
/// `--name value`, `--name=value`, flags, `-h`, and positionals (`--` ends the options).
/// Every problem is a one-line ``UsageError``: an unknown option (with the nearest declared one),
/// a missing or malformed value (``OptionValue``), a flag given a value, a missing required option,
/// an argument the command does not take. A command reads only what it declared: asking for an
/// undeclared name is a programming error and stops the process.
struct CommandLineArguments {
    let command: CommandSpec
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], command: CommandSpec) throws(UsageError) {
        self.command = command
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
            guard let option = command.option(named: name) else {
                throw UsageError("unknown option '\(argument)' for \(command.name)"
                    + Suggestion.hint(for: name, in: command.allOptions.map(\.name), prefix: "--")
                    + "; try 'vietmap-sim \(command.name) --help'")
            }
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value: \(option.label)") }
                value = arguments[index]
                index += 1
            }
            try option.value.check(value, option: name)
            values[name, default: []].append(value)
        }
        guard !flags.contains("help") else { return }  // the help needs nothing else
        for option in command.options where option.required && values[option.name] == nil {
            throw UsageError("\(command.name) needs \(option.label)")
        }
        switch command.positionals {
        case .none:
            if let first = positionals.first {
                throw UsageError("\(command.name) takes no arguments besides options, got '\(first.prefix(80))'")
            }
        case .one(let placeholder):
            guard positionals.count == 1 else {
                throw UsageError("\(command.name) takes one \(placeholder), got \(positionals.count)")
            }
        case .any:
            break
        }
    }

    /// The value of a declared option (the last one when given more than once).
    func value(_ name: String) -> String? { declared(name, flag: false); return values[name]?.last }
    /// Every value of a declared option, in order.
    func all(_ name: String) -> [String] { declared(name, flag: false); return values[name] ?? [] }
    /// Whether a declared flag was given.
    func has(_ name: String) -> Bool { declared(name, flag: true); return flags.contains(name) }

    /// The value of an option declared `.integer` (checked while parsing).
    func integer(_ name: String) -> Int? { value(name).flatMap { Int($0) } }
    /// The value of an option declared `.unsigned`.
    func unsigned(_ name: String) -> UInt64? { value(name).flatMap { UInt64($0) } }
    /// The value of an option declared `.number`.
    func number(_ name: String) -> Double? { value(name).flatMap { Double($0) } }

    private func declared(_ name: String, flag: Bool) {
        guard let option = command.option(named: name), option.isFlag == flag else {
            preconditionFailure("\(command.name) reads --\(name), which it does not declare as a \(flag ? "flag" : "valued option")")
        }
    }
}
