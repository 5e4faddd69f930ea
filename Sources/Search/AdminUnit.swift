/// Administrative level, as in VietMap's boundary `type`.
public enum AdminLevel: Int, Sendable {
    case province = 0, district = 1, ward = 2
}

/// One administrative unit of either scheme (a row of `admin_unit`).
public struct AdminUnit: Sendable, Equatable {
    public var scheme: AddressFormat
    public var level: AdminLevel
    /// Official national (GSO) code, as a number.
    public var code: Int
    /// Short name: "Bến Thành", "4", "Hồ Chí Minh".
    public var name: String
    /// "Phường", "Quận", "Thành Phố", "Tỉnh", …
    public var prefix: String
    /// `prefix + " " + name`.
    public var fullName: String
    public var districtCode: Int
    public var provinceCode: Int
    public var centroid: Coordinate
}
