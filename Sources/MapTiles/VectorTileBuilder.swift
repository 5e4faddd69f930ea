import Foundation
import Protobuf

/// Cuts the features of a `MapFeatureIndex` into Mapbox Vector Tiles (MVT 2.1).
///
/// Per tile: the features with `minZoom ≤ z` (at `maxZoom` and deeper: every feature, since clients overzoom the
/// source's deepest tiles) that meet the tile plus `buffer` units; each is projected to
/// tile units, clipped to the buffered tile, simplified with Douglas–Peucker (tolerance 1/4096 of the tile at
/// zooms below `maxZoom`, none at `maxZoom` and deeper — an overzoomed request is still cut from the full
/// geometry), quantized, and written with its properties. Layers come in the order of `index.layerNames`,
/// features in index order within a layer, so the same index gives the same bytes every run. A tile over
/// `budget` leaves out its least important features (see `TileBudget`). `tile(_:)` reads the index only, so
/// any number of threads may call it at once.
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
        var encoder = TileGeometryEncoder(tile: id, extent: extent, buffer: buffer, tolerance: tolerance)
        var commands: [UInt32] = []
        let ordinals = index.layerOrdinals
        // One bucket per layer; indices arrive ascending, so each bucket is in index order.
        var byLayer = [[EncodedFeature]](repeating: [], count: index.layerNames.count)
        var count = 0
        let flat = index.geometry, slots = index.geometrySlot
        // The source's deepest zoom carries every deeper feature too: clients overzoom its tiles past `maxZoom`
        // and never ask for z16, so a feature first shown at z16 or z18 must already be in the z15 tile.
        let margin = Double(buffer) / Double(extent) / Double(id.tilesPerSide)
        let selectionZoom = id.z >= maxZoom ? TileID.maxZoom : id.z
        for i in index.featureIndices(intersecting: id.worldBounds.expanded(by: margin), zoom: selectionZoom) {
            let start = commands.count
            guard let type = encoder.encode(Int(slots[i]), of: flat, into: &commands) else { continue }
            byLayer[Int(ordinals[i])].append(EncodedFeature(index: i, type: type, commands: start..<commands.count))
            count += 1
        }

        var dropped = 0
        if count > max(budget.maxFeatures, 0) {
            let keep = Set(mostImportantFirst(byLayer).prefix(max(budget.maxFeatures, 0)))
            dropped += count - keep.count
            byLayer = byLayer.map { $0.filter { keep.contains($0.index) } }
        }
        var result = write(byLayer, commands)
        if result.bytes.count > budget.maxBytes {
            // Drop from the least important until the features' own bytes bring the total under the budget;
            // key/value tables only shrink, so the rewritten tile is within it.
            var excess = result.bytes.count - budget.maxBytes
            let sizes = write(byLayer, commands, measuring: true).featureSizes
            var drop = Set<Int>()
            for i in mostImportantFirst(byLayer).reversed() where excess > 0 {
                drop.insert(i)
                excess -= sizes[i] ?? 0
            }
            dropped += drop.count
            byLayer = byLayer.map { $0.filter { !drop.contains($0.index) } }
            result = write(byLayer, commands)
        }
        return VectorTile(data: Data(result.bytes), layers: result.layers, droppedFeatureCount: dropped)
    }

    // MARK: - steps

    private struct EncodedFeature {
        let index: Int
        let type: TileGeometryEncoder.GeomType
        /// Its words in the tile's command buffer.
        let commands: Range<Int>
    }

    /// Feature positions, most important first: lowest `minZoom`, then index order.
    private func mostImportantFirst(_ byLayer: [[EncodedFeature]]) -> [Int] {
        let minZooms = index.minZooms
        return byLayer.joined().map(\.index).sorted {
            let a = minZooms[$0], b = minZooms[$1]
            return a != b ? a < b : $0 < $1
        }
    }

    /// The tile's bytes and layers; with `measuring`, each feature's own bytes too.
    private func write(_ byLayer: [[EncodedFeature]], _ commands: [UInt32], measuring: Bool = false) -> (bytes: [UInt8], layers: [VectorTile.Layer], featureSizes: [Int: Int]) {
        var tile = ProtobufWriter()
        var layers: [VectorTile.Layer] = []
        var sizes: [Int: Int] = [:]
        let ids = index.ids
        var scratch = LayerTableScratch(index.propertyTable)
        tile.reserve(commands.count * 2 + 1024)
        for (ordinal, encoded) in byLayer.enumerated() where !encoded.isEmpty {
            var layer = MVTLayerWriter(name: index.layerNames[ordinal], extent: extent, table: index.propertyTable, scratch: &scratch)
            for f in encoded {
                let size = layer.add(feature: f.index, id: ids[f.index], type: f.type, geometry: commands[f.commands],
                                     scratch: &scratch)
                if measuring { sizes[f.index] = size }
            }
            layer.write(asField: 3, into: &tile)
            layers.append(VectorTile.Layer(name: layer.name, featureCount: layer.featureCount))
        }
        return (tile.bytes, layers, sizes)
    }
}
