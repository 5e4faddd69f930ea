import HTTPServer

/// The scheme a client used to reach the simulator through `serve --proxy`, written into every
/// request of one of the proxy's loopback listeners as `X-Forwarded-Proto` (replacing whatever the
/// client sent): the simulator builds a map style's inner URLs on it (`MapBaseURL`), so a style
/// fetched as `https://maps.vietmap.vn/…` names its tiles, glyphs and sprite on
/// `https://maps.vietmap.vn/…` and the whole map screen stays on the proxy.
enum ProxiedScheme: String {
    /// Absolute-form `http://…` requests and `CONNECT HOST:80` tunnels.
    case http
    /// The decrypted streams of `CONNECT HOST:443`.
    case https

    /// Middleware: `next` seeing every request marked with this scheme.
    func wrap(_ next: any HTTPResponder) -> any HTTPResponder {
        let scheme = rawValue
        return ClosureResponder { request, reply in
            var request = request
            request.headers.set("X-Forwarded-Proto", scheme)
            next.respond(to: request, reply: reply)
        }
    }
}
