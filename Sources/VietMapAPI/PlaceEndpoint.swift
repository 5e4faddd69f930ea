import VietMapWire
import JSON
import Search

/// `GET /api/place/v4`: a ref_id (any of the `auto:`, `geocode:`, `vm:` forms) → the 13-key place
/// object, in the format the ref_id carries. `place/v3` answers in the old format with v3's
/// conventions whatever the id's format (v3 predates the 2025 units).
struct PlaceEndpoint {
    let search: PlaceSearch
    let renderer: PlaceRenderer

    func respond(_ parameters: RequestParameters, endpoint: APIEndpoint = .place) throws(APIError) -> EndpointAnswer {
        let text = try parameters.required(.refid)
        guard let refID = RefID(decoding: text) else { throw .notFound("unknown refid") }
        let place: PlaceRecord?
        do {
            place = try search.place(key: refID.key)
        } catch {
            throw APIError.internalFailure(error)
        }
        let format = endpoint.isVersion3 ? .old : refID.format
        guard let place, place.exists(in: format) else { throw .notFound("unknown refid") }
        return EndpointAnswer(body: renderer.placeDetail(place, format: format, version3: endpoint.isVersion3))
    }
}
