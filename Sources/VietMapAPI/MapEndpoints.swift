import HTTPServer
import VietMapWire
import VietMapWireHTTP

/// The one entry point of the map endpoints (`APIFamily.map`: styles, TileJSON, vector and raster
/// tiles, glyphs, sprites), after the front door's checks (method, query, key where required).
///
/// It reads the path (`MapPath`): a malformed or impossible z/x/y, scale or glyph range is a 400,
/// an unknown look or style name a 404, both in the map envelope (VietMap's `{"code","message"}`).
/// A valid request goes to the resource's producer — not wired yet: every one answers
/// `503 {"code":"ERROR_UNKNOWN","message":"map endpoint not wired yet"}` until the style document
/// (`MapStyleDocument`), tiles, glyphs and sprites are plugged in at `produce(_:base:)`.
struct MapEndpoints: Sendable {
    /// The base URL inner URLs fall back to when a request's `Host` is missing or implausible.
    let listening: MapBaseURL

    init(listening: MapBaseURL = MapEndpoints.defaultListening) {
        self.listening = listening
    }

    /// `http://127.0.0.1:8080`, `serve`'s default address.
    static let defaultListening = MapBaseURL(scheme: "http", authority: "127.0.0.1:8080")!

    /// The answer to `request`, admitted by the front door for `endpoint` (a map endpoint).
    func respond(to request: HTTPRequest, endpoint: APIEndpoint) -> HTTPResponse {
        guard let parsed = MapPath(path: request.path), parsed.endpoint == endpoint else {
            return APIResponses.error(.notFound("no such map resource: \(request.path.prefix(200))"), for: endpoint)
        }
        switch parsed.request {
        case .failure(let error):
            return APIResponses.error(error, for: endpoint)
        case .success(let mapRequest):
            let urls = MapURLs(base: MapBaseURL.of(request, listening: listening), key: FrontDoor.presentedKey(request))
            return produce(mapRequest, urls: urls)
        }
    }

    /// The resource `request` names, its inner URLs built by `urls`.
    private func produce(_ request: MapRequest, urls: MapURLs) -> HTTPResponse {
        APIResponses.error(Self.notWired, for: request.endpoint)
    }

    /// The placeholder answer of a valid map request (503: MapLibre retries it, nothing is cached).
    static let notWired = APIError(status: 503, code: APIErrorCode.errorUnknown.rawValue, message: "map endpoint not wired yet")
}
