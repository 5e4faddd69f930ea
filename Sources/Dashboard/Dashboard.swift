import Foundation
import HTTPServer
import JSON
import Routing

/// The QA dashboard (`serve --admin`): a page at `/__sim/ui/` that shows the request
/// journal, the scenarios and the selected request on a map of the dataset's own roads.
/// Put it in front of the handler that serves the admin API (same origin):
///
///     let handler = Dashboard(roadGraph: service.roadGraph, placeLookup: lookup).wrap(engineHandler)
///
/// | request | answer |
/// |---|---|
/// | `GET /__sim/ui/`, `/__sim/ui/FILE` | the page and its files (resources of this target) |
/// | `GET /__sim/roads?bbox=…[&limit=N]` | roads in a rectangle as GeoJSON (`RoadsEndpoint`) |
/// | `GET /__sim/roads/start` | `{"center": [lat, lng] \| null}`: where the roads are densest (the map opens there) |
/// | `GET /__sim/place?refid=…` | the simulator's place answer, outside scenarios and the journal (to put autocomplete results on the map) |
/// | `GET /__sim/endpoints` | every API endpoint (name, path, family, `api-version`) and the families (`EndpointsEndpoint`) |
///
/// Everything else goes to the wrapped handler. Only GET and HEAD are allowed here.
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
    ///   - placeLookup: answers `/api/place/v4` for a `refid` without scenarios or journal.
    public init(roadGraph: RoadGraph?, placeLookup: (@Sendable (_ refid: String) -> HTTPResponse)? = nil) {
        self.assets = DashboardAssets()
        self.roads = RoadsEndpoint(graph: roadGraph)
        self.placeLookup = placeLookup
    }

    /// `next` with the dashboard's paths answered in front of it.
    public func wrap(_ next: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request, handle in
            if let response = respond(to: request) { handle.send(response) } else { next(request, handle) }
        }
    }

    /// Whether `path` is one of the dashboard's: the page's files, the roads, the place lookup
    /// and the endpoint list.
    public static func handles(_ path: String) -> Bool {
        isPageFile(path) || path == roadsPath || path == roadsPath + "/start" || path == placePath || path == endpointsPath
    }

    /// Whether `path` is one of the page's static files (no data in them).
    public static func isPageFile(_ path: String) -> Bool {
        path == uiPath || path.hasPrefix(uiPath + "/")
    }

    /// The answer for a dashboard path; nil for any other path.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        let isUI = Self.isPageFile(path)
        guard Self.handles(path) else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.errorResponse("method \(request.method.prefix(10)) not allowed here", status: 405)
            response.headers.set("Allow", "GET, HEAD")
            return response
        }
        if isUI { return file(path, request: request) }
        if let problem = request.queryError { return Self.errorResponse("malformed query: \(problem)", status: 400) }
        if path == Self.roadsPath { return roads.respond(to: request.query) }
        if path == Self.roadsPath + "/start" { return roads.start() }
        if path == Self.endpointsPath { return EndpointsEndpoint.respond() }
        guard let refid = request.query.first("refid"), !refid.isEmpty else {
            return Self.errorResponse("refid is required", status: 400)
        }
        guard let placeLookup else { return Self.errorResponse("no place lookup in this server", status: 404) }
        var answer = placeLookup(refid)
        answer.headers.set("Cache-Control", "no-store")
        return answer
    }

    private func file(_ path: String, request: HTTPRequest) -> HTTPResponse {
        if path == Self.uiPath {
            return HTTPResponse(status: 308, headers: ["Location": Self.uiPath + "/", "Cache-Control": "no-store"])
        }
        var name = String(path.dropFirst(Self.uiPath.count + 1))
        if name.isEmpty { name = "index.html" }
        guard let asset = assets.files[name] else {
            return Self.errorResponse("no dashboard file '\(name.prefix(100))'", status: 404)
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

    static func errorResponse(_ message: String, status: Int) -> HTTPResponse {
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(["error": .string(message)])), status: status)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
