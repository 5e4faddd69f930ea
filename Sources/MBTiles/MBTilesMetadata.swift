import JSON

/// The `metadata` rows of an MBTiles file, typed: what the spec requires (`name`, `format`, and `json`
/// with `vector_layers` for `pbf`) and what it recommends (`bounds`, `center`, `minzoom`, `maxzoom`,
/// `attribution`). `entries` gives the rows as the file stores them.
public struct MBTilesMetadata: Sendable, Equatable {
    /// `format`: what `tile_data` holds. `pbf` is gzip-compressed Mapbox Vector Tiles.
    public enum Format: String, Sendable, CaseIterable {
        case pbf, png, jpg, webp
    }

    /// A WGS84 box in degrees (`bounds` = "west,south,east,north").
    public struct Bounds: Sendable, Equatable {
        public var west, south, east, north: Double
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west; self.south = south; self.east = east; self.north = north
        }
    }

    /// Where a viewer opens (`center` = "longitude,latitude,zoom").
    public struct Center: Sendable, Equatable {
        public var longitude, latitude: Double
        public var zoom: Int
        public init(longitude: Double, latitude: Double, zoom: Int) {
            self.longitude = longitude; self.latitude = latitude; self.zoom = zoom
        }
    }

    /// One entry of `json`'s `vector_layers`: a source-layer, its attribute names and types
    /// (`String`, `Number`, `Boolean`) and the zooms it appears at.
    public struct VectorLayer: Sendable, Equatable {
        public var id: String
        public var fields: [String: String]
        public var minZoom: Int
        public var maxZoom: Int
        public init(id: String, fields: [String: String] = [:], minZoom: Int, maxZoom: Int) {
            self.id = id; self.fields = fields; self.minZoom = minZoom; self.maxZoom = maxZoom
        }
    }

    public var name: String
    public var format: Format
    public var bounds: Bounds?
    public var center: Center?
    public var minZoom: Int?
    public var maxZoom: Int?
    public var attribution: String?
    public var description: String?
    /// Required for `pbf`; written as `json` = `{"vector_layers": [...]}`.
    public var vectorLayers: [VectorLayer]

    public init(name: String, format: Format, bounds: Bounds? = nil, center: Center? = nil,
                minZoom: Int? = nil, maxZoom: Int? = nil, attribution: String? = nil,
                description: String? = nil, vectorLayers: [VectorLayer] = []) {
        self.name = name; self.format = format; self.bounds = bounds; self.center = center
        self.minZoom = minZoom; self.maxZoom = maxZoom; self.attribution = attribution
        self.description = description; self.vectorLayers = vectorLayers
    }

    /// The rows as stored: (name, value), in a fixed order.
    public var entries: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [("name", name), ("format", format.rawValue)]
        if let b = bounds { out.append(("bounds", "\(b.west),\(b.south),\(b.east),\(b.north)")) }
        if let c = center { out.append(("center", "\(c.longitude),\(c.latitude),\(c.zoom)")) }
        if let minZoom { out.append(("minzoom", String(minZoom))) }
        if let maxZoom { out.append(("maxzoom", String(maxZoom))) }
        if let attribution { out.append(("attribution", attribution)) }
        if let description { out.append(("description", description)) }
        if !vectorLayers.isEmpty || format == .pbf { out.append(("json", json)) }
        return out
    }

    /// `{"vector_layers":[{"id":…,"fields":{…},"minzoom":…,"maxzoom":…}]}`, fields sorted by name.
    public var json: String {
        let layers = vectorLayers.map { layer -> JSONValue in
            let fields = layer.fields.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            return .object(JSONObject([("id", .string(layer.id)), ("fields", .object(JSONObject(fields))),
                                       ("minzoom", .integer(layer.minZoom)), ("maxzoom", .integer(layer.maxZoom))]))
        }
        return JSONSerializer.string(.object(JSONObject([("vector_layers", .array(layers))])))
    }
}
