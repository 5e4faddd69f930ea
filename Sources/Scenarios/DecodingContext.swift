import JSON

/// Collects the issues found while decoding one scenario document and offers typed reads
/// that report a precise, JSON-pointer-located reason instead of failing at the first error.
final class DecodingContext {
    let file: String?
    private(set) var issues: [ScenarioIssue] = []
    /// Problems that do not stop the document from loading.
    private(set) var warnings: [ScenarioIssue] = []

    init(file: String?) {
        self.file = file
    }

    func report(_ path: JSONPointer, _ reason: String) {
        issues.append(ScenarioIssue(file: file, pointer: path.description, reason: reason))
    }

    func warn(_ path: JSONPointer, _ reason: String) {
        warnings.append(ScenarioIssue(file: file, pointer: path.description, reason: reason, isWarning: true))
    }

    /// The object at `path`, with every key outside `allowed` reported.
    func object(_ value: JSONValue, at path: JSONPointer, allowed: [String]) -> JSONObject? {
        guard case .object(let object) = value else {
            report(path, "must be an object, found \(describe(value))")
            return nil
        }
        for key in object.keys where !allowed.contains(key) {
            report(path.appending(key), "unknown key '\(key)'; expected one of: \(allowed.joined(separator: ", "))")
        }
        return object
    }

    func array(_ value: JSONValue, at path: JSONPointer, nonEmpty: Bool = true) -> [JSONValue]? {
        guard case .array(let items) = value else {
            report(path, "must be an array, found \(describe(value))")
            return nil
        }
        if nonEmpty && items.isEmpty {
            report(path, "must not be empty")
            return nil
        }
        return items
    }

    func string(_ value: JSONValue, at path: JSONPointer, nonEmpty: Bool = true) -> String? {
        guard case .string(let text) = value else {
            report(path, "must be a string, found \(describe(value))")
            return nil
        }
        if nonEmpty && text.isEmpty {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    func integer(_ value: JSONValue, at path: JSONPointer, in range: ClosedRange<Int>) -> Int? {
        integer(value, at: path, in: range, saying: "from \(range.lowerBound) to \(range.upperBound)")
    }

    func integer(_ value: JSONValue, at path: JSONPointer, atLeast minimum: Int) -> Int? {
        integer(value, at: path, in: minimum...Int.max, saying: "≥ \(minimum)")
    }

    /// - Parameter bounds: `range` as the message says it.
    private func integer(_ value: JSONValue, at path: JSONPointer, in range: ClosedRange<Int>, saying bounds: String) -> Int? {
        guard let number = value.intValue, range.contains(number) else {
            report(path, "must be an integer \(bounds), found \(describe(value))")
            return nil
        }
        return number
    }

    func number(_ value: JSONValue, at path: JSONPointer, in range: ClosedRange<Double>) -> Double? {
        guard let number = value.doubleValue, range.contains(number) else {
            report(path, "must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), found \(describe(value))")
            return nil
        }
        return number
    }

    func bool(_ value: JSONValue, at path: JSONPointer) -> Bool? {
        guard case .bool(let flag) = value else {
            report(path, "must be true or false, found \(describe(value))")
            return nil
        }
        return flag
    }

    /// `"a string \"x\""`, `an integer 3`, … for messages.
    func describe(_ value: JSONValue) -> String {
        let text = JSONSerializer.string(value)
        let shown = text.count > 60 ? String(text.prefix(57)) + "…" : text
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        default: return "\(value.typeName) \(shown)"
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
