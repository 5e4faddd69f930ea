/// A command of `vietmap-sim`, declared once: its name, a one-line summary for the main help, the
/// arguments it takes besides options, its prose, its options and what runs it. The dispatcher
/// (``CommandTable``), the parser (``CommandLineArguments``) and the help (``HelpText``) are all
/// made from this declaration.
struct CommandSpec: Sendable {
    /// What a command takes besides its options.
    enum Positionals: Sendable {
        case none
        /// Any number, shown as `placeholder` (`[INPUT…]`).
        case any(String)
        /// Exactly one, shown as `placeholder` (`FILE.har`).
        case one(String)
    }

    /// The words after `vietmap-sim`: `serve`, `scenarios from-har`.
    let name: String
    /// One line for the main help's list of commands.
    let summary: String
    let positionals: Positionals
    /// The help's paragraphs between USAGE and OPTIONS (may be empty).
    let discussion: String
    /// Every option but `--help`, which every command has.
    let options: [OptionSpec]
    /// Text after the options (a data licence), or "".
    var footer: String = ""
    /// Runs the command with its parsed arguments; returns the exit status.
    let run: @Sendable (CommandLineArguments) throws -> Int32

    /// The declared options and `--help`.
    var allOptions: [OptionSpec] { options + [.help] }

    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }
}
