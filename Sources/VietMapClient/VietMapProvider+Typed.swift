import Foundation

/// The reference client's three calls, on any backend (`HTTPVietMapProvider`,
/// `RecordedVietMapProvider`, a test double…). Every failure is a `VMClientError`.
extension VietMapProvider {
    /// Autocomplete v4 (suggestions carry no coordinates; call `placeDetail` for them).
    public func autocomplete(text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                             additionalParameters: [VMParameter] = []) async throws(VMClientError) -> [VMSearchItem] {
        let request = try VMRequest.autocomplete(text: text, focus: focus, displayType: displayType,
                                                 additionalParameters: additionalParameters)
        return try VMResponseDecoding.searchItems(from: await sendTyped(request))
    }

    /// Place v4: coordinates and address parts for a `ref_id` from autocomplete.
    public func placeDetail(refId: String) async throws(VMClientError) -> VMPlaceDetail {
        try VMResponseDecoding.placeDetail(from: await sendTyped(VMRequest.placeDetail(refId: refId)))
    }

    /// Route v4 through `points` (at least 2). Throws `.noRoute` for `ZERO_RESULTS`.
    ///
    /// The reference `VMRoutePath.points` is a `String`, so only `pointsEncoded: true` (the
    /// default, an encoded polyline for `decodePolyline`) decodes; with `false` the API answers
    /// GeoJSON and this call throws `.decoding` — use `send` and your own model for that.
    public func route(points: [VMCoordinate], vehicle: VMVehicle = .car, pointsEncoded: Bool = true,
                      additionalParameters: [VMParameter] = []) async throws(VMClientError) -> VMRouteResponse {
        let request = try VMRequest.route(points: points, vehicle: vehicle, pointsEncoded: pointsEncoded,
                                          additionalParameters: additionalParameters)
        return try VMResponseDecoding.route(from: await sendTyped(request))
    }

    /// `send` with every failure as a `VMClientError` (transport errors wrapped, cancellation
    /// as `.cancelled`, a provider's own `VMClientError` passed through).
    public func sendTyped(_ request: VMRequest) async throws(VMClientError) -> VMRawResponse {
        do {
            return try await send(request)
        } catch {
            throw VMClientError.wrapping(error)
        }
    }
}

/// Raw answer → reference model, with VietMap's error bodies decoded. Public so that code holding a
/// `VMRawResponse` (a contract test, a recording) judges it exactly as the typed calls do.
public enum VMResponseDecoding {
    public static func searchItems(from response: VMRawResponse) throws(VMClientError) -> [VMSearchItem] {
        try decodeSuccess([VMSearchItem].self, response)
    }

    public static func placeDetail(from response: VMRawResponse) throws(VMClientError) -> VMPlaceDetail {
        try decodeSuccess(VMPlaceDetail.self, response)
    }

    public static func route(from response: VMRawResponse) throws(VMClientError) -> VMRouteResponse {
        try requireSuccess(response)
        // The envelope's code first: an error code inside a 2xx is not a route.
        if let status = try? JSONDecoder().decode(RouteStatus.self, from: response.body), let code = status.code,
           code.uppercased() != "OK" {
            let apiError = VMAPIError.decode(from: response.body) ?? VMAPIError(code: code, message: nil, isRouteEnvelope: true)
            if code.uppercased() == "ZERO_RESULTS" { throw .noRoute(apiError) }
            throw .http(status: response.status, body: response.body, apiError: apiError)
        }
        return try decodeSuccess(VMRouteResponse.self, response)
    }

    private struct RouteStatus: Decodable { let code: String? }

    private static func requireSuccess(_ response: VMRawResponse) throws(VMClientError) {
        guard (200..<300).contains(response.status) else {
            throw .http(status: response.status, body: response.body, apiError: VMAPIError.decode(from: response.body))
        }
    }

    /// Any model from a 2xx answer (the error bodies of other statuses decoded into the error).
    public static func decoded<T: Decodable>(_ type: T.Type, from response: VMRawResponse) throws(VMClientError) -> T {
        try decodeSuccess(type, response)
    }

    private static func decodeSuccess<T: Decodable>(_ type: T.Type, _ response: VMRawResponse) throws(VMClientError) -> T {
        try requireSuccess(response)
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw .decoding(description: String(describing: error), body: response.body)
        }
    }
}
