/// One feature of a map layer, in world coordinates, before any tile is cut: a road edge, a place, a label
/// point, a building. The API layer builds these from the dataset (VietMap's source-layer schema is its
/// knowledge, not this module's); `VectorTileBuilder` cuts them into MVT and `RasterTileRenderer` draws them.
public struct MapFeature: Sendable {
    /// Stable id within its layer (written as the MVT feature id); nil writes none.
    public var id: UInt64?
    /// The source-layer name (`vietmap_network`, `vietmap_point`, …).
    public var layer: String
    /// The first zoom whose tiles carry this feature.
    public var minZoom: Int
    public var geometry: MapGeometry
    /// Attributes in the order they are written; keys unique.
    public var properties: [MapProperty]

    public init(id: UInt64? = nil, layer: String, minZoom: Int, geometry: MapGeometry, properties: [MapProperty]) {
        self.id = id; self.layer = layer; self.minZoom = minZoom; self.geometry = geometry; self.properties = properties
    }

    /// The value of attribute `key`, if the feature has it.
    public subscript(key: String) -> MapValue? { properties.first { $0.key == key }?.value }
}

/// A feature's shape: points, lines or polygons (each polygon: its exterior ring first, then its holes;
/// rings closed implicitly — the first point is not repeated).
public enum MapGeometry: Sendable {
    case points([WorldPoint])
    case lines([[WorldPoint]])
    case polygons([[[WorldPoint]]])
}

/// One attribute of a feature.
public struct MapProperty: Sendable, Hashable {
    public var key: String
    public var value: MapValue
    public init(_ key: String, _ value: MapValue) { self.key = key; self.value = value }
}

/// An attribute value, typed as MVT writes it: MapLibre's legacy filters compare with types
/// (`["==", "roadclass", 1]` never matches the string `"1"`).
public enum MapValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}
