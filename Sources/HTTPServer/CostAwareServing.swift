/// Cost-aware serving: light requests are handled on the server's own threads as they arrive;
/// heavy ones — as `heavyReason` tells from the request alone, before any work — are handed to a
/// ``HeavyWorkExecutor`` and answered from there, their connection suspended meanwhile (it holds
/// no server thread, as any answer sent later: ``ResponseHandle``).
///
/// The guarantee: the server's threads never run heavy work, so a light request waits for no
/// heavy one, however many are running or queued — it shares the CPU only with them, at a
/// higher priority than theirs. Heavy requests wait for one of the executor's threads, in turns
/// across clients.
public enum CostAwareServing {
    /// Middleware: the requests for which `heavyReason` gives a reason go on to the next responder
    /// on `executor` (queued under their client address) instead of the calling server thread.
    public static func middleware(executor: HeavyWorkExecutor,
                                  heavyReason: @escaping @Sendable (HTTPRequest) -> String?) -> HTTPMiddleware {
        { next in
            ClosureResponder { request, reply in
                guard heavyReason(request) != nil else {
                    next.respond(to: request, reply: reply)
                    return
                }
                executor.submit(client: request.clientAddress ?? "") { next.respond(to: request, reply: reply) }
            }
        }
    }
}
