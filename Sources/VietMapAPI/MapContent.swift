import Dataset
import Foundation
import ArrayBlob
import MapTiles
import Routing
import Search

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
        var hash = FNV1a()
        if let graph {
            hash.add(UInt64(graph.nodeCount)); hash.add(UInt64(graph.edgeCount))
            let step = max(1, graph.nodeCount / 64)
            for node in stride(from: 0, to: graph.nodeCount, by: step) {
                hash.add(UInt64(UInt32(bitPattern: graph.storage.nodeLatE7[node])) << 32 | UInt64(UInt32(bitPattern: graph.storage.nodeLonE7[node])))
            }
        }
        hash.add(UInt64(shapes?.count ?? 0))
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

/// FNV-1a, 64 bits: content hashes for dataset ids and ETags (not a security measure).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { add(byte: UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    mutating func add<C: Collection>(bytes: C) where C.Element == UInt8 {
        for byte in bytes { add(byte: byte) }
    }

    /// `"<16 hex digits>"`, quoted as an entity tag.
    var entityTag: String {
        let hex = String(value, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
