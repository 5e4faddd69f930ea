import VietMapWire
import HTTPServer

/// Which journal entries to look at. Every field given must match.
///
///     var query = JournalQuery(endpoint: .route)
///     query.parameters = [("vehicle", "truck")]
///     XCTAssertEqual(engine.journal.count(matching: query), 1)
public struct JournalQuery: Sendable {
    /// nil: every request; else requests to one of these endpoints.
    public var endpoints: Set<APIEndpoint>?
    public var scenario: String?
    /// The `@suffix` client tag.
    public var client: String?
    public var status: Int?
    /// Parameters that must be present with this exact value (nil: present with any value).
    public var parameters: [(name: String, value: String?)]
    /// Only entries with a larger sequence number.
    public var afterSequence: Int?
    /// Only the last `limit` matching entries.
    public var limit: Int?

    public init(endpoint: APIEndpoint? = nil, scenario: String? = nil, client: String? = nil, status: Int? = nil,
                parameters: [(name: String, value: String?)] = [], afterSequence: Int? = nil, limit: Int? = nil) {
        self.endpoints = endpoint.map { [$0] }
        self.scenario = scenario
        self.client = client
        self.status = status
        self.parameters = parameters
        self.afterSequence = afterSequence
        self.limit = limit
    }

    /// From the admin API's query: `endpoint`, `scenario`, `client`, `status`, `after`,
    /// `limit`, and `param.NAME=VALUE` (an empty value: present with any value).
    init(adminQuery query: QueryParameters) throws(AdminAPI.Failure) {
        self.init()
        for (name, value) in query.items {
            switch name {
            case "endpoint":
                guard let parsed = APIEndpoint.named(value) else {
                    throw AdminAPI.Failure(status: 400, message: "unknown endpoint '\(value.prefix(100))'; expected one of \(APIEndpoint.words.joined(separator: ", "))")
                }
                endpoints = parsed
            case "scenario": scenario = value
            case "client": client = value
            case "status": status = try Self.integer(name, value)
            case "after": afterSequence = try Self.integer(name, value)
            case "limit": limit = try Self.integer(name, value)
            case _ where name.hasPrefix("param."):
                parameters.append((String(name.dropFirst(6)), value.isEmpty ? nil : value))
            default:
                throw AdminAPI.Failure(status: 400, message: "unknown journal filter '\(name)'")
            }
        }
    }

    private static func integer(_ name: String, _ value: String) throws(AdminAPI.Failure) -> Int {
        guard let number = Int(value) else { throw AdminAPI.Failure(status: 400, message: "'\(name)' must be an integer") }
        return number
    }

    func matches(_ entry: JournalEntry) -> Bool {
        if let endpoints { guard let endpoint = entry.endpoint, endpoints.contains(endpoint) else { return false } }
        if let scenario, entry.scenario != scenario { return false }
        if let client, entry.client != client { return false }
        if let status, entry.status != status { return false }
        if let afterSequence, entry.sequence <= afterSequence { return false }
        for (name, value) in parameters {
            let values = entry.query.filter { $0.name == name }.map(\.value)
            if let value { if !values.contains(value) { return false } } else if values.isEmpty { return false }
        }
        return true
    }
}
