import Search

/// How a place reads in one address format: its name, the address line and the boundaries,
/// following the live API's conventions (comma-joined without spaces, ward → district → city).
struct PlacePresentation {
    let place: PlaceRecord
    let format: AddressFormat
    /// Ward first, province last; only the units of `format`.
    let units: [AdminUnit]

    init(place: PlaceRecord, format: AddressFormat, admin: AdminDirectory) {
        self.place = place
        self.format = format
        // An admin unit's codes include its own, so it comes first, followed by its parents.
        self.units = admin.hierarchy(of: place, in: format)
    }

    /// "197 Trần Phú" or "" when the place has no house number/street.
    var streetLine: String {
        if place.houseNumber.isEmpty { return place.street }
        if place.street.isEmpty { return place.houseNumber }
        return place.houseNumber + " " + place.street
    }

    /// What autocomplete shows as `name`.
    var name: String { place.name }

    /// Autocomplete `address`: the admin part (plus the street line for POIs), no spaces after commas.
    var address: String { address(separator: ",") }

    /// `address` with `separator` between the parts (v3 answers write ", ").
    func address(separator: String) -> String {
        var address = ""
        var first = true
        if place.kind == .poi {
            let line = streetLine
            if !line.isEmpty {
                address = line
                first = false
            }
        }
        for unit in place.kind == .admin ? units.dropFirst() : units[...] {
            if !first { address += separator }
            address += unit.fullName
            first = false
        }
        return address
    }

    /// Autocomplete `display`: name, a space, the address.
    var display: String { display(address: address) }

    /// `display` when `address` is already at hand.
    func display(address: String) -> String { address.isEmpty ? name : name + " " + address }

    func unit(_ level: AdminLevel) -> AdminUnit? { units.first { $0.level == level } }

    /// Place-detail `display`: every part joined by ",", e.g. "197 Đường Trần Phú,Phường Chợ Quán,Thành Phố Hồ Chí Minh".
    var detailDisplay: String {
        var parts: [String] = []
        if place.kind != .address { parts.append(place.name) }
        if !streetLine.isEmpty, place.kind != .street { parts.append(streetLine) }
        for unit in units where !parts.contains(unit.fullName) { parts.append(unit.fullName) }
        return parts.joined(separator: ",")
    }

    /// Place-detail `name`: "" for a plain address point (as in the live example), else the place's name.
    var detailName: String { place.kind == .address ? "" : place.name }

    /// Place v3 `name`: the street line for a plain address point (live v3 example:
    /// `"3 Đường Trần Nhân Tôn"`), else the place's name.
    var v3DetailName: String { place.kind == .address ? streetLine : place.name }

    /// Place v3 `display`: the name, a space, then the units joined by "," (live v3 example).
    var v3DetailDisplay: String {
        let units = self.units.map(\.fullName).joined(separator: ",")
        return v3DetailName.isEmpty ? units : v3DetailName + " " + units
    }
}
