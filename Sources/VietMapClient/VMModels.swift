import Foundation

// The reference client's Codable models (shared/seeds/vietmap-google-ios-client.md §4), ported
// Foundation-only. Names, fields, types and optionals are exactly the app's: they ARE the
// contract the simulator and the contract suite are checked against. Only `public` was added.

// MARK: - Autocomplete / Search Item (v4)
public struct VMSearchItem: Codable, Identifiable, Sendable {
    public let refId: String
    public let distance: Double?
    public let address: String?
    public let name: String?
    public let display: String?
    public let boundaries: [VMBoundary]?
    public let categories: [String]?
    public let entryPoints: [VMEntryPoint]?
    public let dataOld: VMSearchVariant?
    public let dataNew: VMSearchVariant?

    public var id: String { refId }

    enum CodingKeys: String, CodingKey {
        case refId = "ref_id"
        case distance, address, name, display, boundaries, categories
        case entryPoints = "entry_points"
        case dataOld = "data_old"
        case dataNew = "data_new"
    }
}

public struct VMBoundary: Codable, Sendable {
    public let type: Int?
    public let id: Int?
    public let name: String?
    public let prefix: String?
    public let fullName: String?
    enum CodingKeys: String, CodingKey { case type, id, name, prefix; case fullName = "full_name" }
}

public struct VMEntryPoint: Codable, Sendable {
    public let refId: String?
    public let name: String?
    enum CodingKeys: String, CodingKey { case refId = "ref_id"; case name }
}

public struct VMSearchVariant: Codable, Sendable {
    public let refId: String?
    public let distance: Double?
    public let address: String?
    public let name: String?
    public let display: String?
    public let boundaries: [VMBoundary]?
    public let categories: [String]?
    public let entryPoints: [VMEntryPoint]?
    enum CodingKeys: String, CodingKey {
        case refId = "ref_id", distance, address, name, display, boundaries, categories
        case entryPoints = "entry_points"
    }
}

// MARK: - Place Detail (v4)
public struct VMPlaceDetail: Codable, Sendable {
    public let display: String?
    public let name: String?
    public let hsNum: String?
    public let street: String?
    public let address: String?
    public let cityId: Int?
    public let city: String?
    public let districtId: Int?
    public let district: String?
    public let wardId: Int?
    public let ward: String?
    public let lat: Double?
    public let lng: Double?
    enum CodingKeys: String, CodingKey {
        case display, name, street, address, city, district, ward, lat, lng
        case hsNum = "hs_num"
        case cityId = "city_id"
        case districtId = "district_id"
        case wardId = "ward_id"
    }
}

// MARK: - Route (v4) response (minimal)
public struct VMRouteResponse: Codable, Sendable { public let paths: [VMRoutePath]? }
public struct VMRoutePath: Codable, Sendable { public let distance: Double; public let time: Double?; public let points: String }
