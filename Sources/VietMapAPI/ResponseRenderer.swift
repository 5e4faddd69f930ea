import JSON
import Search

/// Turns domain values into the live API's JSON shapes, keys in the live order.
struct ResponseRenderer {
    let admin: AdminDirectory

    /// One autocomplete item in `format`; `variant` adds the other format under data_old/data_new.
    func searchItem(_ result: SearchResult, format: AddressFormat, withVariant: Bool) -> JSONValue {
        var item = baseItem(result, format: format)
        var dataOld: JSONValue = .null
        var dataNew: JSONValue = .null
        if withVariant, result.place.exists(in: format.other) {
            var variant = baseItem(result, format: format.other)
            variant["data_old"] = .null
            variant["data_new"] = .null
            if format == .new { dataOld = .object(variant) } else { dataNew = .object(variant) }
        }
        item["data_old"] = dataOld
        item["data_new"] = dataNew
        item["partner_code"] = .null
        return .object(item)
    }

    private func baseItem(_ result: SearchResult, format: AddressFormat) -> JSONObject {
        let p = PlacePresentation(place: result.place, format: format, admin: admin)
        return JSONObject([
            ("ref_id", .string(RefID(key: result.place.key, format: format).encoded)),
            ("distance", .number((result.distanceMeters ?? 0) / 1000)),
            ("address", .string(p.address)),
            ("name", .string(p.name)),
            ("display", .string(p.display)),
            ("boundaries", .array(p.units.map(boundary))),
            ("categories", .array(result.place.categories.map { .string($0) })),
            ("entry_points", .array([])),
        ])
    }

    func boundary(_ unit: AdminUnit) -> JSONValue {
        [
            "type": .integer(unit.level.rawValue), "id": .integer(unit.code), "name": .string(unit.name),
            "prefix": .string(unit.prefix), "full_name": .string(unit.fullName),
        ]
    }

    /// The 13-key place v4 object. New format: `district_id` 0 and `district` "".
    func placeDetail(_ place: PlaceRecord, format: AddressFormat) -> JSONValue {
        let p = PlacePresentation(place: place, format: format, admin: admin)
        let city = p.unit(.province)
        let district = format == .old ? p.unit(.district) : nil
        let ward = p.unit(.ward)
        return .object(JSONObject([
            ("display", .string(p.detailDisplay)),
            ("name", .string(p.detailName)),
            ("hs_num", .string(place.houseNumber)),
            ("street", .string(place.street)),
            ("address", .string(p.streetLine)),
            ("city_id", .integer(city?.code ?? 0)),
            ("city", .string(city?.fullName ?? "")),
            ("district_id", .integer(district?.code ?? 0)),
            ("district", .string(district?.fullName ?? "")),
            ("ward_id", .integer(ward?.code ?? 0)),
            ("ward", .string(ward?.fullName ?? "")),
            ("lat", .number(place.coordinate.lat)),
            ("lng", .number(place.coordinate.lng)),
        ]))
    }
}
