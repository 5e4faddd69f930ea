/// A responder that answers from a table of ``HTTPRoute``s (Hummingbird's router in small): a request
/// passes `admission` (the table's guard, told whether every route its path fits is open), then
/// goes to the first route whose pattern fits its path and whose methods include its method. A path
/// no route fits, a method no fitting route takes and a malformed query (for routes that read it)
/// are answered by `failure`.
public struct RouteTable: HTTPResponder {
    /// Why the table answers a request itself.
    public enum Failure: Sendable {
        /// No route fits the path.
        case notFound
        /// Routes fit the path, none with the request's method; `allowed` are theirs (`GET, HEAD`).
        case methodNotAllowed(allowed: String)
        /// The route reads the query, which did not parse.
        case malformedQuery(QueryParseError)
    }

    public let routes: [HTTPRoute]
    private let admission: @Sendable (_ request: HTTPRequest, _ open: Bool) -> HTTPResponse?
    private let failure: @Sendable (HTTPRequest, Failure) -> HTTPResponse

    /// - Parameters:
    ///   - admission: a refusal of the request, or nil to let it through; `open` when the path
    ///     fits routes and all of them are open.
    ///   - failure: the answer to a request no route takes.
    public init(_ routes: [HTTPRoute],
                admission: @escaping @Sendable (_ request: HTTPRequest, _ open: Bool) -> HTTPResponse? = { _, _ in nil },
                failure: @escaping @Sendable (HTTPRequest, Failure) -> HTTPResponse) {
        self.routes = routes
        self.admission = admission
        self.failure = failure
    }

    public func respond(to request: HTTPRequest, reply: ResponseHandle) {
        let fitting = routes.compactMap { route in route.match(request.path).map { (route: route, parameters: $0) } }
        if let refusal = admission(request, !fitting.isEmpty && fitting.allSatisfy(\.route.isOpen)) {
            return reply.send(refusal)
        }
        guard !fitting.isEmpty else { return reply.send(failure(request, .notFound)) }
        guard let (route, parameters) = fitting.first(where: { $0.route.methods.contains(request.method) }) else {
            let methods = Set(fitting.flatMap(\.route.methods))
            let allowed = Self.methodOrder.filter(methods.contains) + methods.subtracting(Self.methodOrder).sorted()
            return reply.send(failure(request, .methodNotAllowed(allowed: allowed.joined(separator: ", "))))
        }
        if !route.ignoresQuery, let problem = request.queryError {
            return reply.send(failure(request, .malformedQuery(problem)))
        }
        var routed = request
        routed.pathParameters = parameters
        route.responder.respond(to: routed, reply: reply)
    }

    private static let methodOrder = ["GET", "HEAD", "POST", "PUT", "DELETE"]
}
