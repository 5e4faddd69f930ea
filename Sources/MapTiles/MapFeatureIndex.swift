/// A spatial index over map features, built once, that answers “which features does this tile need”
/// touching only nearby ones.
///
/// Each feature goes into a hierarchical grid of Web Mercator tile cells: the deepest level (≤ `gridZoom`)
/// at which its bounding box spans at most 2 × 2 cells, in those (≤ 4) cells. A query visits, per level that
/// holds anything, only the columns and cells the query box covers (binary search over sorted cell keys), then
/// checks each candidate's exact bounding box and `minZoom`.
///
/// Memory, besides the features themselves (kept as given): per feature a bounding box (32 bytes), its id
/// (16), minimum zoom and layer ordinal (3), at most four 4-byte cell entries, 4 bytes plus 8 per property of
/// interned properties, and a flat copy of its geometry (16 bytes a point, 5 a part); per occupied cell a key
/// and an offset (12 bytes); each distinct key and value once — about 200 bytes for a four-point road edge
/// with three properties. Features with no points or a coordinate outside −1…2 (NaN, infinite, far off the
/// world square) are kept in `features` but never returned.
public final class MapFeatureIndex: Sendable {
    /// The features, in the order given; query results are positions in this array.
    public let features: [MapFeature]
    /// Layer names in order of first appearance in `features`: the order layers are written in a tile.
    public let layerNames: [String]
    /// The deepest grid level.
    public let gridZoom: Int

    let bounds: [WorldBounds]
    let minZooms: [UInt8]
    let layerOrdinals: [UInt16]
    let propertyTable: PropertyTable
    let ids: [UInt64?]
    /// Geometry stored in Z-order of the features' centres (nearby features, nearby memory); feature i is
    /// entry `geometrySlot[i]`.
    let geometry: FlatGeometry
    let geometrySlot: [UInt32]
    private let levels: [Level]

    /// One grid level: occupied cells sorted by key (x << 32 | y), each with its features' positions.
    private struct Level: Sendable {
        var keys: [UInt64] = []
        var starts: [UInt32] = [0]      // keys.count + 1 offsets into items
        var items: [UInt32] = []
    }

    /// Indexes `features`. `gridZoom` (0…`TileID.maxZoom`, default 16) is the finest cell size: a z14 tile
    /// query at 16 looks at about 6 × 6 cells.
    public init(features: [MapFeature], gridZoom: Int = 16) {
        let gridZoom = min(max(gridZoom, 0), TileID.maxZoom)
        self.features = features
        self.gridZoom = gridZoom
        var layerNames: [String] = []
        var layerOrdinal: [String: UInt16] = [:]
        var bounds: [WorldBounds] = []
        var minZooms: [UInt8] = []
        var ordinals: [UInt16] = []
        bounds.reserveCapacity(features.count)
        minZooms.reserveCapacity(features.count)
        ordinals.reserveCapacity(features.count)
        // (level, key, feature) entries, sorted afterwards.
        var entries: [[(UInt64, UInt32)]] = Array(repeating: [], count: gridZoom + 1)
        var flat = FlatGeometry()
        for (i, feature) in features.enumerated() {
            let ordinal: UInt16
            if let o = layerOrdinal[feature.layer] {
                ordinal = o
            } else {
                ordinal = UInt16(truncatingIfNeeded: layerNames.count)
                layerOrdinal[feature.layer] = ordinal
                layerNames.append(feature.layer)
            }
            ordinals.append(ordinal)
            minZooms.append(UInt8(min(max(feature.minZoom, 0), 255)))
            let box = MapFeatureIndex.boundingBox(feature.geometry)
            bounds.append(box ?? WorldBounds(minX: .nan, minY: .nan, maxX: .nan, maxY: .nan))
            guard let box else { continue }
            let clamped = WorldBounds(minX: min(max(box.minX, 0), 1), minY: min(max(box.minY, 0), 1),
                                      maxX: min(max(box.maxX, 0), 1), maxY: min(max(box.maxY, 0), 1))
            var level = gridZoom
            var range = MapFeatureIndex.cellRange(clamped, level: level)
            while level > 0, range.x1 - range.x0 > 1 || range.y1 - range.y0 > 1 {
                level -= 1
                range = MapFeatureIndex.cellRange(clamped, level: level)
            }
            for x in range.x0...range.x1 {
                for y in range.y0...range.y1 {
                    entries[level].append((UInt64(x) << 32 | UInt64(y), UInt32(truncatingIfNeeded: i)))
                }
            }
        }
        var levels: [Level] = []
        for var list in entries {
            list.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            var level = Level()
            level.items.reserveCapacity(list.count)
            for (key, item) in list {
                if level.keys.last != key {
                    if !level.keys.isEmpty { level.starts.append(UInt32(level.items.count)) }
                    level.keys.append(key)
                }
                level.items.append(item)
            }
            if !level.keys.isEmpty { level.starts.append(UInt32(level.items.count)) }
            levels.append(level)
        }
        self.layerNames = layerNames
        self.bounds = bounds
        self.minZooms = minZooms
        self.layerOrdinals = ordinals
        self.levels = levels
        self.propertyTable = PropertyTable(features)
        self.ids = features.map(\.id)
        // Z-order (Morton) of each centre on a 2^16 grid; bad features last.
        var order = Array(0..<features.count)
        let keys: [UInt64] = bounds.map { b in
            guard b.minX.isFinite else { return .max }
            let n = 65536.0
            let x = UInt32(min(max(((b.minX + b.maxX) / 2 * n).rounded(.down), 0), n - 1))
            let y = UInt32(min(max(((b.minY + b.maxY) / 2 * n).rounded(.down), 0), n - 1))
            return MapFeatureIndex.interleave(x) | MapFeatureIndex.interleave(y) << 1
        }
        order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        var slots = [UInt32](repeating: 0, count: features.count)
        for (slot, i) in order.enumerated() {
            slots[i] = UInt32(truncatingIfNeeded: slot)
            flat.append(features[i].geometry, usable: bounds[i].minX.isFinite)
        }
        self.geometry = flat
        self.geometrySlot = slots
    }

