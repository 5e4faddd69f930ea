import Foundation

/// Typed calls for the endpoints VietMap's SDKs use beyond the reference client's three, on any
/// backend. Every failure is a `VMClientError`, as for the reference calls.
extension VietMapProvider {
    /// Forward geocoding (`search/v4`): whole-query matching, `geocode:` ids that `placeDetail` resolves.
    public func search(text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                       additionalParameters: [VMParameter] = []) async throws(VMClientError) -> [VMSearchItem] {
        let request = try VMRequest.search(text: text, focus: focus, displayType: displayType, additionalParameters: additionalParameters)
        return try VMResponseDecoding.searchItems(from: await sendTyped(request))
    }

    /// Reverse geocoding (`reverse/v4`): the places nearest `point`, nearest first.
    public func reverse(_ point: VMCoordinate, displayType: Int? = nil) async throws(VMClientError) -> [VMReverseItem] {
        try VMResponseDecoding.decoded([VMReverseItem].self, from: await sendTyped(VMRequest.reverse(point, displayType: displayType)))
    }

    /// Travel matrix: seconds and metres from each source to each destination.
    public func matrix(points: [VMCoordinate], sources: [Int]? = nil, destinations: [Int]? = nil,
                       vehicle: VMVehicle = .car) async throws(VMClientError) -> VMMatrixResponse {
        let request = try VMRequest.matrix(points: points, sources: sources, destinations: destinations, vehicle: vehicle)
        return try VMResponseDecoding.decoded(VMMatrixResponse.self, from: await sendTyped(request))
    }

    /// TSP: a route through `points` in the best visiting order. Throws `.noRoute` for `ZERO_RESULTS`.
    public func tsp(points: [VMCoordinate], roundTrip: Bool = true, vehicle: VMVehicle = .car) async throws(VMClientError) -> VMRouteResponse {
        try VMResponseDecoding.route(from: await sendTyped(VMRequest.tsp(points: points, roundTrip: roundTrip, vehicle: vehicle)))
    }

    /// Address migration between the pre-2025 and the 2025 administrative units.
    public func migrateAddress(text: String, migrateType: Int = 1, focus: VMCoordinate? = nil) async throws(VMClientError) -> VMMigratedAddress {
        let request = try VMRequest.migrateAddress(text: text, migrateType: migrateType, focus: focus)
        return try VMResponseDecoding.decoded(VMMigratedAddress.self, from: await sendTyped(request))
    }
}
