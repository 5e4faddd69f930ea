/// The way a handler answers a request: call `send` exactly once, from any thread, now or
/// later. Calls after the first, and calls after the client went away or the server
/// stopped, are ignored.
public final class ResponseHandle: @unchecked Sendable {
    private let context: RequestContext

    init(context: RequestContext) {
        self.context = context
    }

    public func send(_ response: HTTPResponse) {
        context.deliver(response)
    }
}

/// Handles one request. Runs on a server thread: answer right away, or hand the work to
/// another queue and call `send` from there; never block or sleep in the handler.
public typealias HTTPHandler = @Sendable (HTTPRequest, ResponseHandle) -> Void
