import Foundation
import HTTPServer
import VietMapWire
import VietMapWireHTTP

/// What the simulator answers where a newcomer first looks: `GET /` — a short plain-text index
/// (version, every endpoint of the wire home with an example key, the dashboard, the docs) — and,
/// when the admin API is off, `/__sim/…` — a 404 in the API's error shape that says how to turn
/// the dashboard on, instead of a bare "no such endpoint".
enum ServerIndex {
    static let version = "0.1.0"

    /// Middleware: `/` and (admin off) `/__sim/…` answered here, the rest by `next`.
    static func middleware(adminEnabled: Bool, keyHint: String) -> HTTPMiddleware {
        let index = HTTPResponse.text(text(adminEnabled: adminEnabled, keyHint: keyHint))
        return { next in ClosureResponder { request, reply in
            if request.path == "/" && (request.method == "GET" || request.method == "HEAD") {
                reply.send(index)
            } else if !adminEnabled && (request.path == "/__sim" || request.path.hasPrefix("/__sim/")) {
                reply.send(APIResponses.error(.notFound(
                    "the dashboard and the admin API (/__sim/…) are off: start the simulator with `vietmap-sim serve --admin`, then open /__sim/ui/"),
                    for: nil))
            } else {
                next.respond(to: request, reply: reply)
            }
        } }
    }

    /// `glyphs and sprite`: the endpoints that need no key (`APIEndpoint.requiresKey`).
    static var keylessNames: String {
        APIEndpoint.allCases.filter { !$0.requiresKey }.map(\.name).joined(separator: " and ")
    }

    /// The index's text.
    static func text(adminEnabled: Bool, keyHint: String) -> String {
        var lines = [
            "vietmap-sim \(version) — an offline simulator of VietMap's Maps APIs",
            "",
            "Every endpoint but \(keylessNames) needs a key (apikey=\(keyHint)); scenarios: apikey=scenario:NAME (GET /__sim/scenarios with --admin).",
            "",
            "Endpoints (\(APIEndpoint.allCases.count)):",
        ]
        for endpoint in APIEndpoint.allCases {
            lines.append("  " + endpoint.name.padding(toLength: 16, withPad: " ", startingAt: 0) + " " + endpoint.documentedPath)
        }
        lines += [
            "",
            "Try: /api/autocomplete/v4?apikey=\(keyHint)&text=nha%20tho%20duc%20ba",
            adminEnabled ? "Dashboard: /__sim/ui/" : "Dashboard: off (start with `vietmap-sim serve --admin`, then open /__sim/ui/)",
            "Docs: README.md, docs/api.md, Scenarios/README.md, Contracts/README.md in the vietmap-sim repository; `vietmap-sim --help`.",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
