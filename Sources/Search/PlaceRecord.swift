/// What a place is, as stored in `place.kind`.
public enum PlaceKind: Int, Sendable {
    case admin = 0, poi = 1, street = 2, address = 3
}

/// Which administrative scheme an address is written in.
public enum AddressFormat: Int, Sendable {
    /// Since 1 July 2025: ward (xã/phường) → province. VietMap's "new format".
    case new = 1
    /// Before 2025: ward → district → province. VietMap's "old format".
    case old = 2

    public var other: AddressFormat { self == .new ? .old : .new }
}

/// One row of the `place` table.
public struct PlaceRecord: Sendable, Equatable {
    public var id: Int64
    public var key: String
    public var kind: PlaceKind
    /// For admin units: the scheme the unit belongs to; `nil` for places that exist in both.
    public var scheme: AddressFormat?
    public var name: String
    public var houseNumber: String
    public var street: String
    public var categories: [String]
    public var coordinate: Coordinate
    public var importance: Double
    public var newWard: Int
    public var newProvince: Int
    public var oldWard: Int
    public var oldDistrict: Int
    public var oldProvince: Int
    // (The folded keys search ranks by — name, address, kind, other names — stay in the index:
    // `PlaceColumns` gives them.)

    /// Whether this place can be written in `format` (admin units only in their own scheme).
    public func exists(in format: AddressFormat) -> Bool { scheme == nil || scheme == format }

    /// The SELECT list that `SearchIndex.build(from:)` reads, in order.
    static let columns = "p.id, p.key, p.kind, p.scheme, p.name, p.hs_num, p.street, p.categories, p.lat, p.lng, p.importance, p.new_ward, p.new_province, p.old_ward, p.old_district, p.old_province, p.name_key, p.address_key, p.kind_key, p.alias_key"
}
