import Foundation

/// Cuts the features of a `MapFeatureIndex` into Mapbox Vector Tiles (MVT 2.1).
///
/// Per tile: the features with `minZoom ≤ z` that meet the tile plus `buffer` units; each is projected to
/// tile units, clipped to the buffered tile, simplified with Douglas–Peucker (tolerance 1/4096 of the tile at
/// zooms below `maxZoom`, none at `maxZoom` and deeper — an overzoomed request is still cut from the full
/// geometry), quantized, and written with its properties. Layers come in the order of `index.layerNames`,
/// features in index order within a layer, so the same index gives the same bytes every run. A tile over
/// `budget` leaves out its least important features (see `TileBudget`).
public struct VectorTileBuilder: Sendable {
    public let index: MapFeatureIndex
    /// Tile units per side (MVT `extent`).
    public let extent: Int
    /// Units of tile kept around the tile on each side, so lines and fills meet across tile edges.
    public let buffer: Int
    /// The deepest zoom whose tiles are simplified less; deeper requests (up to `TileID.maxZoom`) work too.
    public let maxZoom: Int
    public let budget: TileBudget

    /// `extent` is clamped to 256…65 536 and `buffer` to 0…`extent`.
    public init(index: MapFeatureIndex, extent: Int = 4096, buffer: Int = 64, maxZoom: Int,
                budget: TileBudget = .tippecanoe) {
        self.index = index
        self.extent = min(max(extent, 256), 65_536)
        self.buffer = min(max(buffer, 0), self.extent)
        self.maxZoom = maxZoom
        self.budget = budget
    }

    /// The tile `id`.
    public func tile(_ id: TileID) -> VectorTile {
        let tolerance = id.z < maxZoom ? Double(extent) / 4096 : 0
        let encoder = TileGeometryEncoder(tile: id, extent: extent, buffer: buffer, tolerance: tolerance)
        var encoded: [EncodedFeature] = []
        for i in index.featureIndices(in: id, buffer: Double(buffer) / Double(extent)) {
            guard let (type, commands) = encoder.encode(index.features[i].geometry) else { continue }
            encoded.append(EncodedFeature(index: i, layer: index.layerOrdinals[i], type: type, commands: commands))
        }
        // Layer, then index order (indices arrive ascending).
        encoded.sort { $0.layer != $1.layer ? $0.layer < $1.layer : $0.index < $1.index }

        var dropped = 0
        if encoded.count > max(budget.maxFeatures, 0) {
            let keep = Set(leastImportantLast(encoded).prefix(max(budget.maxFeatures, 0)))
            dropped += encoded.count - keep.count
            encoded = encoded.filter { keep.contains($0.index) }
        }
        var result = write(encoded)
        if result.bytes.count > budget.maxBytes {
            // Drop from the least important until the features' own bytes bring the total under the budget;
            // key/value tables only shrink, so the rewritten tile is within it.
            var excess = result.bytes.count - budget.maxBytes
            var drop = Set<Int>()
            for i in leastImportantLast(encoded).reversed() where excess > 0 {
                drop.insert(i)
                excess -= result.featureSizes[i] ?? 0
            }
            dropped += drop.count
            encoded = encoded.filter { !drop.contains($0.index) }
            result = write(encoded)
        }
        return VectorTile(data: Data(result.bytes), layers: result.layers, droppedFeatureCount: dropped)
    }

    // MARK: - steps

    private struct EncodedFeature {
        let index: Int
        let layer: UInt16
        let type: TileGeometryEncoder.GeomType
        let commands: [UInt32]
    }

    /// Feature positions, most important first: lowest `minZoom`, then index order.
    private func leastImportantLast(_ features: [EncodedFeature]) -> [Int] {
        features.map(\.index).sorted {
            let a = index.minZooms[$0], b = index.minZooms[$1]
            return a != b ? a < b : $0 < $1
        }
    }

    private func write(_ features: [EncodedFeature]) -> (bytes: [UInt8], layers: [VectorTile.Layer], featureSizes: [Int: Int]) {
        var tile = ProtobufWriter()
        var layers: [VectorTile.Layer] = []
        var sizes: [Int: Int] = [:]
        var start = 0
        while start < features.count {
            let ordinal = features[start].layer
            var end = start
            var layer = MVTLayerWriter(name: index.layerNames[Int(ordinal)], extent: extent)
            while end < features.count, features[end].layer == ordinal {
                let f = features[end]
                let feature = index.features[f.index]
                sizes[f.index] = layer.add(id: feature.id, properties: feature.properties, type: f.type,
                                           geometry: f.commands)
                end += 1
            }
            tile.message(3, layer.encoded())
            layers.append(VectorTile.Layer(name: layer.name, featureCount: layer.featureCount))
            start = end
        }
        return (tile.bytes, layers, sizes)
    }
}
