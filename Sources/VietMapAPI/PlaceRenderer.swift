import JSON
import Search

/// The place answers in the live API's JSON shapes, keys in the live order: autocomplete and search
/// items, reverse items, the place object, the migrated address. Writes the bytes directly
/// (`JSONWriter`), as every answer's renderer: a `JSONValue` tree per item would only be built to be
/// serialized.
struct PlaceRenderer {
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

    /// `data_old` and `data_new` of an item that has no variant of either format: both null.
    private static func emptyVariants(into writer: inout JSONWriter) {
        writer.key("data_old")
        writer.null()
        writer.key("data_new")
        writer.null()
    }

    private func variantItem(_ result: SearchResult, format: AddressFormat, style: ItemStyle, into writer: inout JSONWriter) {
        writer.beginObject()
        baseFields(result, format: format, style: style, into: &writer)
        Self.emptyVariants(into: &writer)
        writer.endObject()
    }

    private func baseFields(_ result: SearchResult, format: AddressFormat, style: ItemStyle, into writer: inout JSONWriter) {
        writer.member("ref_id", style.id(result.place, format: format))
        writer.member("distance", number: (result.distanceMeters ?? 0) / 1000)
        itemFields(result.place, format: format, separator: style.separator, into: &writer)
    }

    /// `address` … `entry_points` of a search or reverse item.
    private func itemFields(_ place: PlaceRecord, format: AddressFormat, separator: String = ",", entryPoints: Bool = true,
                            into writer: inout JSONWriter) {
        let p = PlacePresentation(place: place, format: format, admin: admin)
        let address = p.address(separator: separator)
        writer.member("address", address)
        writer.member("name", p.name)
        writer.member("display", p.display(address: address))
        writer.key("boundaries")
        writer.beginArray()
        for unit in p.units { boundary(unit, into: &writer) }
        writer.endArray()
        writer.key("categories")
        writer.beginArray()
        for category in place.categories { writer.string(category) }
        writer.endArray()
        guard entryPoints else { return }
        writer.key("entry_points")
        writer.beginArray()
        writer.endArray()
    }

    /// Reverse v4 items: per result one item in `format` (`withVariant`: the other format nested
    /// in data_old/data_new), or, with `bothAsItems` (display_type 4), a new-format item and an
    /// old-format item. A result without a row in a format (an area with no old ward) is left out
    /// of that format. `lat`/`lng` echo the query; `distance` is planar degrees to the place.
    func reverseItems(_ results: [ReverseResult], query: Coordinate, format: AddressFormat, withVariant: Bool, bothAsItems: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + results.count * 1_400)
        writer.beginArray()
        for result in results {
            for itemFormat in bothAsItems ? [AddressFormat.new, .old] : [format] {
                guard let place = result.place(in: itemFormat) else { continue }
                writer.beginObject()
                reverseFields(place, query: query, format: itemFormat, into: &writer)
                let variant = withVariant ? result.place(in: itemFormat.other) : nil
                writer.key("data_old")
                if let variant, itemFormat == .new { reverseVariant(variant, query: query, format: .old, into: &writer) } else { writer.null() }
                writer.key("data_new")
                if let variant, itemFormat == .old { reverseVariant(variant, query: query, format: .new, into: &writer) } else { writer.null() }
                writer.endObject()
            }
        }
        writer.endArray()
        return writer.bytes
    }

    /// Reverse v3 items: old format, the nine keys of the v3 model (no entry_points, no data_*).
    func reverseItemsV3(_ results: [ReverseResult], query: Coordinate) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + results.count * 700)
        writer.beginArray()
        for result in results {
            guard let place = result.place(in: .old) else { continue }
            writer.beginObject()
            reverseFields(place, query: query, format: .old, entryPoints: false, separator: ", ", into: &writer)
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }

    private func reverseVariant(_ place: PlaceRecord, query: Coordinate, format: AddressFormat, into writer: inout JSONWriter) {
        writer.beginObject()
        reverseFields(place, query: query, format: format, into: &writer)
        Self.emptyVariants(into: &writer)
        writer.endObject()
    }

    /// Reverse ids are in the `vm:KIND:HEX` form of both live reverse examples (v4 and v3).
    private func reverseFields(_ place: PlaceRecord, query: Coordinate, format: AddressFormat, entryPoints: Bool = true,
                               separator: String = ",", into writer: inout JSONWriter) {
        writer.member("lat", number: query.lat)
        writer.member("lng", number: query.lng)
        writer.member("ref_id", RefID(key: place.key, format: format).encoded(.v3(place.kind)))
        let dLat = place.coordinate.lat - query.lat, dLng = place.coordinate.lng - query.lng
        writer.member("distance", number: (dLat * dLat + dLng * dLng).squareRoot())
        itemFields(place, format: format, separator: separator, entryPoints: entryPoints, into: &writer)
    }

    /// The migrate-address object: `name` the street part, `address` the units comma-joined,
    /// `display` both, `boundaries` the units.
    func migratedAddress(_ migrated: MigratedAddress) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        let address = migrated.units.map(\.fullName).joined(separator: ",")
        writer.beginObject()
        writer.member("address", address)
        writer.member("name", migrated.street)
        writer.member("display", migrated.street.isEmpty ? address : address.isEmpty ? migrated.street : migrated.street + " " + address)
        writer.key("boundaries")
        writer.beginArray()
        for unit in migrated.units { boundary(unit, into: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
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