    /// Positions (ascending) of the features with `minZoom ≤ zoom` whose bounding box meets `box`.
    public func featureIndices(intersecting box: WorldBounds, zoom: Int) -> [Int] {
        guard box.minX <= box.maxX, box.minY <= box.maxY, box.maxX >= 0, box.maxY >= 0,
              box.minX <= 1, box.minY <= 1 else { return [] }
        let clamped = WorldBounds(minX: max(box.minX, 0), minY: max(box.minY, 0),
                                  maxX: min(box.maxX, 1), maxY: min(box.maxY, 1))
        var result: [Int] = []
        for (levelNumber, level) in levels.enumerated() where !level.keys.isEmpty {
            let range = MapFeatureIndex.cellRange(clamped, level: levelNumber)
            let firstX = max(range.x0, Int(level.keys[0] >> 32))
            let lastX = min(range.x1, Int(level.keys[level.keys.count - 1] >> 32))
            guard firstX <= lastX else { continue }
            for x in firstX...lastX {
                let low = UInt64(x) << 32 | UInt64(range.y0)
                let high = UInt64(x) << 32 | UInt64(range.y1)
                var k = MapFeatureIndex.lowerBound(level.keys, low)
                while k < level.keys.count, level.keys[k] <= high {
                    for j in Int(level.starts[k])..<Int(level.starts[k + 1]) {
                        let i = Int(level.items[j])
                        if Int(minZooms[i]) <= zoom, bounds[i].intersects(box) { result.append(i) }
                    }
                    k += 1
                }
            }
        }
        // Index order; a feature in several cells may have come back more than once.
        result.sort()
        var unique: [Int] = []
        unique.reserveCapacity(result.count)
        for i in result where unique.last != i { unique.append(i) }
        return unique
    }

    /// Positions (ascending) of the features tile `tile` needs: `minZoom ≤ tile.z` and a bounding box
    /// meeting the tile grown by `buffer` (a fraction of the tile side: 64/4096 for a 64-unit MVT buffer).
    public func featureIndices(in tile: TileID, buffer: Double) -> [Int] {
        let margin = max(buffer, 0) / Double(tile.tilesPerSide)
        return featureIndices(intersecting: tile.worldBounds.expanded(by: margin), zoom: tile.z)
    }

    // MARK: - helpers

    /// The geometry's bounding box; nil when it has no points or a coordinate outside −1…2 (world
    /// coordinates are 0…1: anything far outside, NaN or infinite is bad input and never drawn).
    private static func boundingBox(_ geometry: MapGeometry) -> WorldBounds? {
        var box = WorldBounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        var good = true
        func add(_ points: [WorldPoint]) {
            for p in points {
                guard p.x >= -1, p.x <= 2, p.y >= -1, p.y <= 2 else { good = false; return }
                box.minX = min(box.minX, p.x); box.maxX = max(box.maxX, p.x)
                box.minY = min(box.minY, p.y); box.maxY = max(box.maxY, p.y)
            }
        }
        switch geometry {
        case .points(let points): add(points)
        case .lines(let lines): lines.forEach(add)
        case .polygons(let polygons): polygons.forEach { $0.forEach(add) }
        }
        return good && box.minX <= box.maxX ? box : nil
    }

    private static func cellRange(_ box: WorldBounds, level: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let n = Double(1 << level), top = (1 << level) - 1
        func cell(_ v: Double) -> Int { min(max(Int((v * n).rounded(.down)), 0), top) }
        return (cell(box.minX), cell(box.minY), cell(box.maxX), cell(box.maxY))
    }

    /// The bits of `v` spread to the even positions.
    private static func interleave(_ v: UInt32) -> UInt64 {
        var x = UInt64(v)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x << 2) & 0x3333_3333_3333_3333
        x = (x | x << 1) & 0x5555_5555_5555_5555
        return x
    }

    private static func lowerBound(_ keys: [UInt64], _ value: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
