import HTTPServer
import VietMapWire
import VietMapWireHTTP

/// Keeps the admin API and the dashboard (`/__sim/…`) off a listener that is not the
/// simulator's own — the loopback listener behind `serve --proxy`. There every such path gets
/// the API's own 404 (`{"code":"NOT_FOUND",…}`, what it gets without `--admin`), before the
/// scenario engine sees it, whatever `Host`, `Origin` or token the request carries and however
/// it reached the proxy (absolute form, a CONNECT tunnel, TLS): a device that uses the proxy can
/// neither read the journal nor change scenarios. The path compared is the one the engine routes
/// by (percent-decoded), so no spelling of it gets through.
public enum AdminPathRefusal {
    /// Whether `path` (percent-decoded, as `HTTPRequest.path`) is under the admin prefix.
    public static func isAdminPath(_ path: String) -> Bool {
        path.hasPrefix(AdminAPI.prefix)
    }

    /// Middleware: `next` with every admin path answered 404.
    public static func wrap(_ next: any HTTPResponder) -> any HTTPResponder {
        ClosureResponder { request, reply in
            if isAdminPath(request.path) {
                reply.send(APIResponses.error(.notFound("no such endpoint: \(request.path.prefix(200))"), for: nil))
            } else {
                next.respond(to: request, reply: reply)
            }
        }
    }
}
