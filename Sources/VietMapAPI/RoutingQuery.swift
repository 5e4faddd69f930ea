import VietMapWire
import Foundation
import HTTPServer
import Routing
import Search

/// The parameters the route, matrix and TSP endpoints share, parsed one way (with one set of messages):
/// repeated `point=lat,lng`, `vehicle` (`container` = a 30 t truck), `points_encoded`, `avoid`, `capacity`.
struct RoutingQuery {
    /// The `point` values as sent (for error messages) and parsed.
    var pointTexts: [String]
    var points: [GeoPoint]
    var vehicle: Vehicle
    var options: RouteOptions
    var encoded: Bool

    /// At most this many `avoid` values (as route v4).
    static let maxAvoid = 8

    /// - Parameters:
    ///   - minPoints, maxPoints: fewer is INVALID_REQUEST, more is MAX_POINTS_EXCEED.
    init(_ parameters: RequestParameters, minPoints: Int, maxPoints: Int, maxSnapDistanceMeters: Double) throws(APIError) {
        let texts = parameters.query.all(APIParameter.point.name)
        guard texts.count >= minPoints else {
            throw .invalidRequest("at least \(minPoints) 'point' parameters (lat,lng) are required, got \(texts.count)")
        }
        guard texts.count <= maxPoints else {
            throw APIError(status: 400, code: "MAX_POINTS_EXCEED", message: "too many points: \(texts.count), at most \(maxPoints)")
        }
        var points: [GeoPoint] = []
        for (index, text) in texts.enumerated() {
            guard let c = Coordinate(parsing: text) else {
                throw .invalidRequest("point \(index) must be 'lat,lng' with -90≤lat≤90 and -180≤lng≤180, got '\(text.prefix(40))'")
            }
            points.append(GeoPoint(latitude: c.lat, longitude: c.lng))
        }
        var options = RouteOptions(maxPoints: maxPoints, maxSnapDistanceMeters: maxSnapDistanceMeters)
        let vehicleName = parameters.string(.vehicle) ?? "car"
        if vehicleName == "container" {
            // Seen working live; simulated as a truck (default container weight when no capacity is given).
            vehicle = .truck
            options.truckCapacityKg = 30_000
        } else if let v = Vehicle(name: vehicleName) {
            vehicle = v
        } else {
            throw .invalidRequest("unknown vehicle '\(vehicleName.prefix(40))'; expected car, motorcycle, truck, bike or foot")
        }
        encoded = try Self.boolean(parameters, .pointsEncoded, default: true)
        for word in try parameters.list(.avoid, limit: Self.maxAvoid, noun: "values", separators: { ",|; ".contains($0) }) {
            let word = word.lowercased()
            if word == "ferry" { options.avoidFerry = true }
            if word == "toll" { options.avoidToll = true }
        }
        if let capacity = try parameters.integer(.capacity) {
            guard capacity > 0 else { throw .invalidRequest("parameter 'capacity' must be a positive weight in kg") }
            if vehicle == .truck { options.truckCapacityKg = capacity }
        }
        pointTexts = texts
        self.points = points
        self.options = options
    }

    /// `true`/`1` or `false`/`0` (any case) of the first of `names` present; `default` when none is.
    static func boolean(_ parameters: RequestParameters, _ parameter: APIParameter, default value: Bool) throws(APIError) -> Bool {
        let names = parameter.spellings
        guard let text = parameters.string(parameter) else { return value }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .invalidRequest("parameter '\(names[0])' must be true or false, got '\(text.prefix(20))'")
        }
    }

    /// Snaps point `index`; the error names it as route v4 does.
    func snap(_ graph: RoadGraph, _ index: Int) throws(APIError) -> Snap {
        let p = points[index]
        guard let s = graph.snap(latitude: p.latitude, longitude: p.longitude, vehicle: vehicle, options: options) else {
            throw cannotFindPoint(index)
        }
        return s
    }

    /// What a failed search answers, the same for route v4 and TSP: a point with no road near it is 400 "Cannot find
    /// point i", points that cannot be joined `ZERO_RESULTS` with `paths: []`, too many points MAX_POINTS_EXCEED.
    func answer(to error: RoutingError) throws(APIError) -> EndpointAnswer {
        switch error {
        case .pointNotFound(let index):
            throw cannotFindPoint(index)
        case .noRoute:
            return EndpointAnswer(body: RouteRenderer.zeroResults, settledStates: 0)
        case .tooManyPoints(let max):
            throw APIError(status: 400, code: "MAX_POINTS_EXCEED", message: "too many points: \(points.count), at most \(max)")
        case .tooFewPoints:
            throw .invalidRequest("at least 2 'point' parameters are required")
        }
    }

    private func cannotFindPoint(_ index: Int) -> APIError {
        .invalidRequest("Cannot find point \(index): \(pointTexts[index]) (no road for \(vehicle.name) within \(Int(options.maxSnapDistanceMeters)) m)")
    }
}
