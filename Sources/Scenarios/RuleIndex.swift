import VietMapWire
import HTTPServer

/// The rules of a scenario indexed by endpoint and, for `"exact": true` rules whose every
/// condition is an equality (what replay scenarios are made of), by the request's exact
/// parameter set — so a 100,000-rule replay answers without scanning every rule.
///
/// `candidates` returns, in rule order, a superset of the rules whose `match` can hold for a
/// request: an indexed rule is left out only when its parameter set differs from the
/// request's, in which case its `match` cannot hold. Checking the candidates in order
/// therefore picks the same first rule as a scan of them all.
struct RuleIndex: Sendable {
    /// An exact parameter set: sorted names, each followed by its non-empty values in request order.
    struct ParameterKey: Hashable, Sendable {
        let endpoint: APIEndpoint?
        let parameters: [[String]]
    }

    /// Rules of every endpoint that are not indexed by parameters.
    private var anyEndpoint: [Int] = []
    /// Rules of some endpoints that are not indexed by parameters.
    private var byEndpoint: [APIEndpoint: [Int]] = [:]
    /// Exact-equality rules; `endpoint` nil for those of every endpoint.
    private var exact: [ParameterKey: [Int]] = [:]
    /// How many rules are indexed by parameters (for tests and figures).
    private(set) var exactCount = 0

    init(_ rules: [ScenarioRule]) {
        for (index, rule) in rules.enumerated() {
            if let parameters = Self.exactParameters(of: rule.match) {
                exactCount += 1
                if let endpoints = rule.match.endpoints {
                    for endpoint in endpoints {
                        exact[ParameterKey(endpoint: endpoint, parameters: parameters), default: []].append(index)
                    }
                } else {
                    exact[ParameterKey(endpoint: nil, parameters: parameters), default: []].append(index)
                }
            } else if let endpoints = rule.match.endpoints {
                for endpoint in endpoints { byEndpoint[endpoint, default: []].append(index) }
            } else {
                anyEndpoint.append(index)
            }
        }
    }

    /// The indices of the rules that may match, ascending.
    func candidates(endpoint: APIEndpoint?, query: QueryParameters) -> [Int] {
        var lists: [[Int]] = []
        if !anyEndpoint.isEmpty { lists.append(anyEndpoint) }
        if let endpoint, let rules = byEndpoint[endpoint] { lists.append(rules) }
        if !exact.isEmpty {
            let parameters = Self.key(of: query)
            if let rules = exact[ParameterKey(endpoint: nil, parameters: parameters)] { lists.append(rules) }
            if let endpoint, let rules = exact[ParameterKey(endpoint: endpoint, parameters: parameters)] { lists.append(rules) }
        }
        return Self.merge(lists)
    }

    /// The request's parameter set as an exact rule lists it: non-empty values, `apikey` aside.
    static func key(of query: QueryParameters) -> [[String]] {
        var byName: [String: [String]] = [:]
        for item in query.items where !item.value.isEmpty && !RequestMatch.isKeyParameter(item.name) {
            byName[item.name, default: []].append(item.value)
        }
        return byName.keys.sorted().map { [$0] + byName[$0]! }
    }

    /// The one parameter set `match` accepts, when it is exact and made of equalities only.
    static func exactParameters(of match: RequestMatch) -> [[String]]? {
        guard match.exact else { return nil }
        var byName: [String: [String]] = [:]
        for (name, condition) in match.parameters {
            guard !RequestMatch.isKeyParameter(name), byName[name] == nil,
                  let values = condition.exactValues else { return nil }
            byName[name] = values
        }
        return byName.keys.sorted().map { [$0] + byName[$0]! }
    }

    /// Sorted lists merged without duplicates, in linear time.
    private static func merge(_ lists: [[Int]]) -> [Int] {
        guard var merged = lists.first else { return [] }
        for list in lists.dropFirst() {
            var result: [Int] = []
            result.reserveCapacity(merged.count + list.count)
            var i = 0
            var j = 0
            while i < merged.count || j < list.count {
                let next: Int
                if j == list.count || (i < merged.count && merged[i] <= list[j]) {
                    next = merged[i]; i += 1
                } else {
                    next = list[j]; j += 1
                }
                if result.last != next { result.append(next) }
            }
            merged = result
        }
        return merged
    }
}

extension ParameterCondition {
    /// The exact non-empty values this condition accepts under `"exact": true` (where a
    /// parameter appears at most once unless given as an array), when it is a plain equality.
    var exactValues: [String]? {
        if let values { return values }
        guard let equals, contains == nil, prefix == nil, regex == nil, present != false, !ignoreCase, !ignoreAccents
        else { return nil }
        return [equals]
    }
}
