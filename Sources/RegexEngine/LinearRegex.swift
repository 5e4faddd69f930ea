/// A regular expression matched without backtracking (a Thompson NFA simulated as a Pike
/// VM): testing a text of n characters against a program of m instructions costs at most
/// O(n × m) steps, so no pattern can stall the server (`^(a+)+$` on 10 KB: ~1 ms).
///
/// The dialect is the subset scenarios need: literals, `.` (not a line break), classes
/// `[a-z_]`, `[^…]`, `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (lazy `*?` etc. accepted: only
/// *whether* it matches counts), `|`, groups `(…)` and `(?:…)`, anchors `^` `$`, `\b` `\B`,
/// escapes `\d \w \s \D \W \S \t \n \r \f \v`, `\xHH`, `\uHHHH` and any escaped punctuation.
/// Backreferences, lookaround, possessive quantifiers and other `(?…)` forms are refused
/// with a message saying so. The program is capped at the caller's `maxInstructions` (`{m,n}` copies its operand).
public struct LinearRegex: Sendable {
    /// Refusal of a pattern, with the reason (shown by `validate`).
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// What `init` assumes when the caller sets no cap on the program.
    public static let defaultMaxInstructions = 2_000

    private let program: [Instruction]
    /// The classes `Instruction.set` refers to (kept apart so instructions are plain values).
    private let sets: [ScalarSet]
    private let ignoreCase: Bool

    /// The longest pattern accepted (Unicode scalars).
    static let maxPatternLength = 4_096

    /// - Parameters:
    ///   - maxInstructions: the largest program the pattern may compile to.
    ///   - whyCapped: said after "more than N instructions once counts are expanded" when it does not.
    public init(_ pattern: String, ignoreCase: Bool = false, maxInstructions: Int = defaultMaxInstructions,
                whyCapped: String = "") throws(SyntaxError) {
        guard pattern.unicodeScalars.count <= Self.maxPatternLength else {
            throw SyntaxError(description: "longer than \(Self.maxPatternLength) characters")
        }
        var parser = Parser(Array(pattern.unicodeScalars), ignoreCase: ignoreCase)
        let node = try parser.parseAll()
        var compiler = Compiler(maxInstructions: maxInstructions, whyCapped: whyCapped)
        try compiler.emit(node)
        compiler.program.append(.match)
        guard compiler.program.count <= maxInstructions else { throw compiler.tooLarge }
        program = compiler.program
        sets = compiler.sets
        self.ignoreCase = ignoreCase
    }

    /// The number of instructions (the m of O(n × m)).
    public var size: Int { program.count }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        let input = Array((ignoreCase ? text.lowercased() : text).unicodeScalars)
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var position = 0
        while true {
            // Unanchored search: a new thread starts at every position.
            if addThread(&current, 0, at: position, input) { return true }
            if current.items.isEmpty && position >= input.count { return false }
            guard position < input.count else { return false }
            let scalar = input[position]
            next.clear()
            for pc in current.items {
                switch program[pc] {
                case .char(let expected):
                    if scalar == expected, addThread(&next, pc + 1, at: position + 1, input) { return true }
                case .any:
                    if scalar != "\n" && scalar != "\r", addThread(&next, pc + 1, at: position + 1, input) { return true }
                case .set(let set):
                    if sets[set].contains(scalar, ignoreCase: ignoreCase), addThread(&next, pc + 1, at: position + 1, input) {
                        return true
                    }
                default:
                    break
                }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// Follows jumps, splits and assertions from `pc`; returns true when `match` is reached.
    private func addThread(_ list: inout ThreadList, _ pc: Int, at position: Int, _ input: [Unicode.Scalar]) -> Bool {
        var stack = list.takeStack()
        defer { list.returnStack(stack) }
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match:
                return true
            case .jump(let target):
                stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion):
                if assertion.holds(at: position, in: input) { stack.append(pc + 1) }
            default:
                list.items.append(pc)
            }
        }
        return false
    }

    // MARK: Program

    enum Instruction: Sendable {
        case char(Unicode.Scalar)
        case any
        /// An index into `sets`.
        case set(Int)
        case split(Int, Int)
        case jump(Int)
        case assert(Assertion)
        case match
    }

    enum Assertion: Sendable {
        case start, end, wordBoundary, notWordBoundary

        func holds(at position: Int, in input: [Unicode.Scalar]) -> Bool {
            switch self {
            case .start: return position == 0
            case .end: return position == input.count
            case .wordBoundary, .notWordBoundary:
                let before = position > 0 && ScalarSet.isWord(input[position - 1])
                let after = position < input.count && ScalarSet.isWord(input[position])
                return (before != after) == (self == .wordBoundary)
            }
        }
    }

    /// A character class: ranges and the `\d \w \s` kinds, possibly negated.
    struct ScalarSet: Sendable {
        enum Kind: Sendable { case digit, word, space }
        var ranges: [ClosedRange<UInt32>] = []
        var kinds: [(kind: Kind, negated: Bool)] = []
        var negated = false

        func contains(_ scalar: Unicode.Scalar, ignoreCase: Bool) -> Bool {
            var found = containsExactly(scalar)
            if !found, ignoreCase {
                // The input is lower-cased; a class written in capitals still matches.
                let upper = scalar.properties.uppercaseMapping.unicodeScalars
                if upper.count == 1, let first = upper.first { found = containsExactly(first) }
            }
            return found != negated
        }

        private func containsExactly(_ scalar: Unicode.Scalar) -> Bool {
            if ranges.contains(where: { $0.contains(scalar.value) }) { return true }
            return kinds.contains { item in Self.isKind(item.kind, scalar) != item.negated }
        }

        static func isKind(_ kind: Kind, _ scalar: Unicode.Scalar) -> Bool {
            switch kind {
            case .digit: return ("0"..."9").contains(scalar)
            case .word: return isWord(scalar)
            case .space: return scalar.properties.isWhitespace
            }
        }

        static func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// The visited set of one step (sparse set: O(1) insert and clear).
    private struct ThreadList {
        var items: [Int] = []
        private var seen: [Bool]
        private var touched: [Int] = []
        /// Scratch space of `addThread`, kept to avoid an allocation per step.
        private var stack: [Int] = []

        mutating func takeStack() -> [Int] {
            var taken: [Int] = []
            swap(&taken, &stack)
            taken.removeAll(keepingCapacity: true)
            return taken
        }

        mutating func returnStack(_ scratch: [Int]) {
            stack = scratch
        }

        init(capacity: Int) {
            seen = Array(repeating: false, count: capacity)
        }

        mutating func insert(_ pc: Int) -> Bool {
            if seen[pc] { return false }
            seen[pc] = true
            touched.append(pc)
            return true
        }

        mutating func clear() {
            for pc in touched { seen[pc] = false }
            touched.removeAll(keepingCapacity: true)
            items.removeAll(keepingCapacity: true)
        }
    }
}

