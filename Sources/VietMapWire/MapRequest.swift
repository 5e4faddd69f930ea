/// What a map URL asks for, read from its path by `MapPath` — one case per map endpoint, with
/// the values every URL generation of reference map-screens §2 carries. Numbers are checked
/// (tiles exist at their zoom, glyph ranges are 256-code-point blocks); names are kept as sent
/// where any value is valid (a dataset id, a font stack).
public enum MapRequest: Sendable, Equatable {
    case style(Style)
    case tileJSON(TileJSON)
    case vectorTile(VectorTile)
    case rasterTile(RasterTile)
    case glyphs(Glyphs)
    case sprite(Sprite)

    /// Which URL generation a style or TileJSON was asked for by.
    public enum Generation: String, Sendable, Hashable {
        /// S1 `/api/maps/{name}/styles.json`.
        case apiMaps = "api-maps"
        /// S2 `/maps/styles/{look}/style.json`, S3 `…/tiles.json` (SDK ≥ 6.0).
        case mapsStyles = "maps-styles"
        /// S4 `/mt/{look}/style.json` (SDK ≤ 5.x).
        case mt
    }

    /// A style document.
    public struct Style: Sendable, Equatable {
        public var flavour: MapStyleFlavour
        public var look: MapLook
        public var generation: Generation
        /// The S1 name as sent (nil for the generations that name a look).
        public var name: MapStyleName?

        public init(flavour: MapStyleFlavour, look: MapLook, generation: Generation, name: MapStyleName? = nil) {
            self.flavour = flavour
            self.look = look
            self.generation = generation
            self.name = name
        }
    }

    /// A TileJSON: of a look's raster tiles (S3, used by apps as a raster *style*) or of terrain (X1).
    public enum TileJSON: Sendable, Equatable {
        case look(MapLook)
        /// `/api/terrain-tiles/tiles.json` (raster-dem): the simulator has no elevation; may be a 404.
        case terrain
    }

    /// One tile of a tile pyramid (z/x/y, y down; `x, y < 2^z`).
    public struct Tile: Sendable, Equatable, Hashable {
        public var z: Int
        public var x: Int
        public var y: Int

        public init(z: Int, x: Int, y: Int) {
            self.z = z
            self.x = x
            self.y = y
        }
    }

    /// A vector tile of a dataset (any id: clients read it from the style).
    public struct VectorTile: Sendable, Equatable {
        public var dataset: String
        public var tile: Tile

        public init(dataset: String, tile: Tile) {
            self.dataset = dataset
            self.tile = tile
        }
    }

    /// A raster tile: 256 px at scale 1, 512 px at scale 2 (`@2x`).
    public struct RasterTile: Sendable, Equatable {
        /// What the tile draws.
        public enum Layer: Sendable, Equatable {
            case look(MapLook)
            /// `/maps/tiles/st/…`: no imagery in the simulator; the stand-in is the default look.
            case satellite
            /// `/api/tf/…`: a traffic overlay (transparent where there is no traffic).
            case traffic
        }

        public var layer: Layer
        public var tile: Tile
        /// 1 or 2.
        public var scale: Int

        public init(layer: Layer, tile: Tile, scale: Int) {
            self.layer = layer
            self.tile = tile
            self.scale = scale
        }
    }

    /// A glyph range of a font stack.
    public struct Glyphs: Sendable, Equatable {
        /// The font-stack segment as the path holds it: `Roboto%20Regular%2cRoboto%20Medium` in a
        /// raw path, `Roboto Regular,Roboto Medium` in `HTTPRequest.path` (already decoded).
        public var fontStack: String
        /// The range segment without `.pbf`, as sent (`0-255`).
        public var range: String
        /// The range's first code point (a multiple of 256); it ends 255 later.
        public var firstCodePoint: Int

        public init(fontStack: String, range: String, firstCodePoint: Int) {
            self.fontStack = fontStack
            self.range = range
            self.firstCodePoint = firstCodePoint
        }
    }

    /// A sprite file.
    public struct Sprite: Sendable, Equatable {
        /// Which of the two sprite files.
        public enum Format: String, Sendable, Hashable {
            /// The index (`sprite.json`): icon name → atlas rectangle.
            case json
            /// The atlas (`sprite.png`).
            case png
        }

        /// The look in the path; nil when the path names none (`/mt/styles/sprite.json`).
        public var look: MapLook?
        /// 1, or 2 for `@2x`.
        public var scale: Int
        public var format: Format

        public init(look: MapLook?, scale: Int, format: Format) {
            self.look = look
            self.scale = scale
            self.format = format
        }
    }

    /// The endpoint of this request.
    public var endpoint: APIEndpoint {
        switch self {
        case .style: return .mapStyle
        case .tileJSON: return .mapTileJSON
        case .vectorTile: return .vectorTile
        case .rasterTile: return .rasterTile
        case .glyphs: return .glyphs
        case .sprite: return .sprite
        }
    }

    /// The values the path carries, by name — what scenario rules (`"params": {"z": "14"}`) and
    /// captured exchanges see beside the query, as `DirectionsPath`'s profile and coordinates.
    public var pathParameters: [(name: String, value: String)] {
        func tile(_ tile: Tile) -> [(name: String, value: String)] {
            [("z", String(tile.z)), ("x", String(tile.x)), ("y", String(tile.y))]
        }
        switch self {
        case .style(let style):
            return [("style", style.name?.rawValue ?? style.look.rawValue), ("look", style.look.rawValue),
                    ("flavour", style.flavour.rawValue)]
        case .tileJSON(let tileJSON):
            switch tileJSON {
            case .look(let look): return [("look", look.rawValue)]
            case .terrain: return [("look", "terrain")]
            }
        case .vectorTile(let vector):
            return [("dataset", vector.dataset)] + tile(vector.tile)
        case .rasterTile(let raster):
            let layer: String
            switch raster.layer {
            case .look(let look): layer = look.rawValue
            case .satellite: layer = "st"
            case .traffic: layer = "tf"
            }
            return [("look", layer)] + tile(raster.tile) + [("scale", String(raster.scale))]
        case .glyphs(let glyphs):
            return [("fontstack", glyphs.fontStack), ("range", glyphs.range)]
        case .sprite(let sprite):
            return (sprite.look.map { [("look", $0.rawValue)] } ?? []) + [("scale", String(sprite.scale)), ("format", sprite.format.rawValue)]
        }
    }
}
