import Foundation

/// One reverse-geocoding result (`/api/reverse/v4`, `/v3`): the autocomplete item's keys plus
/// `lat`/`lng` (the query point, as live) and a `distance` in degrees (reference §5.1).
/// Not part of the reference client; written in its style (optionals where live may omit).
public struct VMReverseItem: Codable, Sendable {
    public let lat: Double?
    public let lng: Double?
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

    enum CodingKeys: String, CodingKey {
        case lat, lng, distance, address, name, display, boundaries, categories
        case refId = "ref_id"
        case entryPoints = "entry_points"
        case dataOld = "data_old"
        case dataNew = "data_new"
    }
}
