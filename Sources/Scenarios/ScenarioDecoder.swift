import VietMapWire
import Foundation
import JSON

/// Turns a scenario document into a `Scenario`, reporting every problem with its JSON
/// pointer (structural validation; the JSON Schema in `Scenarios/scenario.schema.json`
/// describes the same format for editors).
enum ScenarioDecoder {
    static let topKeys = ["$schema", "name", "description", "seed", "initialState", "rules"]
    static let ruleKeys = ["name", "match", "state", "when", "nextState", "sequence"] + ActionDecoder.keys
    static let namePattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"

    /// Decodes a file's bytes. Returns the scenario, or nil and at least one issue.
    static func decode(_ data: Data, file: String?) -> (scenario: Scenario?, issues: [ScenarioIssue]) {
        guard data.count <= ScenarioLimits.fileBytes else {
            return (nil, [ScenarioIssue(file: file, pointer: "",
                                        reason: "the file has \(data.count) bytes; at most \(ScenarioLimits.fileBytes) (128 MiB) are loaded")])
        }
        // A UTF-8 byte-order mark (some Windows editors write one) is not part of the JSON.
        var data = data
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = Data(data.dropFirst(3)) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            let (line, column) = position(of: error.offset, in: data)
            return (nil, [ScenarioIssue(file: file, pointer: "",
                                        reason: "invalid JSON at line \(line), column \(column): \(error.reason)")])
        }
        return decode(value, file: file)
    }

    static func decode(_ value: JSONValue, file: String?) -> (scenario: Scenario?, issues: [ScenarioIssue]) {
        let context = DecodingContext(file: file)
        let scenario = decodeScenario(value, context)
        return context.issues.isEmpty ? (scenario, []) : (nil, context.issues)
    }

    private static func decodeScenario(_ value: JSONValue, _ context: DecodingContext) -> Scenario? {
        let root = JSONPointer(tokens: [])
        guard let object = context.object(value, at: root, allowed: topKeys) else { return nil }
        if let schema = object["$schema"] { _ = context.string(schema, at: root.appending("$schema")) }

        var name: String?
        if let raw = object["name"] {
            name = scenarioName(raw, at: root.appending("name"), context)
        } else {
            context.report(root, "missing required key 'name'")
        }
        var description: String?
        if let raw = object["description"] {
            description = context.string(raw, at: root.appending("description"))
        } else {
            context.report(root, "missing required key 'description'")
        }
        var seed: UInt64?
        if let raw = object["seed"] {
            seed = context.integer(raw, at: root.appending("seed"), in: 0...Int.max).map { UInt64($0) }
        }
        var initialState = "Started"
        if let raw = object["initialState"], let text = context.string(raw, at: root.appending("initialState")) {
            initialState = text
        }
        var rules: [ScenarioRule] = []
        if let raw = object["rules"] {
            let path = root.appending("rules")
            if let items = context.array(raw, at: path) {
                for (index, item) in items.enumerated() {
                    if let rule = decodeRule(item, index: index, at: path.appending(index), context) { rules.append(rule) }
                }
                checkStates(items, rules: rules, initialState: initialState, at: path, context)
                if object["initialState"] != nil, rules.count == items.count, rules.allSatisfy({ $0.states == nil }) {
                    context.warn(root.appending("initialState"),
                                 "initialState '\(initialState)' has no effect: no rule has a 'state' condition")
                }
            }
        } else {
            context.report(root, "missing required key 'rules'")
        }
        guard let name, let description, context.issues.isEmpty else { return nil }
        return Scenario(name: name, description: description, seed: seed, initialState: initialState, file: context.file,
                        source: value, rules: rules, warnings: context.warnings)
    }

    private static func scenarioName(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> String? {
        guard let text = context.string(value, at: path) else { return nil }
        guard text.range(of: namePattern, options: .regularExpression) != nil else {
            context.report(path, "must be 1–100 letters, digits, '.', '_' or '-' starting with a letter or digit, found \"\(text.prefix(60))\"")
            return nil
        }
        return text
    }

    // MARK: Rules

    private static func decodeRule(_ value: JSONValue, index: Int, at path: JSONPointer,
                                   _ context: DecodingContext) -> ScenarioRule? {
        guard let object = context.object(value, at: path, allowed: ruleKeys) else { return nil }
        var label = "#\(index)"
        if let raw = object["name"], let text = context.string(raw, at: path.appending("name")) { label = text }
        let match = object["match"].map { decodeMatch($0, at: path.appending("match"), context) } ?? .any
        var states: [String]?
        if let raw = object["state"] { states = stateNames(raw, at: path.appending("state"), context) }
        let when = object["when"].map { decodeWhen($0, at: path.appending("when"), context) } ?? .always
        var nextState: String?
        if let raw = object["nextState"] { nextState = context.string(raw, at: path.appending("nextState")) }

        let behaviour: ScenarioRule.Behaviour
        if let raw = object["sequence"] {
            for key in ActionDecoder.keys where object[key] != nil {
                context.report(path.appending(key), "'\(key)' cannot be combined with 'sequence'; put it in a step")
            }
            guard let sequence = decodeSequence(raw, at: path.appending("sequence"), context) else { return nil }
            behaviour = .sequence(sequence)
        } else {
            guard let action = ActionDecoder.decode(object, at: path, context) else { return nil }
            behaviour = .action(action)
        }
        guard let match, let when else { return nil }
        return ScenarioRule(label: label, match: match, states: states, when: when, behaviour: behaviour,
                            nextState: nextState)
    }

    private static func stateNames(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> [String]? {
        if case .array(let items) = value {
            guard !items.isEmpty else { context.report(path, "must not be empty"); return nil }
            let names = items.enumerated().compactMap { context.string($1, at: path.appending($0)) }
            return names.count == items.count ? names : nil
        }
        guard case .string = value else {
            context.report(path, "must be a state name or an array of state names, found \(context.describe(value))")
            return nil
        }
        return context.string(value, at: path).map { [$0] }
    }

    /// Every state a rule requires must be reachable: the initial state or some rule's `nextState`.
    private static func checkStates(_ items: [JSONValue], rules: [ScenarioRule], initialState: String,
                                    at path: JSONPointer, _ context: DecodingContext) {
        guard rules.count == items.count else { return }
        let entered = Set([initialState] + rules.compactMap(\.nextState))
        for (index, rule) in rules.enumerated() {
            for state in rule.states ?? [] where !entered.contains(state) {
                context.report(path.appending(index).appending("state"),
                               "state '\(state)' is never entered: it is not the initialState ('\(initialState)') and no rule has nextState '\(state)'")
            }
        }
    }

    // MARK: match

    private static func decodeMatch(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> RequestMatch? {
        guard let object = context.object(value, at: path, allowed: ["endpoint", "params", "exact"]) else { return nil }
        var match = RequestMatch.any
        var valid = true
        if let raw = object["endpoint"] {
            let endpointPath = path.appending("endpoint")
            let names: [(String, JSONPointer)]
            switch raw {
            case .string(let name): names = [(name, endpointPath)]
            case .array(let items) where !items.isEmpty:
                names = items.enumerated().compactMap { index, item in
                    context.string(item, at: endpointPath.appending(index)).map { ($0, endpointPath.appending(index)) }
                }
                valid = valid && names.count == items.count
            default:
                context.report(endpointPath, "must be an endpoint or family name (\(APIEndpoint.words.joined(separator: ", "))) or any, or a non-empty array of them; found \(context.describe(raw))")
                names = []
                valid = false
            }
            var endpoints = Set<APIEndpoint>()
            var matchesAny = false
            for (name, namePath) in names {
                if name == "any" {
                    matchesAny = true
                } else if let named = APIEndpoint.named(name) {
                    endpoints.formUnion(named)
                } else {
                    context.report(namePath, "unknown endpoint '\(name)'; expected any or one of \(APIEndpoint.words.joined(separator: ", "))")
                    valid = false
                }
            }
            match.endpoints = matchesAny ? nil : endpoints
        }
        if let raw = object["params"] {
            let paramsPath = path.appending("params")
            if case .object(let params) = raw {
                for (name, conditionValue) in params {
                    if let condition = decodeCondition(conditionValue, at: paramsPath.appending(name), context) {
                        match.parameters.append((name, condition))
                    } else {
                        valid = false
                    }
                }
            } else {
                context.report(paramsPath, "must be an object of parameter name → condition, found \(context.describe(raw))")
                valid = false
            }
        }
        if let raw = object["exact"] {
            if let exact = context.bool(raw, at: path.appending("exact")) { match.exact = exact } else { valid = false }
        }
        return valid ? match : nil
    }

    static let conditionKeys = ["equals", "contains", "prefix", "regex", "present", "absent", "ignoreCase", "ignoreAccents"]

    private static func decodeCondition(_ value: JSONValue, at path: JSONPointer,
                                        _ context: DecodingContext) -> ParameterCondition? {
        if case .string(let text) = value { return ParameterCondition(equals: text) }
        if case .array(let items) = value {
            guard !items.isEmpty else {
                context.report(path, "must not be empty (an array lists the exact values, in order)")
                return nil
            }
            let values = items.enumerated().compactMap { context.string($1, at: path.appending($0)) }
            return values.count == items.count ? ParameterCondition(values: values) : nil
        }
        guard case .object = value else {
            context.report(path, "must be a string (equals), an array of strings (exact values in order) or a condition object, found \(context.describe(value))")
            return nil
        }
        guard let object = context.object(value, at: path, allowed: conditionKeys) else { return nil }
        let before = context.issues.count
        var condition = ParameterCondition()
        if let raw = object["ignoreCase"] { condition.ignoreCase = context.bool(raw, at: path.appending("ignoreCase")) ?? false }
        if let raw = object["ignoreAccents"] {
            condition.ignoreAccents = context.bool(raw, at: path.appending("ignoreAccents")) ?? false
        }
        if let raw = object["equals"] { condition.equals = context.string(raw, at: path.appending("equals"), nonEmpty: false) }
        if let raw = object["contains"] { condition.contains = context.string(raw, at: path.appending("contains")) }
        if let raw = object["prefix"] { condition.prefix = context.string(raw, at: path.appending("prefix")) }
        if let raw = object["regex"], let pattern = context.string(raw, at: path.appending("regex")) {
            do {
                condition.regex = try CompiledRegex(pattern: pattern, ignoreCase: condition.ignoreCase)
            } catch {
                context.report(path.appending("regex"), "invalid regular expression \"\(pattern.prefix(60))\": \(error)")
            }
        }
        let present = object["present"].flatMap { context.bool($0, at: path.appending("present")) }
        let absent = object["absent"].flatMap { context.bool($0, at: path.appending("absent")) }
        if let present, let absent, present == absent {
            context.report(path, "'present' and 'absent' contradict each other")
        }
        condition.present = present ?? absent.map { !$0 }
        let hasStringTest = object["equals"] != nil || object["contains"] != nil || object["prefix"] != nil || object["regex"] != nil
        if condition.present == false && hasStringTest {
            context.report(path, "an absent parameter cannot also be compared to a value")
        }
        if !hasStringTest && object["present"] == nil && object["absent"] == nil {
            context.report(path, "needs at least one of equals, contains, prefix, regex, present, absent")
        }
        return context.issues.count == before ? condition : nil
    }

    // MARK: when

    static let whenKeys = ["nth", "from", "to", "first", "every", "probability", "burst"]

    private static func decodeWhen(_ value: JSONValue, at path: JSONPointer, _ context: DecodingContext) -> CallCondition? {
        guard let object = context.object(value, at: path, allowed: whenKeys) else { return nil }
        let before = context.issues.count
        var condition = CallCondition()
        condition.nth = object["nth"].flatMap { context.integer($0, at: path.appending("nth"), atLeast: 1) }
        condition.from = object["from"].flatMap { context.integer($0, at: path.appending("from"), atLeast: 1) }
        condition.to = object["to"].flatMap { context.integer($0, at: path.appending("to"), atLeast: 1) }
        condition.first = object["first"].flatMap { context.integer($0, at: path.appending("first"), atLeast: 1) }
        condition.every = object["every"].flatMap { context.integer($0, at: path.appending("every"), atLeast: 1) }
        condition.probability = object["probability"].flatMap { context.number($0, at: path.appending("probability"), in: 0...1) }
        if let from = condition.from, let to = condition.to, from > to {
            context.report(path.appending("to"), "must be ≥ 'from' (\(from)), found \(to)")
        }
        if let raw = object["burst"] {
            let burstPath = path.appending("burst")
            if let burst = context.object(raw, at: burstPath, allowed: ["count", "withinMs"]) {
                let count = burst["count"].flatMap { context.integer($0, at: burstPath.appending("count"), in: 1...10_000) }
                let within = burst["withinMs"].flatMap { context.integer($0, at: burstPath.appending("withinMs"), in: 1...3_600_000) }
                if burst["count"] == nil { context.report(burstPath, "missing required key 'count'") }
                if burst["withinMs"] == nil { context.report(burstPath, "missing required key 'withinMs'") }
                if let count, let within { condition.burst = .init(count: count, withinMs: within) }
            }
        }
        return context.issues.count == before ? condition : nil
    }

    // MARK: sequence

    private static func decodeSequence(_ value: JSONValue, at path: JSONPointer,
                                       _ context: DecodingContext) -> ActionSequence? {
        guard let object = context.object(value, at: path, allowed: ["steps", "afterLast"]) else { return nil }
        let before = context.issues.count
        var afterLast = ActionSequence.AfterLast.stick
        if let raw = object["afterLast"], let text = context.string(raw, at: path.appending("afterLast")) {
            if let parsed = ActionSequence.AfterLast(rawValue: text) {
                afterLast = parsed
            } else {
                context.report(path.appending("afterLast"), "must be repeat, stick or pass, found \"\(text.prefix(40))\"")
            }
        }
        var steps: [ActionSequence.Step] = []
        if let raw = object["steps"] {
            let stepsPath = path.appending("steps")
            for (index, item) in (context.array(raw, at: stepsPath) ?? []).enumerated() {
                let stepPath = stepsPath.appending(index)
                guard let step = context.object(item, at: stepPath, allowed: ["times"] + ActionDecoder.keys) else { continue }
                let times = step["times"].map { context.integer($0, at: stepPath.appending("times"), in: 1...1_000_000) } ?? 1
                if let times, let action = ActionDecoder.decode(step, at: stepPath, context) {
                    steps.append(.init(times: times, action: action))
                }
            }
        } else {
            context.report(path, "missing required key 'steps'")
        }
        return context.issues.count == before ? ActionSequence(steps: steps, afterLast: afterLast) : nil
    }

    // MARK: Helpers

    /// 1-based line and column of a byte offset.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
