/// Anything that answers a request — the one handler shape from the transport to the endpoint
/// (the server, middleware, the scenario engine, the `/__sim` routes, the endpoints): answer by
/// calling `reply.send` exactly once, now or later, from any thread.
///
/// Runs on a server thread: answer right away, or hand the work to another queue and call
/// `send` from there; never block or sleep in `respond`.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, reply: ResponseHandle)
}

/// A responder written as a closure (tests, small adapters).
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest, ResponseHandle) -> Void

    public init(_ body: @escaping @Sendable (_ request: HTTPRequest, _ reply: ResponseHandle) -> Void) {
        self.body = body
    }

    public func respond(to request: HTTPRequest, reply: ResponseHandle) {
        body(request, reply)
    }
}

/// Middleware: a function from the responder behind it (`next`) to the responder in front —
/// it answers some requests itself, changes the request, or looks at `next`'s answer through a
/// ``ResponseHandle`` of its own.
public typealias HTTPMiddleware = @Sendable (_ next: any HTTPResponder) -> any HTTPResponder

extension HTTPResponder {
    /// This responder behind `middleware`, the first one outermost (the first to see a request).
    public func behind(_ middleware: [HTTPMiddleware]) -> any HTTPResponder {
        middleware.reversed().reduce(self as any HTTPResponder) { next, wrap in wrap(next) }
    }

    /// Answers `request` and hands the response to `reply` (a ``ResponseHandle`` around it).
    public func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        respond(to: request, reply: ResponseHandle(reply))
    }
}
