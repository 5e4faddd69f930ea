import Foundation
import HTTPServer
import Routing
import VietMapWire

/// `GET /api/navigations/route/directions/v5/{profile}/{lng,lat;…}.json` (VietMap's navigation
/// SDKs): the route v4 search on the same road graph — same snapping, same path, same Vietnamese
/// instructions — answered in Mapbox Directions v5's shape (`DirectionsRenderer`). Failures are
/// Mapbox-shaped (`ErrorEnvelope.mapbox`): `NoSegment`/`NoRoute` with 200, `ProfileNotFound` 404,
/// `InvalidInput` 422.
///
/// Beyond route v4: `radiuses` bound each waypoint's snapping, `bearings` keep only road segments
/// travelled within the given direction (`BearingFilter`; Mapbox's `degrees,range` or the iOS
/// SDK's `accuracy,heading`, `DirectionsBearingOrder`) and make the route leave in it. The router has no alternatives, so
/// `alternatives=true` still answers one route.
struct DirectionsEndpoint {
    /// nil: the dataset has no roads.
    let network: RoadNetwork?
    let limits: RouteEndpoint.Limits

    /// The answer (`DirectionsRenderer`) and how many search states were settled.
    /// `userAgent` tells how the client orders a `bearings` item (`DirectionsBearingOrder`).
    func respond(path: String, _ parameters: RequestParameters, userAgent: String?) throws(APIError) -> EndpointAnswer {
        let query = try DirectionsQuery(path: path, parameters, bearingOrder: DirectionsBearingOrder(userAgent: userAgent),
                                        maxPoints: limits.maxPoints,
                                        maxSnapDistanceMeters: limits.maxSnapDistanceMeters)
        guard let network else { throw .directions(.noSegment, "this dataset has no roads") }
        let graph = network.graph
        var snaps: [Snap] = []
        for (index, point) in query.points.enumerated() {
            guard let snap = graph.snap(latitude: point.latitude, longitude: point.longitude, vehicle: query.vehicle,
                                        options: query.options, maxDistanceMeters: query.radiuses[index],
                                        bearing: query.bearings[index]) else {
                let bearing = query.bearings[index].map { " travelled at \(Int($0.degrees))±\(Int($0.tolerance))°" } ?? ""
                throw .directions(.noSegment, "No road\(bearing) for \(query.profile.rawValue) within \(Int(query.radiuses[index])) m of coordinate \(index)")
            }
            snaps.append(snap)
        }
        let route: Route
        do {
            route = try Router.route(graph, snaps: snaps, vehicle: query.vehicle, options: query.options, workspace: network.workspace)
        } catch {
            switch error {
            case .noRoute(let leg): throw .directions(.noRoute, "No route found between coordinates \(leg) and \(leg + 1)")
            case .tooManyPoints(let max): throw .directions(.invalidInput, "Too many coordinates, at most \(max)")
            case .tooFewPoints, .pointNotFound: throw .directions(.invalidInput, "at least 2 coordinates are required")
            }
        }
        let waypoints = zip(snaps, query.points).enumerated().map { index, pair in
            DirectionsRenderer.Waypoint(name: query.waypointNames[index] ?? DirectionsRenderer.roadName(graph.name(ofEdge: pair.0.edge)),
                                        location: pair.0.point, distance: pair.0.distance)
        }
        let body = DirectionsRenderer(query: query, graph: graph).answer(route, waypoints: waypoints, uuid: Self.uuid(path: path, query: parameters.query.items))
        return EndpointAnswer(body: body, settledStates: route.settledNodes)
    }

    /// A UUID-shaped identifier of the request (the same request, the same `uuid`: answers stay
    /// reproducible for scenario baselines and recordings).
    static func uuid(path: String, query: [(name: String, value: String)]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        func mix(_ text: String) {
            for byte in text.utf8 {
                a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 0x9e37_79b9
            }
        }
        mix(path)
        for item in query where item.name != APIParameter.apikey.name && item.name != APIParameter.accessToken.name {
            mix("&" + item.name + "=" + item.value)
        }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, word) in [a, b].enumerated() {
            for nibble in 0..<16 {
                let position = i * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { out.append(UInt8(ascii: "-")) }
                out.append(digits[Int((word >> UInt64(60 - 4 * nibble)) & 0xf)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
