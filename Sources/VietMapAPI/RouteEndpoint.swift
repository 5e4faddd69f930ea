import VietMapWire
import Routing
import Search

/// `GET /api/route/v4` (and `/v3`, `?api-version=1.1`): repeated `point=lat,lng` (`RoutingQuery`) → fastest path over the road graph → VietMap's
/// GraphHopper-style envelope with an encoded (or GeoJSON) polyline and Vietnamese instructions.
struct RouteEndpoint {
    /// Limits an operator may set (`serve --max-points`, `--max-snap-distance`).
    struct Limits: Sendable {
        var maxPoints = 25
        var maxSnapDistanceMeters = 1_000.0
    }

    /// nil: the dataset has no roads.
    let network: RoadNetwork?
    let limits: Limits

    /// The route envelope with `code` "OK" (`RouteRenderer`), or "ZERO_RESULTS" with `paths: []`, and
    /// how many search states were settled.
    func respond(_ parameters: RequestParameters) throws(APIError) -> EndpointAnswer {
        let query = try RoutingQuery(parameters, minPoints: 2, maxPoints: limits.maxPoints,
                                     maxSnapDistanceMeters: limits.maxSnapDistanceMeters)
        let (texts, points, vehicle, options, encoded) = (query.pointTexts, query.points, query.vehicle, query.options, query.encoded)

        let network = try RoadNetwork.required(network, firstPoint: texts[0])
        let route: Route
        do {
            route = try Router.route(network.graph, points: points, vehicle: vehicle, options: options, workspace: network.workspace)
        } catch {
            return try query.answer(to: error)
        }
        return EndpointAnswer(body: RouteRenderer.answer(route, encoded: encoded), settledStates: route.settledNodes)
    }
}
