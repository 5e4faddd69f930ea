import HTTPServer

/// Which requests a rule considers: the endpoint and conditions on query parameters.
///
///     "match": {"endpoint": "route", "params": {"vehicle": "truck", "points_encoded": {"equals": "false"}}}
struct RequestMatch: Sendable {
    /// nil: every endpoint (`"any"`).
    var endpoints: Set<APIEndpoint>?
    var parameters: [(name: String, condition: ParameterCondition)] = []

    static let any = RequestMatch(endpoints: nil)

    func matches(endpoint: APIEndpoint, query: QueryParameters) -> Bool {
        if let endpoints, !endpoints.contains(endpoint) { return false }
        return parameters.allSatisfy { $0.condition.holds(for: query.all($0.name)) }
    }
}
