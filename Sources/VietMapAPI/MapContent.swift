import Dataset
import Foundation
import ArrayBlob
import MapTiles
import Routing
import Search
import StableHashing

/// The map the simulator draws, built once per dataset on first use: every feature of the dataset in VietMap's
/// source layers (`MapLayerExtraction`, `MapShapeFeatures`), their index and the vector tile cutter, and where
/// the data is. Building takes ~1 s for the whole-city dataset, so it waits for the first map request instead of
/// slowing every start; concurrent first requests wait for the one build.
final class MapContent: @unchecked Sendable {
    /// The indexed features and what the endpoints derive from them.
    struct Built: Sendable {
        let index: MapFeatureIndex
        let tiles: VectorTileBuilder
        /// The box holding every feature: tiles outside it are "outside the data" (404), inside it an empty tile is 204.
        let dataBounds: WorldBounds?
    }

    /// Where styles open and what TileJSON's `bounds` says (worked out on first use: it sorts the graph's nodes).
    var extent: MapExtent {
        lock.lock()
        defer { lock.unlock() }
        if let known = knownExtent { return known }
        let made = graph.flatMap { MapExtent(graph: $0) }
            ?? MapExtent(bounds: WorldBounds(enclosing: [WorldPoint(latitude: 21.03, longitude: 105.85)])!.expanded(by: 0.001))
        knownExtent = made
        return made
    }
    /// The dataset part of vector tile URLs (`MapURLs` writes it as `sim-<this>`: a hash of the road graph and shapes): a new dataset gets new
    /// tile URLs, so no client shows tiles of an older one from its cache.
    let datasetID: String

    private let graph: RoadGraph?
    private let search: PlaceSearch
    private let shapes: MapShapes?
    private let lock = NSLock()
    private var built: Built?  // guarded by lock
    private var knownExtent: MapExtent?  // guarded by lock

    init(graph: RoadGraph?, search: PlaceSearch, shapes: MapShapes?) {
        self.graph = graph
        self.search = search
        self.shapes = shapes
        var words: [UInt64] = [UInt64(graph?.nodeCount ?? 0), UInt64(graph?.edgeCount ?? 0), UInt64(shapes?.count ?? 0)]
        if let graph {
            let step = max(1, graph.nodeCount / 64)
            for node in stride(from: 0, to: graph.nodeCount, by: step) {
                words.append(UInt64(UInt32(bitPattern: graph.storage.nodeLatE7[node])) << 32 | UInt64(UInt32(bitPattern: graph.storage.nodeLonE7[node])))
            }
        }
        var hash = FNV1a64()
        words.withUnsafeBytes { hash.update($0) }
        datasetID = String(hash.value & 0xffff_ffff, radix: 16)
    }

    /// The features, index and cutter, built on the first call.
    var content: Built {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        var features = MapLayerExtraction.features(graph: graph, search: search)
        if let shapes { features = MapShapeFeatures.features(shapes) + features }
        let index = MapFeatureIndex(features: features)
        let made = Built(index: index, tiles: VectorTileBuilder(index: index, maxZoom: VietMapTileSchema.maxZoom),
                         dataBounds: MapExtent(features: features)?.bounds)
        built = made
        return made
    }

    /// The features `tile` (with a margin of `buffer`, a fraction of its side) shows.
    func features(in tile: TileID, buffer: Double) -> [MapFeature] {
        let built = content
        return built.index.featureIndices(in: tile, buffer: buffer).map { built.index.features[$0] }
    }
}
