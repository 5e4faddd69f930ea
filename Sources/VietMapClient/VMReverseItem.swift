import Foundation

/// One reverse-geocoding result (`/api/reverse/v4`, `/v3`): the autocomplete item's keys plus
/// `lat`/`lng` (the query point, as live) and a `distance` in degrees (reference §5.1).
/// Not part of the reference client; written in its style (optionals where live may omit).
///
/// The autocomplete keys are read and written by `VMSearchItem` itself (one object: `lat`, `lng`
/// first, then `VMSearchItem`'s keys in its order), so the two cannot drift apart.
public struct VMReverseItem: Codable, Sendable {
    public let lat: Double?
    public let lng: Double?
    /// The result's autocomplete keys.
    private let item: VMSearchItem

    public var refId: String { item.refId }
    public var distance: Double? { item.distance }
    public var address: String? { item.address }
    public var name: String? { item.name }
    public var display: String? { item.display }
    public var boundaries: [VMBoundary]? { item.boundaries }
    public var categories: [String]? { item.categories }
    public var entryPoints: [VMEntryPoint]? { item.entryPoints }
    public var dataOld: VMSearchVariant? { item.dataOld }
    public var dataNew: VMSearchVariant? { item.dataNew }

    enum CodingKeys: String, CodingKey { case lat, lng }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lat = try container.decodeIfPresent(Double.self, forKey: .lat)
        lng = try container.decodeIfPresent(Double.self, forKey: .lng)
        item = try VMSearchItem(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(lat, forKey: .lat)
        try container.encodeIfPresent(lng, forKey: .lng)
        try item.encode(to: encoder)
    }
}
