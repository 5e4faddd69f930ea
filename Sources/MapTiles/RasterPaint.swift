/// How `RasterTileRenderer` draws a tile: a background colour and rules drawn in order. A data description
/// only — the API layer owns the look (colours, widths, which layers) and passes it in; this module knows
/// no layer names of its own.
public struct RasterPaint: Sendable {
    public var background: RGBAColor
    public var rules: [RasterRule]

    public init(background: RGBAColor, rules: [RasterRule]) {
        self.background = background; self.rules = rules
    }
}

/// One step of a `RasterPaint`: which features (source layer, attribute filter, zoom range) and how to draw
/// them. Fills, lines and circles are drawn in rule order (every line casing of the tile first, under all
/// geometry); labels after all geometry, in rule order, earlier rules placing theirs first.
public struct RasterRule: Sendable {
    /// The `MapFeature.layer` this rule draws.
    public var sourceLayer: String
    public var filter: RasterFilter
    /// The rule draws at tile zooms `minZoom` ≤ z (and z < `maxZoom` when given).
    public var minZoom: Int
    public var maxZoom: Int?
    public var drawing: RasterDrawing

    public init(sourceLayer: String, filter: RasterFilter = .all, minZoom: Int = 0, maxZoom: Int? = nil, drawing: RasterDrawing) {
        self.sourceLayer = sourceLayer; self.filter = filter; self.minZoom = minZoom; self.maxZoom = maxZoom; self.drawing = drawing
    }

    /// Whether the rule draws at zoom `z`.
    public func isVisible(atZoom z: Int) -> Bool {
        z >= minZoom && (maxZoom.map { z < $0 } ?? true)
    }
}

/// Which features of its layer a rule draws, by one attribute. Values compare with their types, as
/// MapLibre's filters do (`.int(1)` never matches `.string("1")`).
public enum RasterFilter: Sendable, Hashable {
    /// Every feature of the layer.
    case all
    /// Features whose attribute `key` equals one of `values`.
    case oneOf(key: String, values: Set<MapValue>)
    /// Features whose attribute `key` is missing or equals none of `values`.
    case noneOf(key: String, values: Set<MapValue>)

    public func matches(_ feature: MapFeature) -> Bool {
        switch self {
        case .all: return true
        case .oneOf(let key, let values): return feature[key].map { values.contains($0) } ?? false
        case .noneOf(let key, let values): return !(feature[key].map { values.contains($0) } ?? false)
        }
    }
}

/// What a rule draws. Sizes are in pixels of a 256-px tile; `RasterTileRenderer` multiplies them by its scale.
/// Each drawing applies to the geometry it fits: fills to polygons, lines to lines, circles to points, labels
/// to points (at each point), lines (horizontal, at the middle of the longest line, when it is long enough)
/// and polygons (at the middle of the first ring's box).
public enum RasterDrawing: Sendable {
    case fill(RasterFill)
    case line(RasterLine)
    case circle(RasterCircle)
    case label(RasterLabel)
}

/// A polygon fill with an optional outline.
public struct RasterFill: Sendable, Hashable {
    public var color: RGBAColor
    public var outline: RGBAColor?
    public var outlineWidth: Double

    public init(color: RGBAColor, outline: RGBAColor? = nil, outlineWidth: Double = 1) {
        self.color = color; self.outline = outline; self.outlineWidth = outlineWidth
    }
}

/// A stroked line (round joins and caps) with an optional casing drawn under every line of the tile.
public struct RasterLine: Sendable, Hashable {
    public var color: RGBAColor
    public var width: ZoomFunction
    public var casing: RasterCasing?
    /// Dash and gap lengths in line widths (MapLibre's `line-dasharray`); nil or empty draws solid.
    public var dash: [Double]?

    public init(color: RGBAColor, width: ZoomFunction, casing: RasterCasing? = nil, dash: [Double]? = nil) {
        self.color = color; self.width = width; self.casing = casing; self.dash = dash
    }
}

/// The casing of a line: a wider line of another colour under it. `width` is the casing's whole width
/// (wider than the line's for a visible border).
public struct RasterCasing: Sendable, Hashable {
    public var color: RGBAColor
    public var width: ZoomFunction

    public init(color: RGBAColor, width: ZoomFunction) { self.color = color; self.width = width }
}

/// A circle at each point.
public struct RasterCircle: Sendable, Hashable {
    public var radius: ZoomFunction
    public var fill: RGBAColor
    public var stroke: RGBAColor?
    public var strokeWidth: Double

    public init(radius: ZoomFunction, fill: RGBAColor, stroke: RGBAColor? = nil, strokeWidth: Double = 1) {
        self.radius = radius; self.fill = fill; self.stroke = stroke; self.strokeWidth = strokeWidth
    }
}

/// A text label read from an attribute (strings as they are, numbers written out; features without the
/// attribute get none), in a sans-serif face, with an optional halo. Labels that would overlap a placed one,
/// or that would not fit inside the tile, are skipped; so is a line's label repeating the same text within half
/// a tile of where it was placed (a street is many edges).
public struct RasterLabel: Sendable, Hashable {
    /// The attribute holding the text.
    public var textKey: String
    public var size: Double
    public var color: RGBAColor
    public var halo: RGBAColor?
    public var haloWidth: Double
    public var bold: Bool
    /// Moves the label down (positive) or up (negative) from its anchor, in pixels: e.g. above a circle.
    public var offsetY: Double

    public init(textKey: String, size: Double, color: RGBAColor, halo: RGBAColor? = nil, haloWidth: Double = 1.5,
                bold: Bool = false, offsetY: Double = 0) {
        self.textKey = textKey; self.size = size; self.color = color; self.halo = halo; self.haloWidth = haloWidth
        self.bold = bold; self.offsetY = offsetY
    }
}
