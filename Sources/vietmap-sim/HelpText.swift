import Foundation
/// The help texts, made from the declared commands and options (``CommandSpec``, ``OptionSpec``):
/// the usage line lists every option, the OPTIONS section describes each one, so neither can miss
/// one the parser accepts.
enum HelpText {
    /// Columns the text is wrapped to.
    static let width = 100
    /// Where an option's description starts.
    static let descriptionColumn = 19

    /// `vietmap-sim COMMAND --help`.
    static func command(_ spec: CommandSpec) -> String {
        var text = synopsis(spec, prefix: "USAGE: ")
        if !spec.discussion.isEmpty { text += "\n\n" + spec.discussion }
        text += "\n\nOPTIONS:\n" + optionLines(spec.allOptions)
        if !spec.footer.isEmpty { text += "\n\n" + spec.footer }
        return text
    }

    /// The help of a command with subcommands: their usage lines, the group's prose, then each
    /// subcommand's options.
    static func group(discussion: String, subcommands: [CommandSpec]) -> String {
        var text = subcommands.enumerated().map { index, spec in
            synopsis(spec, prefix: index == 0 ? "USAGE: " : "       ")
        }.joined(separator: "\n")
        text += "\n\n" + discussion
        for spec in subcommands {
            text += "\n\nOPTIONS of \(spec.name):\n" + optionLines(spec.allOptions)
        }
        return text
    }

    /// `vietmap-sim NAME --required R [POSITIONALS] [--option VALUE] [--repeated V]…`, wrapped
    /// with the continuation lines under the first option.
    static func synopsis(_ spec: CommandSpec, prefix: String = "") -> String {
        var words: [String] = []
        for option in spec.options where option.required { words.append(option.label) }
        switch spec.positionals {
        case .none: break
        case .any(let placeholder), .one(let placeholder): words.append(placeholder)
        }
        for option in spec.options where !option.required {
            words.append("[\(option.label)]" + (option.arity == .repeatable ? "…" : ""))
        }
        let head = prefix + "vietmap-sim " + spec.name
        return wrap(words, first: head, indent: String(repeating: " ", count: head.count + 1))
    }

    /// Two-space indented `--label  description` lines; a label longer than the column gets its
    /// description on the next line.
    static func optionLines(_ options: [OptionSpec]) -> String {
        let indent = String(repeating: " ", count: descriptionColumn)
        return options.map { option in
            let label = "  " + (option.name == "help" ? "-h, --help" : option.label)
            let words = option.help.split(separator: " ").map(String.init)
            if label.count < descriptionColumn - 1 {
                let head = label.padding(toLength: descriptionColumn - 1, withPad: " ", startingAt: 0)
                return wrap(words, first: head, indent: indent)
            }
            return label + "\n" + wrap(words, first: String(indent.dropLast()), indent: indent)
        }.joined(separator: "\n")
    }

    /// `words` after `first`, one space apart, a new line (starting with `indent`) before a word
    /// that would pass ``width``.
    static func wrap(_ words: [String], first: String, indent: String) -> String {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
