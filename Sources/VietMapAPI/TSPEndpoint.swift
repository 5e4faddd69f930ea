import VietMapWire
import Routing

/// `GET /api/tsp?api-version=1.1&point=…&vehicle=…&points_encoded=…&round_trip=true|false` (JS SDK `tsp`), also
/// reached as `/api/tsp/v3?…&roundtrip=false&sources=…&destinations=…` by third parties: the points are visited in
/// the order `TourPlanner` chooses (exact up to 10 points, heuristic beyond) and the answer is the route v4
/// envelope `{"license":"vietmap","code":"OK","messages":null,"paths":[path]}` with the path rendered exactly as
/// route v4 renders one (`RouteRenderer`): its `snapped_waypoints` and via instructions follow the tour order, and
/// a round trip ends where it started (the start appears again as the last waypoint).
///
/// Simulator decisions (the live behaviour is not documented):
/// - `round_trip` (alias `roundtrip`): default true, as the JS SDK's `TSPRequest`.
/// - `sources`: the index of the start point (default 0). `destinations`: for a one-way tour, the index of the
///   last point (default: whichever the plan ends at); ignored for a round trip; equal to `sources` = round trip.
///   One index each; more, or a value that is not a point index, is 400 INVALID_REQUEST naming it.
/// - `optimize` is accepted and ignored: this endpoint always optimizes (the SDK sends `optimize=false` by
///   default, which would make the call pointless otherwise).
/// - The visiting order is NOT put in the body (no VietMap document has a `points_order` key and clients that
///   check the path's keys would break); the answer carries it for a header (`EndpointAnswer.pointsOrder`),
///   e.g. `X-VietMap-Sim-Points-Order: 0,2,1,3`.
/// - Like route v4: at most `Limits.maxPoints` points (MAX_POINTS_EXCEED), an unsnappable point is 400
///   "Cannot find point i", an order that cannot be driven is `ZERO_RESULTS` with `paths: []`.
struct TSPEndpoint {
    /// Limits an operator may set.
    struct Limits: Sendable {
        /// `TourPlanner.maxPoints`: also the route limit of route v4.
        var maxPoints = TourPlanner.maxPoints
        var maxSnapDistanceMeters = 1_000.0
    }

    /// nil: the dataset has no roads.
    let network: RoadNetwork?
    let limits: Limits

    init(network: RoadNetwork?, limits: Limits = Limits()) {
        self.network = network
        self.limits = limits
    }

    /// The route envelope, the search states settled (matrix and route) and the visiting order (indexes into the
    /// request's points, start first; a round trip's return is not repeated; empty for ZERO_RESULTS).
    func respond(_ parameters: RequestParameters) throws(APIError) -> EndpointAnswer {
        let query = try RoutingQuery(parameters, minPoints: 2, maxPoints: limits.maxPoints,
                                     maxSnapDistanceMeters: limits.maxSnapDistanceMeters)
        let count = query.points.count
        let roundTrip = try RoutingQuery.boolean(parameters, .roundTrip, default: true)
        _ = try RoutingQuery.boolean(parameters, .optimize, default: true)
        let start = try index(parameters, .sources, count: count) ?? 0
        let end: Int? = roundTrip ? nil : try index(parameters, .destinations, count: count)
        let network = try RoadNetwork.required(network, firstPoint: query.pointTexts[0])
        let tour: TourPlanner.Tour
        do {
            tour = try TourPlanner.route(network.graph, points: query.points, vehicle: query.vehicle, options: query.options,
                                         roundTrip: roundTrip, start: start, end: end, workspace: network.workspace)
        } catch {
            return try query.answer(to: error)
        }
        return EndpointAnswer(body: RouteRenderer.answer(tour.route, encoded: query.encoded),
                              settledStates: tour.matrix.settledStates + tour.route.settledNodes, pointsOrder: tour.plan.order)
    }

    /// One point index, nil when `name` is absent.
    func index(_ parameters: RequestParameters, _ parameter: APIParameter, count: Int) throws(APIError) -> Int? {
        let name = parameter.name
        guard let text = parameters.string(parameter) else { return nil }
        let items = try parameters.list(parameter, limit: 1, noun: "indexes", separators: { $0 == ";" || $0 == "," })
        guard let item = items.first, let index = Int(item), index >= 0, index < count else {
            throw .invalidRequest("parameter '\(name)': '\(text.prefix(20))' is not a point index (0…\(count - 1))")
        }
        return index
    }
}
