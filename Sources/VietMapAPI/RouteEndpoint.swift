import VietMapWire
import Foundation
import JSON
import Routing
import Search

/// `GET /api/route/v4`: repeated `point=lat,lng` → fastest path over the road graph → VietMap's
/// GraphHopper-style envelope with an encoded (or GeoJSON) polyline and Vietnamese instructions.
struct RouteEndpoint {
    /// Limits an operator may set (`serve --max-points`, `--max-snap-distance`).
    struct Limits: Sendable {
        var maxPoints = 25
        var maxSnapDistanceMeters = 1_000.0
    }

    /// At most this many `avoid` values (`ferry`, `toll`, … — unknown ones are ignored as live does).
    static let maxAvoid = 8

    let graph: RoadGraph?
    let limits: Limits
    private let workspaces: ThreadLocal<RouterWorkspace>?

    init(graph: RoadGraph?, limits: Limits) {
        self.graph = graph
        self.limits = limits
        workspaces = graph.map { graph in ThreadLocal { RouterWorkspace(graph: graph) } }
    }

    /// The answer body (a route envelope with `code` "OK", or "ZERO_RESULTS" with `paths: []`) and
    /// how many search states were settled (for `Server-Timing`).
    func respond(_ parameters: RequestParameters) throws(APIError) -> (body: JSONValue, settledNodes: Int) {
        let texts = parameters.query.all(APIParameter.point.name)
        guard texts.count >= 2 else {
            throw .invalidRequest("at least 2 'point' parameters (lat,lng) are required, got \(texts.count)")
        }
        guard texts.count <= limits.maxPoints else {
            throw APIError(status: 400, code: "MAX_POINTS_EXCEED",
                           message: "too many points: \(texts.count), at most \(limits.maxPoints)")
        }
        var points: [GeoPoint] = []
        for (index, text) in texts.enumerated() {
            guard let c = Coordinate(parsing: text) else {
                throw .invalidRequest("point \(index) must be 'lat,lng' with -90≤lat≤90 and -180≤lng≤180, got '\(text.prefix(40))'")
            }
            points.append(GeoPoint(latitude: c.lat, longitude: c.lng))
        }
        let vehicleName = parameters.string(.vehicle) ?? "car"
        var options = RouteOptions(maxPoints: limits.maxPoints, maxSnapDistanceMeters: limits.maxSnapDistanceMeters)
        let vehicle: Vehicle
        if vehicleName == "container" {
            // Seen working live; simulated as a truck (default container weight when no capacity is given).
            vehicle = .truck
            options.truckCapacityKg = 30_000
        } else if let v = Vehicle(name: vehicleName) {
            vehicle = v
        } else {
            throw .invalidRequest("unknown vehicle '\(vehicleName.prefix(40))'; expected car, motorcycle, truck, bike or foot")
        }
        let encoded: Bool
        switch (parameters.string(.pointsEncoded) ?? "true").lowercased() {
        case "true", "1": encoded = true
        case "false", "0": encoded = false
        case let other: throw .invalidRequest("parameter 'points_encoded' must be true or false, got '\(other.prefix(20))'")
        }
        for word in try parameters.list(.avoid, limit: Self.maxAvoid, noun: "values", separators: { ",|; ".contains($0) }) {
            let word = word.lowercased()
            if word == "ferry" { options.avoidFerry = true }
            if word == "toll" { options.avoidToll = true }
        }
        if let capacity = try parameters.integer(.capacity) {
            guard capacity > 0 else { throw .invalidRequest("parameter 'capacity' must be a positive weight in kg") }
            if vehicle == .truck { options.truckCapacityKg = capacity }
        }

        guard let graph, let workspaces else { throw .invalidRequest("Cannot find point 0: \(texts[0]) (this dataset has no roads)") }
        let route: Route
        do {
            route = try Router.route(graph, points: points, vehicle: vehicle, options: options, workspace: workspaces.value)
        } catch {
            switch error {
            case .pointNotFound(let index):
                throw .invalidRequest("Cannot find point \(index): \(texts[index]) (no road for \(vehicle.name) within \(Int(limits.maxSnapDistanceMeters)) m)")
            case .noRoute:
                return (Self.envelope(code: "ZERO_RESULTS", messages: "Connection between locations not found", paths: []), 0)
            case .tooManyPoints(let max):
                throw APIError(status: 400, code: "MAX_POINTS_EXCEED", message: "too many points: \(texts.count), at most \(max)")
            case .tooFewPoints:
                throw .invalidRequest("at least 2 'point' parameters are required")
            }
        }
        return (Self.envelope(code: "OK", messages: nil, paths: [RouteRenderer.path(route, encoded: encoded)]), route.settledNodes)
    }

    static func envelope(code: String, messages: String?, paths: [JSONValue]) -> JSONValue {
        .object(JSONObject([("license", "vietmap"), ("code", .string(code)), ("messages", .string(messages)), ("paths", .array(paths))]))
    }
}
