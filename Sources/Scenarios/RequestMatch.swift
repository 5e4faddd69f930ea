import VietMapWire
import HTTPServer

/// Which requests a rule considers: the endpoint and conditions on query parameters.
///
///     "match": {"endpoint": "route", "params": {"vehicle": "truck", "points_encoded": {"equals": "false"}}}
///
/// With `"exact": true` the request must carry no other parameter than those listed (`apikey`
/// aside; an empty value counts as absent), and each listed one at most once unless its
/// condition is an array of values — what a replayed capture needs.
struct RequestMatch: Sendable {
    /// nil: every endpoint (`"any"`).
    var endpoints: Set<APIEndpoint>?
    var parameters: [(name: String, condition: ParameterCondition)] = []
    /// No parameters beyond `parameters` (and `apikey`), none repeated unless listed as an array.
    var exact = false

    static let any = RequestMatch(endpoints: nil)
    /// The parameter `exact` never counts: it carries the key (or the `scenario:` selector).
    static let keyParameter = "apikey"

    /// Whether `exact` and replays leave parameter `name` aside: `apikey`, or `apiKey` (`APIKeyPolicy`).
    static func isKeyParameter(_ name: String) -> Bool { APIKeyPolicy.isKeyParameter(name) }

    /// Whether the request matches; its `regex` tests are charged to `budget` (see `RegexBudget`).
    func matches(endpoint: APIEndpoint?, query: QueryParameters, budget: inout RegexBudget) -> Bool {
        if let endpoints { guard let endpoint, endpoints.contains(endpoint) else { return false } }
        if exact, !carriesOnlyListedParameters(query) { return false }
        return parameters.allSatisfy { $0.condition.holds(for: query.all($0.name), name: $0.name, budget: &budget) }
    }

    /// Whether the request matches, with a budget of its own.
    func matches(endpoint: APIEndpoint?, query: QueryParameters) -> Bool {
        var budget = RegexBudget()
        return matches(endpoint: endpoint, query: query, budget: &budget)
    }

    /// The most regex work testing this match against `query` could cost.
    func regexSteps(endpoint: APIEndpoint?, query: QueryParameters) -> Int {
        if let endpoints { guard let endpoint, endpoints.contains(endpoint) else { return 0 } }
        return parameters.reduce(0) { $0.addingReportingOverflow($1.condition.regexSteps(for: query.all($1.name))).partialValue }
    }

    private func carriesOnlyListedParameters(_ query: QueryParameters) -> Bool {
        var counts: [String: Int] = [:]
        for item in query.items where !item.value.isEmpty && !Self.isKeyParameter(item.name) {
            counts[item.name, default: 0] += 1
        }
        for (name, count) in counts {
            guard let condition = parameters.first(where: { $0.name == name })?.condition else { return false }
            if count > 1 && condition.values == nil { return false }
        }
        return true
    }
}
