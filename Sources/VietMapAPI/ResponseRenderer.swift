import JSON
import Search

/// Turns domain values into the live API's JSON shapes, keys in the live order. Writes the bytes
/// directly (`JSONWriter`): these are the hot answers, and a `JSONValue` tree per item would only
/// be built to be serialized.
struct ResponseRenderer {
    let admin: AdminDirectory

    /// The autocomplete answer: a bare array of `searchItem`s.
    func searchItems(_ results: [SearchResult], format: AddressFormat, withVariant: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + results.count * (withVariant ? 1_400 : 700))
        writer.beginArray()
        for result in results { searchItem(result, format: format, withVariant: withVariant, into: &writer) }
        writer.endArray()
        return writer.bytes
    }

    /// One autocomplete item in `format`; `withVariant` adds the other format under data_old/data_new.
    func searchItem(_ result: SearchResult, format: AddressFormat, withVariant: Bool, into writer: inout JSONWriter) {
        writer.beginObject()
        baseFields(result, format: format, into: &writer)
        let variant = withVariant && result.place.exists(in: format.other)
        writer.key("data_old")
        if variant, format == .new { variantItem(result, format: format.other, into: &writer) } else { writer.null() }
        writer.key("data_new")
        if variant, format != .new { variantItem(result, format: format.other, into: &writer) } else { writer.null() }
        writer.key("partner_code")
        writer.null()
        writer.endObject()
    }

    private func variantItem(_ result: SearchResult, format: AddressFormat, into writer: inout JSONWriter) {
        writer.beginObject()
        baseFields(result, format: format, into: &writer)
        writer.key("data_old")
        writer.null()
        writer.key("data_new")
        writer.null()
        writer.endObject()
    }

    private func baseFields(_ result: SearchResult, format: AddressFormat, into writer: inout JSONWriter) {
        let p = PlacePresentation(place: result.place, format: format, admin: admin)
        let address = p.address
        writer.key("ref_id")
        writer.string(RefID(key: result.place.key, format: format).encoded)
        writer.key("distance")
        writer.number((result.distanceMeters ?? 0) / 1000)
        writer.key("address")
        writer.string(address)
        writer.key("name")
        writer.string(p.name)
        writer.key("display")
        writer.string(p.display(address: address))
        writer.key("boundaries")
        writer.beginArray()
        for unit in p.units { boundary(unit, into: &writer) }
        writer.endArray()
        writer.key("categories")
        writer.beginArray()
        for category in result.place.categories { writer.string(category) }
        writer.endArray()
        writer.key("entry_points")
        writer.beginArray()
        writer.endArray()
    }

    private func boundary(_ unit: AdminUnit, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.integer(unit.level.rawValue)
        writer.key("id")
        writer.integer(unit.code)
        writer.key("name")
        writer.string(unit.name)
        writer.key("prefix")
        writer.string(unit.prefix)
        writer.key("full_name")
        writer.string(unit.fullName)
        writer.endObject()
    }

    /// The 13-key place v4 object. New format: `district_id` 0 and `district` "".
    func placeDetail(_ place: PlaceRecord, format: AddressFormat) -> [UInt8] {
        let p = PlacePresentation(place: place, format: format, admin: admin)
        let city = p.unit(.province)
        let district = format == .old ? p.unit(.district) : nil
        let ward = p.unit(.ward)
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("display")
        writer.string(p.detailDisplay)
        writer.key("name")
        writer.string(p.detailName)
        writer.key("hs_num")
        writer.string(place.houseNumber)
        writer.key("street")
        writer.string(place.street)
        writer.key("address")
        writer.string(p.streetLine)
        writer.key("city_id")
        writer.integer(city?.code ?? 0)
        writer.key("city")
        writer.string(city?.fullName ?? "")
        writer.key("district_id")
        writer.integer(district?.code ?? 0)
        writer.key("district")
        writer.string(district?.fullName ?? "")
        writer.key("ward_id")
        writer.integer(ward?.code ?? 0)
        writer.key("ward")
        writer.string(ward?.fullName ?? "")
        writer.key("lat")
        writer.number(place.coordinate.lat)
        writer.key("lng")
        writer.number(place.coordinate.lng)
        writer.endObject()
        return writer.bytes
    }
}
