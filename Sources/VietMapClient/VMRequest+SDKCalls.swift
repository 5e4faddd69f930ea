import Foundation

/// Requests for the endpoints VietMap's own SDKs call beyond the reference client's three:
/// forward geocoding, reverse geocoding, matrix, TSP and address migration. Parameter names are
/// the documented ones (`APIParameter`); coordinates use `VMCoordinate.queryValue`.
extension VMRequest {
    /// `GET /api/search/v4` (forward geocoding): the autocomplete parameters, `geocode:` ids.
    public static func search(text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                              additionalParameters: [VMParameter] = []) throws(VMClientError) -> VMRequest {
        let request = try autocomplete(text: text, focus: focus, displayType: displayType, additionalParameters: additionalParameters)
        return VMRequest(.search, request.parameters)
    }

    /// `GET /api/reverse/v4?lat=…&lng=…&display_type=…` (display types 1, 2, 4, 5, 6).
    public static func reverse(_ point: VMCoordinate, displayType: Int? = nil) throws(VMClientError) -> VMRequest {
        guard point.isValid else { throw .invalidArgument("\(point) is not a valid coordinate") }
        let parts = point.queryValue.split(separator: ",").map(String.init)
        var parameters = [VMParameter("lat", parts[0]), VMParameter("lng", parts[1])]
        if let displayType { parameters.append(VMParameter("display_type", String(displayType))) }
        return VMRequest(.reverse, parameters)
    }

    /// `GET /api/matrix?api-version=1.1`: `points`, with `sources`/`destinations` as indexes into
    /// them (nil: every point), written `0;1` as the API documents.
    public static func matrix(points: [VMCoordinate], sources: [Int]? = nil, destinations: [Int]? = nil,
                              vehicle: VMVehicle = .car) throws(VMClientError) -> VMRequest {
        try checkPoints(points, least: 1)
        for (name, list) in [("sources", sources), ("destinations", destinations)] {
            if let bad = list?.first(where: { !points.indices.contains($0) }) {
                throw .invalidArgument("\(name) index \(bad) is not one of the \(points.count) points")
            }
        }
        var parameters = [VMParameter("api-version", "1.1"), VMParameter("vehicle", vehicle.rawValue)]
        parameters += points.map { VMParameter("point", $0.queryValue) }
        if let sources { parameters.append(VMParameter("sources", sources.map(String.init).joined(separator: ";"))) }
        if let destinations { parameters.append(VMParameter("destinations", destinations.map(String.init).joined(separator: ";"))) }
        return VMRequest(.matrix, parameters)
    }

    /// `GET /api/tsp?api-version=1.1`: the best order to visit `points` from the first one,
    /// back to it with `roundTrip`.
    public static func tsp(points: [VMCoordinate], roundTrip: Bool = true, vehicle: VMVehicle = .car) throws(VMClientError) -> VMRequest {
        try checkPoints(points, least: 2)
        var parameters = [VMParameter("api-version", "1.1"), VMParameter("vehicle", vehicle.rawValue),
                          VMParameter("points_encoded", "true"), VMParameter("round_trip", roundTrip ? "true" : "false")]
        parameters += points.map { VMParameter("point", $0.queryValue) }
        return VMRequest(.tsp, parameters)
    }

    /// `GET /api/migrate-address/v3`: `text` in the other administrative scheme; `migrateType` 1
    /// old → new, 2 new → old (which needs `focus`).
    public static func migrateAddress(text: String, migrateType: Int = 1, focus: VMCoordinate? = nil) throws(VMClientError) -> VMRequest {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidArgument("address text is empty") }
        var parameters = [VMParameter("text", text), VMParameter("migrate_type", String(migrateType))]
        if let focus {
            guard focus.isValid else { throw .invalidArgument("focus \(focus) is not a valid coordinate") }
            parameters.append(VMParameter("focus", focus.queryValue))
        }
        return VMRequest(.migrateAddress, parameters)
    }

    private static func checkPoints(_ points: [VMCoordinate], least: Int) throws(VMClientError) {
        guard points.count >= least else { throw .invalidArgument("at least \(least) point(s) needed, got \(points.count)") }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw .invalidArgument("point \(bad) (\(points[bad])) is not a valid coordinate")
        }
    }
}
