

import Foundation
import CoreLocation

// MARK: - Autocomplete / Search Item (v4)
struct VMSearchItem: Codable, Identifiable {
    let refId: String
    let distance: Double?
    let address: String?
    let name: String?
    let display: String?
    let boundaries: [VMBoundary]?
    let categories: [String]?
    let entryPoints: [VMEntryPoint]?
    let dataOld: VMSearchVariant?
    let dataNew: VMSearchVariant?

    var id: String { refId }

    enum CodingKeys: String, CodingKey {
        case refId = "ref_id"
        case distance, address, name, display, boundaries, categories
        case entryPoints = "entry_points"
        case dataOld = "data_old"
        case dataNew = "data_new"
    }
}

struct VMBoundary: Codable {
    let type: Int?
    let id: Int?
    let name: String?
    let prefix: String?
    let fullName: String?
    enum CodingKeys: String, CodingKey { case type, id, name, prefix; case fullName = "full_name" }
}

struct VMEntryPoint: Codable { let refId: String?; let name: String?; enum CodingKeys: String, CodingKey { case refId = "ref_id"; case name } }

struct VMSearchVariant: Codable {
    let refId: String?
    let distance: Double?
    let address: String?
    let name: String?
    let display: String?
    let boundaries: [VMBoundary]?
    let categories: [String]?
    let entryPoints: [VMEntryPoint]?
    enum CodingKeys: String, CodingKey { case refId = "ref_id", distance, address, name, display, boundaries, categories; case entryPoints = "entry_points" }
}

// MARK: - Place Detail (v4)
struct VMPlaceDetail: Codable {
    let display: String?
    let name: String?
    let hsNum: String?
    let street: String?
    let address: String?
    let cityId: Int?
    let city: String?
    let districtId: Int?
    let district: String?
    let wardId: Int?
    let ward: String?
    let lat: Double?
    let lng: Double?
    enum CodingKeys: String, CodingKey {
        case display, name, street, address, city, district, ward, lat, lng
        case hsNum = "hs_num"
        case cityId = "city_id"
        case districtId = "district_id"
        case wardId = "ward_id"
    }
}

// MARK: - Route (v4) response (minimal)
struct VMRouteResponse: Codable { let paths: [VMRoutePath]? }
struct VMRoutePath: Codable { let distance: Double; let time: Double?; let points: String }

