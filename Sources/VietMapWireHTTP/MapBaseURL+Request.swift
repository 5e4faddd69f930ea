import HTTPServer
import VietMapWire

extension MapBaseURL {
    /// The base `request` reached: its `Host`, or `X-Forwarded-Host`/`X-Forwarded-Proto` when a
    /// proxy set them, each checked (`MapBaseURL.resolve`); `listening` — the address the server
    /// listens on, its scheme the listener's — when none is plausible.
    public static func of(_ request: HTTPRequest, listening: MapBaseURL) -> MapBaseURL {
        resolve(host: request.headers["Host"], forwardedHost: request.headers["X-Forwarded-Host"],
                forwardedProto: request.headers["X-Forwarded-Proto"], fallback: listening)
    }
}
