/// One row of a ``RouteTable``: the methods and path pattern it answers, whether it is open (no
/// credentials: files a browser loads by navigation), and its responder.
///
/// Pattern parts between slashes: a literal; `:name`, one non-empty part; `#name`, one part that
/// reads as an integer; `*name`, the rest of the path (one or more parts, slashes included), which
/// may be followed by literal parts. The parts matched are in the request's `pathParameters`.
public struct HTTPRoute: Sendable {
    public let methods: [String]
    public let pattern: String
    /// The request is answered without credentials (its table's guard does not ask for a token).
    public let isOpen: Bool
    /// The request's query is not read: a malformed one does not make a 400.
    public let ignoresQuery: Bool
    /// The path may end with one slash more than the pattern (`/__sim/scenarios/` fits `/__sim/scenarios`).
    public let allowsTrailingSlash: Bool
    /// The row as the table's index lists it (`GET /__sim/journal/SEQ`); nil: not listed.
    public let listed: String?
    public let responder: any HTTPResponder

    public init(_ methods: [String], _ pattern: String, listed: String? = nil, isOpen: Bool = false,
                ignoresQuery: Bool = false, allowsTrailingSlash: Bool = false, _ responder: any HTTPResponder) {
        self.allowsTrailingSlash = allowsTrailingSlash
        self.methods = methods
        self.pattern = pattern
        self.listed = listed
        self.isOpen = isOpen
        self.ignoresQuery = ignoresQuery
        self.responder = responder
        parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    /// The pattern's parts after the leading slash.
    private let parts: [String]

    /// The parameters of `path` when it fits the pattern.
    func match(_ path: String) -> [String: String]? {
        var given = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if allowsTrailingSlash, given.count > 1, given.last == "" { given.removeLast() }
        var parameters: [String: String] = [:]
        if let star = parts.firstIndex(where: { $0.hasPrefix("*") }) {
            let after = parts.count - star - 1
            guard given.count >= parts.count,
                  Self.fit(Array(parts[..<star]), Array(given[..<star]), &parameters),
                  Self.fit(Array(parts[(star + 1)...]), Array(given[(given.count - after)...]), &parameters) else { return nil }
            let rest = given[star..<(given.count - after)].joined(separator: "/")
            guard !rest.isEmpty else { return nil }
            parameters[String(parts[star].dropFirst())] = rest
            return parameters
        }
        guard given.count == parts.count, Self.fit(parts, given, &parameters) else { return nil }
        return parameters
    }

    private static func fit(_ parts: [String], _ given: [String], _ parameters: inout [String: String]) -> Bool {
        for (part, value) in zip(parts, given) {
            if part.hasPrefix(":") {
                guard !value.isEmpty else { return false }
                parameters[String(part.dropFirst())] = value
            } else if part.hasPrefix("#") {
                guard Int(value) != nil else { return false }
                parameters[String(part.dropFirst())] = value
            } else if part != value {
                return false
            }
        }
        return true
    }
}
