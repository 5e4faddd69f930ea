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
    /// `inner`, with the requests for which `heavyReason` gives a reason run on `executor` (queued
    /// under their client address) instead of the calling server thread.
    public static func handler(_ inner: @escaping HTTPHandler, executor: HeavyWorkExecutor,
                               heavyReason: @escaping @Sendable (HTTPRequest) -> String?) -> HTTPHandler {
        { request, response in
            guard heavyReason(request) != nil else {
                inner(request, response)
                return
            }
            executor.submit(client: request.clientAddress ?? "") { inner(request, response) }
        }
    }
}
