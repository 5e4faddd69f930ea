import Foundation

/// One encoded Mapbox Vector Tile (MVT 2.1, uncompressed protobuf) with a summary of what it holds.
public struct VectorTile: Sendable, Equatable {
    /// One layer's summary.
    public struct Layer: Sendable, Equatable {
        public let name: String
        public let featureCount: Int
    }

    /// The tile (`application/vnd.mapbox-vector-tile`); empty bytes — a valid tile with no layers — when
    /// there is nothing to draw.
    public let data: Data
    /// The layers written, in order, with their feature counts (no empty layer is written).
    public let layers: [Layer]
    /// Features that met the tile but were left out to keep it within its `TileBudget`.
    public let droppedFeatureCount: Int

    /// Whether the tile holds no feature.
    public var isEmpty: Bool { layers.isEmpty }
}

/// The most a tile may hold, as tippecanoe limits its tiles (500 KB, 200 000 features by default). Over it,
/// the least important features are left out: those with the highest `minZoom` first (they are the detail
/// the zoom could do without), and among equals the latest in index order.
public struct TileBudget: Sendable, Equatable {
    /// The largest tile, in bytes of uncompressed MVT.
    public var maxBytes: Int
    /// The most features a tile holds, all layers together.
    public var maxFeatures: Int

    public init(maxBytes: Int = 500_000, maxFeatures: Int = 200_000) {
        self.maxBytes = maxBytes; self.maxFeatures = maxFeatures
    }

    /// tippecanoe's defaults: 500 KB and 200 000 features.
    public static let tippecanoe = TileBudget()
}
