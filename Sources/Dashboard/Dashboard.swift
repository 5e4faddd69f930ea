import Foundation
import HTTPServer
import Routing

/// The QA dashboard (`serve --admin`): a page at `/__sim/ui/` that shows the request
/// journal, the scenarios and the selected request on a map of the dataset's own roads.
/// Its `routes` join the admin API's in the one `/__sim` table (same origin, same guard):
///
///     let responder = engine.wrap(service, adminRoutes: Dashboard(roadGraph: service.roadGraph, placeLookup: lookup).routes)
///
/// | request | answer |
/// |---|---|
/// | `GET /__sim/ui/`, `/__sim/ui/FILE` | the page and its files (resources of this target; open: no token) |
/// | `GET /__sim/roads?bbox=…[&limit=N]` | roads in a rectangle as GeoJSON (`RoadsEndpoint`) |
/// | `GET /__sim/roads/start` | `{"center": [lat, lng] \| null}`: where the roads are densest (the map opens there) |
/// | `GET /__sim/place?refid=…` | the simulator's place answer, outside scenarios and the journal (to put autocomplete results on the map) |
/// | `GET /__sim/endpoints` | every API endpoint (name, path, family, `api-version`) and the families (`EndpointsEndpoint`) |
///
/// Only GET and HEAD are allowed here.
public final class Dashboard: Sendable {
    public static let uiPath = "/__sim/ui"
    public static let roadsPath = "/__sim/roads"
    public static let placePath = "/__sim/place"
    public static let endpointsPath = "/__sim/endpoints"

    private let assets: DashboardAssets
    private let roads: RoadsEndpoint
    private let placeLookup: (@Sendable (_ refid: String) -> HTTPResponse)?

    /// - Parameters:
    ///   - roadGraph: the graph routes are computed on (nil: the map has no roads).
    ///   - placeLookup: the place answer for a `refid`, without scenarios or journal.
    public init(roadGraph: RoadGraph?, placeLookup: (@Sendable (_ refid: String) -> HTTPResponse)? = nil) {
        self.assets = DashboardAssets()
        self.roads = RoadsEndpoint(graph: roadGraph)
        self.placeLookup = placeLookup
    }

    /// The dashboard's rows of the `/__sim` table: the page's files (open: they hold no data,
    /// and a browser navigates to them without a token), the roads, the place lookup and the
    /// endpoint list.
    public var routes: [HTTPRoute] {
        let methods = ["GET", "HEAD"]
        func route(_ pattern: String, isOpen: Bool = false, _ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) -> HTTPRoute {
            HTTPRoute(methods, pattern, isOpen: isOpen, ignoresQuery: isOpen, ClosureResponder { request, reply in reply.send(answer(request)) })
        }
        return [
            route(Self.uiPath, isOpen: true) { _ in
                HTTPResponse(status: 308, headers: ["Location": Self.uiPath + "/", "Cache-Control": "no-store"])
            },
            route(Self.uiPath + "/", isOpen: true) { [self] request in file("index.html", request: request) },
            route(Self.uiPath + "/*file", isOpen: true) { [self] request in file(request.pathParameters["file"] ?? "", request: request) },
            route(Self.roadsPath) { [roads] request in roads.respond(to: request.query) },
            route(Self.roadsPath + "/start") { [roads] _ in roads.start() },
            route(Self.endpointsPath) { _ in EndpointsEndpoint.respond() },
            route(Self.placePath) { [placeLookup] request in
                guard let refid = request.query.first("refid"), !refid.isEmpty else {
                    return HTTPResponse.simulatorError("refid is required", status: 400)
                }
                guard let placeLookup else { return HTTPResponse.simulatorError("no place lookup in this server", status: 404) }
                var answer = placeLookup(refid)
                answer.headers.set("Cache-Control", "no-store")
                return answer
            },
        ]
    }

    private func file(_ name: String, request: HTTPRequest) -> HTTPResponse {
        guard let asset = assets.files[name] else {
            return HTTPResponse.simulatorError("no dashboard file '\(name.prefix(100))'", status: 404)
        }
        var headers: HTTPHeaders = ["ETag": asset.etag, "Cache-Control": asset.cacheControl,
                                    "X-Content-Type-Options": "nosniff"]
        if request.ifNoneMatchHolds(asset.etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.set("Content-Type", asset.contentType)
        if asset.contentType.hasPrefix("text/html") {
            // Nothing from elsewhere, no framing by other sites.
            headers.set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
            headers.set("Referrer-Policy", "no-referrer")
        }
        return HTTPResponse(status: 200, headers: headers, body: asset.body)
    }

}