// MARK: - Parsing

extension LinearRegex {
    indirect enum Node: Sendable {
        case empty
        case char(Unicode.Scalar)
        case any
        case set(ScalarSet)
        case assert(Assertion)
        case concat([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    struct Parser {
        private let scalars: [Unicode.Scalar]
        private var index = 0
        private let ignoreCase: Bool
        private var depth = 0

        init(_ scalars: [Unicode.Scalar], ignoreCase: Bool) {
            self.scalars = scalars
            self.ignoreCase = ignoreCase
        }

        mutating func parseAll() throws(SyntaxError) -> Node {
            let node = try parseAlternation()
            if index < scalars.count { throw fail("unbalanced ')'") }
            return node
        }

        private func fail(_ reason: String) -> SyntaxError {
            SyntaxError(description: "\(reason) at character \(index + 1)")
        }

        private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        private mutating func parseAlternation() throws(SyntaxError) -> Node {
            var branches = [try parseConcat()]
            while peek == "|" {
                index += 1
                branches.append(try parseConcat())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func parseConcat() throws(SyntaxError) -> Node {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                let atom = try parseAtom()
                items.append(try parseQuantifiers(atom))
            }
            return items.isEmpty ? .empty : (items.count == 1 ? items[0] : .concat(items))
        }

        private mutating func parseQuantifiers(_ atom: Node) throws(SyntaxError) -> Node {
            var node = atom
            var stacked = 0
            while let scalar = peek {
                let bounds: (Int, Int?)
                switch scalar {
                case "*": bounds = (0, nil); index += 1
                case "+": bounds = (1, nil); index += 1
                case "?": bounds = (0, 1); index += 1
                case "{":
                    guard let counted = try parseCount() else { return node }
                    bounds = counted
                default: return node
                }
                if case .assert = node { throw fail("nothing to repeat") }
                if case .empty = node { throw fail("nothing to repeat") }
                if peek == "?" {
                    index += 1  // lazy: the same set of matches
                } else if peek == "+" {
                    throw fail("possessive quantifiers are not supported")
                }
                stacked += 1
                guard stacked <= 3 else { throw fail("more than 3 quantifiers in a row") }
                node = .repeated(node, min: bounds.0, max: bounds.1)
            }
            return node
        }

        /// `{m}`, `{m,}`, `{m,n}`; nil (and a literal `{`) when it is not a count.
        private mutating func parseCount() throws(SyntaxError) -> (Int, Int?)? {
            let start = index
            index += 1
            func number(_ parser: inout Parser) -> Int? {
                var digits = ""
                while let scalar = parser.peek, ("0"..."9").contains(scalar), digits.count < 6 {
                    digits.unicodeScalars.append(scalar)
                    parser.index += 1
                }
                return Int(digits)
            }
            guard let low = number(&self) else { index = start; return nil }
            var high: Int? = low
            if peek == "," {
                index += 1
                high = number(&self)
            }
            guard peek == "}" else { index = start; return nil }
            index += 1
            if let high, high < low { throw fail("{\(low),\(high)}: the maximum is below the minimum") }
            if max(low, high ?? 0) > 1_000 { throw fail("counts above 1000 are not supported") }
            return (low, high)
        }

        private mutating func parseAtom() throws(SyntaxError) -> Node {
            guard let scalar = peek else { throw fail("unexpected end") }
            index += 1
            switch scalar {
            case ".": return .any
            case "^": return .assert(.start)
            case "$": return .assert(.end)
            case "*", "+", "?": throw fail("nothing to repeat before '\(scalar)'")
            case "[": return try parseClass()
            case "\\": return try parseEscape(inClass: false)
            case "(":
                if peek == "?" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                        let what = index + 1 < scalars.count ? String(scalars[index + 1]) : ""
                        switch what {
                        case "=", "!": throw fail("lookahead (?\(what)…) is not supported")
                        case "<": throw fail("lookbehind and named groups (?<…) are not supported")
                        default: throw fail("(?\(what)…) is not supported (only (?:…) groups)")
                        }
                    }
                    index += 2
                }
                depth += 1
                guard depth <= 100 else { throw fail("groups nested deeper than 100") }
                let inner = try parseAlternation()
                depth -= 1
                guard peek == ")" else { throw fail("missing ')'") }
                index += 1
                return inner
            default:
                return literal(scalar)
            }
        }

        private func literal(_ scalar: Unicode.Scalar) -> Node {
            guard ignoreCase else { return .char(scalar) }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return .char(lower.count == 1 ? lower.first! : scalar)
        }

        private mutating func parseEscape(inClass: Bool) throws(SyntaxError) -> Node {
            guard let scalar = peek else { throw fail("a trailing '\\'") }
            index += 1
            func kind(_ kind: ScalarSet.Kind, negated: Bool) -> Node {
                var set = ScalarSet()
                set.kinds = [(kind, negated)]
                return .set(set)
            }
            switch scalar {
            case "d": return kind(.digit, negated: false)
            case "D": return kind(.digit, negated: true)
            case "w": return kind(.word, negated: false)
            case "W": return kind(.word, negated: true)
            case "s": return kind(.space, negated: false)
            case "S": return kind(.space, negated: true)
            case "t": return .char("\t")
            case "n": return .char("\n")
            case "r": return .char("\r")
            case "f": return .char("\u{0C}")
            case "v": return .char("\u{0B}")
            case "b" where !inClass: return .assert(.wordBoundary)
            case "B" where !inClass: return .assert(.notWordBoundary)
            case "x", "u":
                let count = scalar == "x" ? 2 : 4
                guard index + count <= scalars.count,
                      let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + count])), radix: 16),
                      let decoded = Unicode.Scalar(value) else {
                    throw fail("\\\(scalar) needs \(count) hexadecimal digits")
                }
                index += count
                return literal(decoded)
            case "1"..."9", "k":
                throw fail("backreferences (\\\(scalar)) are not supported")
            default:
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    throw fail("unsupported escape \\\(scalar)")
                }
                return literal(scalar)
            }
        }

        private mutating func parseClass() throws(SyntaxError) -> Node {
            var set = ScalarSet()
            if peek == "^" { set.negated = true; index += 1 }
            var first = true
            while true {
                guard let scalar = peek else { throw fail("missing ']'") }
                if scalar == "]" && !first { index += 1; break }
                first = false
                let low = try classMember()
                guard case .char(let lowScalar) = low else {
                    if case .set(let inner) = low { set.kinds += inner.kinds }
                    continue
                }
                if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    guard case .char(let highScalar) = try classMember() else { throw fail("a range cannot end in a class escape") }
                    guard lowScalar.value <= highScalar.value else { throw fail("range out of order") }
                    set.ranges.append(lowScalar.value...highScalar.value)
                } else {
                    set.ranges.append(lowScalar.value...lowScalar.value)
                }
            }
            return .set(set)
        }

        private mutating func classMember() throws(SyntaxError) -> Node {
            let scalar = scalars[index]
            index += 1
            if scalar == "[", peek == ":" { throw fail("POSIX classes [:…:] are not supported") }
            if scalar == "\\" { return try parseEscape(inClass: true) }
            return literal(scalar)
        }
    }

    struct Compiler {
        var program: [Instruction] = []
        var sets: [ScalarSet] = []

        let maxInstructions: Int
        let whyCapped: String

        /// A program beyond `maxInstructions`.
        var tooLarge: SyntaxError {
            SyntaxError(description: "the pattern is too large: more than \(maxInstructions) instructions once counts are expanded" + whyCapped)
        }

        mutating func emit(_ node: Node) throws(SyntaxError) {
            guard program.count < maxInstructions else { throw tooLarge }
            switch node {
            case .empty: break
            case .char(let scalar): program.append(.char(scalar))
            case .any: program.append(.any)
            case .set(let set):
                sets.append(set)
                program.append(.set(sets.count - 1))
            case .assert(let assertion): program.append(.assert(assertion))
            case .concat(let items):
                for item in items { try emit(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        program.append(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let inner, let low, let high):
                for _ in 0..<low { try emit(inner) }
                if let high {
                    // (inner(inner(…)?)?)?: each optional copy may be skipped to the end.
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    program.append(.split(loop + 1, -1))
                    try emit(inner)
                    program.append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
