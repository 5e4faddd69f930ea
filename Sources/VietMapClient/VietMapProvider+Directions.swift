import Foundation

extension VietMapProvider {
    /// Directions v5, the navigation SDKs' route call. Every 2xx answer decodes, failure codes
    /// included: `NoRoute`/`NoSegment` come back with `routes` empty (check `isOk`). Other statuses
    /// throw `.http` with the Mapbox `{"code","message"}` body as `apiError` (422 `InvalidInput`,
    /// 404 `ProfileNotFound`, 401 `InvalidToken`, …).
    public func directions(profile: VMDirectionsProfile = .drivingTraffic, coordinates: [VMCoordinate],
                           options: VMDirectionsOptions = VMDirectionsOptions()) async throws(VMClientError) -> VMDirectionsResponse {
        let request = try VMRequest.directions(profile: profile, coordinates: coordinates, options: options)
        return try VMResponseDecoding.decoded(VMDirectionsResponse.self, from: await sendTyped(request))
    }
}
