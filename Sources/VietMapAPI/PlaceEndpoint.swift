import JSON
import Search

/// `GET /api/place/v4`: a ref_id → the 13-key place object, in the format the ref_id carries.
struct PlaceEndpoint {
    let search: PlaceSearch
    let renderer: ResponseRenderer

    func respond(_ parameters: RequestParameters) throws(APIError) -> [UInt8] {
        let text = try parameters.required("refid", "refId", "ref_id")
        guard let refID = RefID(decoding: text) else { throw .notFound("unknown refid") }
        let place: PlaceRecord?
        do {
            place = try search.place(key: refID.key)
        } catch {
            throw APIError.internalFailure(error)
        }
        guard let place, place.exists(in: refID.format) else { throw .notFound("unknown refid") }
        return renderer.placeDetail(place, format: refID.format)
    }
}
