/// What the value of an ``OptionSpec`` must be. ``check(_:option:)`` is the one place where a
/// malformed value becomes a usage error, in one wording:
/// `--NAME must be WHAT, got 'VALUE'` (and, for a choice, the nearest word: "; did you mean 'auto'?").
enum OptionValue: Sendable {
    /// Any text (paths, URLs, names checked by the command itself).
    case text
    /// Any text but the empty one.
    case nonEmpty
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// A whole number from 0 to 2^64−1 (seeds).
    case unsigned
    /// A finite number in the range; `above` excludes the lower bound. `unit` names what it counts
    /// (`seconds`, `metres`) in the error.
    case number(ClosedRange<Double>, unit: String, above: Bool = false)
    /// One of these words.
    case choice([String])

    /// Throws the usage error for a value that is not what the option takes.
    func check(_ text: String, option: String) throws(UsageError) {
        guard let problem = Self.describe(self, accepting: text) else { return }
        var hint = ""
        if case .choice(let words) = self { hint = Suggestion.hint(for: text, in: words) }
        throw UsageError("--\(option) must be \(problem), got '\(text.prefix(80))'" + hint)
    }

    /// What the option takes, for the error; nil when `text` is fine.
    private static func describe(_ value: OptionValue, accepting text: String) -> String? {
        switch value {
        case .text:
            return nil
        case .nonEmpty:
            return text.isEmpty ? "non-empty" : nil
        case .integer(let range):
            if let number = Int(text), range.contains(number) { return nil }
            if range.upperBound == Int.max { return "a whole number ≥ \(range.lowerBound)" }
            return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .unsigned:
            return UInt64(text) == nil ? "a whole number from 0 to 2^64-1" : nil
        case .number(let range, let unit, let above):
            if let number = Double(text), number.isFinite, range.contains(number), !above || number > range.lowerBound { return nil }
            let what = unit.isEmpty ? "a number" : "a number of \(unit)"
            if range.upperBound == .greatestFiniteMagnitude {
                return above && range.lowerBound == 0 ? "a positive \(what.dropFirst(2))" : "\(what) ≥ \(format(range.lowerBound))"
            }
            return "\(what) from \(format(range.lowerBound))\(above ? " (exclusive)" : "") to \(format(range.upperBound))"
        case .choice(let words):
            if words.contains(text) { return nil }
            return words.count == 1 ? "'\(words[0])'" : words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
