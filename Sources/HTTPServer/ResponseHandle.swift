/// The way a responder answers a request: call `send` exactly once, from any thread, now or
/// later. Calls after the first, and calls after the client went away or the server
/// stopped, are ignored.
public final class ResponseHandle: @unchecked Sendable {
    private let deliver: @Sendable (HTTPResponse) -> Void

    init(context: RequestContext) {
        self.deliver = { context.deliver($0) }
    }

    /// A handle that passes the response to `deliver`, for responders in front of others
    /// (middleware, fault injection) that need to see or delay the inner answer.
    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    public func send(_ response: HTTPResponse) {
        deliver(response)
    }
}

