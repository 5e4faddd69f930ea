/// One option of a command, declared once: its name, the value it takes (none for a flag), whether it is
/// required or repeatable, its help text and how its value is checked. The parser
/// (``CommandLineArguments``), the help (``HelpText``) and the option-table test all read this
/// declaration, so an option cannot be accepted without being documented or documented without
/// being accepted (in the manner of swift-argument-parser's `@Option`/`@Flag`, which this package
/// cannot use).
struct OptionSpec: Sendable {
    /// How often the option may be given.
    enum Arity: Sendable {
        /// At most once in meaning: given again, the last value counts.
        case single
        /// Every value counts (`--api-key A --api-key B`).
        case repeatable
    }

    /// The name without the leading `--`.
    let name: String
    /// The value's placeholder in the help (`PORT`, `LAT,LNG`); nil for a flag.
    let placeholder: String?
    let arity: Arity
    /// Whether the command refuses to run without it.
    let required: Bool
    /// One paragraph; ``HelpText`` wraps it.
    let help: String
    /// What a value must be; checked while parsing, so a malformed value is a usage error
    /// naming the option, never a silent default.
    let value: OptionValue

    var isFlag: Bool { placeholder == nil }

    /// `--name PLACEHOLDER` (or `--name`).
    var label: String { "--\(name)" + (placeholder.map { " " + $0 } ?? "") }

    /// An option that takes a value.
    static func option(_ name: String, _ placeholder: String, _ value: OptionValue, repeatable: Bool = false,
                       required: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, arity: repeatable ? .repeatable : .single, required: required,
                   help: help, value: value)
    }

    /// An option that takes any text.
    static func option(_ name: String, _ placeholder: String, repeatable: Bool = false, required: Bool = false,
                       _ help: String) -> OptionSpec {
        option(name, placeholder, .text, repeatable: repeatable, required: required, help)
    }

    /// An option that takes no value.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: nil, arity: .single, required: false, help: help, value: .text)
    }

    /// `-h, --help`, which every command has.
    static let help = flag("help", "show this help")
}
