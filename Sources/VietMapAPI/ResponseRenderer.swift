import JSON
import Search

/// Turns domain values into the live API's JSON shapes, keys in the live order. Writes the bytes
/// directly (`JSONWriter`): these are the hot answers, and a `JSONValue` tree per item would only
/// be built to be serialized.
struct ResponseRenderer {
    let admin: AdminDirectory

    /// How one endpoint version writes its items.
    enum ItemStyle: Sendable {
        /// v4: ids in `ids`' form, addresses joined by ",", `data_old`/`data_new`/`partner_code` present.
        case v4(ids: RefID.Style)
        /// v3: `vm:` ids, addresses joined by ", ", no `data_*`/`partner_code` keys (live v3 example).
        case v3

        func id(_ place: PlaceRecord, format: AddressFormat) -> String {
            switch self {
            case .v4(let ids): return RefID(key: place.key, format: format).encoded(ids)
            case .v3: return RefID(key: place.key, format: format).encoded(.v3(place.kind))
            }
        }

        var separator: String {
            if case .v3 = self { return ", " }
            return ","
        }
    }

    /// The autocomplete answer: a bare array of `searchItem`s.
    func searchItems(_ results: [SearchResult], format: AddressFormat, withVariant: Bool,
                     style: ItemStyle = .v4(ids: .autocomplete)) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + results.count * (withVariant ? 1_400 : 700))
        writer.beginArray()
        for result in results { searchItem(result, format: format, withVariant: withVariant, style: style, into: &writer) }
        writer.endArray()
        return writer.bytes
    }

    /// One autocomplete item in `format`; `withVariant` adds the other format under data_old/data_new.
    func searchItem(_ result: SearchResult, format: AddressFormat, withVariant: Bool,
                    style: ItemStyle = .v4(ids: .autocomplete), into writer: inout JSONWriter) {
        writer.beginObject()
        baseFields(result, format: format, style: style, into: &writer)
        if case .v3 = style {
            writer.endObject()
            return
        }
        let variant = withVariant && result.place.exists(in: format.other)
        writer.key("data_old")
        if variant, format == .new { variantItem(result, format: format.other, style: style, into: &writer) } else { writer.null() }
        writer.key("data_new")
        if variant, format != .new { variantItem(result, format: format.other, style: style, into: &writer) } else { writer.null() }
        writer.key("partner_code")
        writer.null()
        writer.endObject()
    }

    private func variantItem(_ result: SearchResult, format: AddressFormat, style: ItemStyle, into writer: inout JSONWriter) {
        writer.beginObject()
        baseFields(result, format: format, style: style, into: &writer)
        writer.key("data_old")
        writer.null()
        writer.key("data_new")
        writer.null()
        writer.endObject()
    }

    private func baseFields(_ result: SearchResult, format: AddressFormat, style: ItemStyle, into writer: inout JSONWriter) {
        let p = PlacePresentation(place: result.place, format: format, admin: admin)
        let address = p.address(separator: style.separator)
        writer.member("ref_id", style.id(result.place, format: format))
        writer.member("distance", number: (result.distanceMeters ?? 0) / 1000)
        writer.member("address", address)
        writer.member("name", p.name)
        writer.member("display", p.display(address: address))
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
        writer.member("type", unit.level.rawValue)
        writer.member("id", unit.code)
        writer.member("name", unit.name)
        writer.member("prefix", unit.prefix)
        writer.member("full_name", unit.fullName)
        writer.endObject()
    }

    /// The 13-key place v4 object. New format: `district_id` 0 and `district` "".
    /// `version3`: place v3's conventions (name = street line of an address, `address` "",
    /// display "name units", as the live v3 example).
    func placeDetail(_ place: PlaceRecord, format: AddressFormat, version3: Bool = false) -> [UInt8] {
        let p = PlacePresentation(place: place, format: format, admin: admin)
        let city = p.unit(.province)
        let district = format == .old ? p.unit(.district) : nil
        let ward = p.unit(.ward)
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("display", version3 ? p.v3DetailDisplay : p.detailDisplay)
        writer.member("name", version3 ? p.v3DetailName : p.detailName)
        writer.member("hs_num", place.houseNumber)
        writer.member("street", place.street)
        writer.member("address", version3 ? "" : p.streetLine)
        writer.member("city_id", city?.code ?? 0)
        writer.member("city", city?.fullName ?? "")
        writer.member("district_id", district?.code ?? 0)
        writer.member("district", district?.fullName ?? "")
        writer.member("ward_id", ward?.code ?? 0)
        writer.member("ward", ward?.fullName ?? "")
        writer.member("lat", number: place.coordinate.lat)
        writer.member("lng", number: place.coordinate.lng)
        writer.endObject()
        return writer.bytes
    }
}
