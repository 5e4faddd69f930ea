import Foundation

/// A complete HTTP request as handed to an `HTTPResponder`: request line, headers and body.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"`.
    public var method: String
    /// The percent-decoded path without the query, e.g. `"/api/place/v4"`. Decoding is
    /// lenient: malformed escapes are kept as sent, invalid UTF-8 becomes U+FFFD.
    public var path: String
    /// The query: decoded parameters (with the text they were read from while unchanged);
    /// empty when `queryError` is set.
    public var query: QueryParameters
    /// Set when `rawQuery` could not be decoded; the handler should answer 400.
    public var queryError: QueryParseError?
    /// The request headers in the order received.
    public var headers: HTTPHeaders
    /// The full request body (empty for requests without one).
    public var body: Data
    /// The numeric address of the client (`127.0.0.1`, `::1`) as the server saw the connection;
    /// nil for requests made in-process.
    public var clientAddress: String?
    /// The parts of the path a ``RouteTable``'s route matched (`:name` → value); empty elsewhere.
    public var pathParameters: [String: String] = [:]
    /// What responders in front handed down with the request (``RequestAttachments``).
    public var attachments = RequestAttachments()

    public init(method: String, path: String, query: QueryParameters = QueryParameters(),
                queryError: QueryParseError? = nil, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.queryError = queryError
        self.headers = headers
        self.body = body
    }

    /// Builds a request from the request target as sent (`/path?query`): the path is
    /// decoded leniently and the query strictly (a failure lands in `queryError`).
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        let pathPart: Substring
        let rawQuery: Substring
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = target[..<mark]
            rawQuery = target[target.utf8.index(after: mark)...]
        } else {
            pathPart = target[...]
            rawQuery = ""
        }
        var query = QueryParameters()
        var queryError: QueryParseError?
        do {
            query = try QueryParameters(parsing: String(rawQuery))
        } catch {
            queryError = error
        }
        self.init(method: method, path: PercentDecoding.decodeLenient(pathPart),
                  query: query, queryError: queryError, headers: headers, body: body)
    }

    /// The query as text, without the `?` (`QueryParameters.text`: as received while unchanged).
    public var rawQuery: String { query.text }
}
