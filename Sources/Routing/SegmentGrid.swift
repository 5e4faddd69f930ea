import ArrayBlob
import Platform

/// Uniform grid over edge segments' bounding boxes, the spatial index `snap` searches: flat arrays (CSR:
/// `cellStart`, `cellItems` = global segment ids), built at import (`build(_:)`) and read in place with the rest of
/// the road graph's blob.
struct SegmentGrid: Sendable, Equatable {
    let minLat: Double, minLon: Double, cellDeg: Double
    let nx: Int, ny: Int
    /// Cell c (`y * nx + x`) holds the segments `cellItems[cellStart[c] ..< cellStart[c + 1]]`.
    let cellStart: StoredArray<Int32>
    let cellItems: StoredArray<Int32>
    /// Global segment id → edge; an edge's segments are `segFirst(e) ..< segFirst(e) + pillars + 1`.
    let segEdge: StoredArray<Int32>
    /// Smallest cell side in metres (at the graph's largest |latitude|).
    let cellMeters: Double

    init(minLat: Double, minLon: Double, cellDeg: Double, nx: Int, ny: Int, cellStart: StoredArray<Int32>,
         cellItems: StoredArray<Int32>, segEdge: StoredArray<Int32>, cellMeters: Double) {
        self.minLat = minLat; self.minLon = minLon; self.cellDeg = cellDeg
        self.nx = nx; self.ny = ny
        self.cellStart = cellStart; self.cellItems = cellItems; self.segEdge = segEdge
        self.cellMeters = cellMeters
    }

    /// Whether the arrays agree with each other and with `storage`, in O(1): cell and segment counts.
    func hasConsistentCounts(_ storage: RoadGraph.Storage) -> Bool {
        let (cells, overflow) = nx.multipliedReportingOverflow(by: ny)
        return nx >= 1 && ny >= 1 && !overflow && cellStart.count == cells + 1
            && segEdge.count == storage.pillarLatE7.count + storage.edgeCount && cellDeg > 0 && cellDeg.isFinite
    }

    /// The full check: every cell range ordered and inside `cellItems`, every item a segment, every segment's edge
    /// in range.
    func isValid(_ storage: RoadGraph.Storage) -> Bool {
        guard hasConsistentCounts(storage), cellStart[0] == 0, Int(cellStart[nx * ny]) == cellItems.count else { return false }
        let segments = segEdge.count, edges = storage.edgeCount
        for c in 0..<(nx * ny) where cellStart[c] > cellStart[c + 1] { return false }
        for item in cellItems where item < 0 || Int(item) >= segments { return false }
        for edge in segEdge where edge < 0 || Int(edge) >= edges { return false }
        return true
    }

    /// The grid of `s`'s segments.
    static func build(_ s: RoadGraph.Storage) -> SegmentGrid {
        let e = s.edgeCount
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        for i in 0..<s.nodeCount {
            let la = Double(s.nodeLatE7[i]) / 1e7, lo = Double(s.nodeLonE7[i]) / 1e7
            minLat = min(minLat, la); maxLat = max(maxLat, la); minLon = min(minLon, lo); maxLon = max(maxLon, lo)
        }
        for i in 0..<s.pillarLatE7.count {
            let la = Double(s.pillarLatE7[i]) / 1e7, lo = Double(s.pillarLonE7[i]) / 1e7
            minLat = min(minLat, la); maxLat = max(maxLat, la); minLon = min(minLon, lo); maxLon = max(maxLon, lo)
        }
        if !minLat.isFinite { minLat = 0; maxLat = 0; minLon = 0; maxLon = 0 }
        let segCount = s.pillarLatE7.count + e
        let area = max(1e-8, (maxLat - minLat) * (maxLon - minLon))
        // About 4 segments per cell, never finer than 0.001° (~110 m), at most ~4M cells.
        var cell = max(0.001, (area / Double(max(1, segCount / 4))).squareRoot())
        cell = max(cell, (area / 4_000_000).squareRoot())
        let nx = max(1, Int((maxLon - minLon) / cell) + 1), ny = max(1, Int((maxLat - minLat) / cell) + 1)
        let maxAbsLat = min(89, max(abs(minLat), abs(maxLat)))
        let cellMeters = cell * Geo.earthRadius * Double.pi / 180 * cos(maxAbsLat * Double.pi / 180)

        var segEdge = [Int32](repeating: 0, count: segCount)
        var counts = [Int32](repeating: 0, count: nx * ny + 1)
        // Two passes: count, then fill.
        var boxes: [(Int32, Int32, Int32, Int32)] = []
        boxes.reserveCapacity(segCount)
        do {
            var g = 0
            for ei in 0..<e {
                let gs = Int(s.edgeGeometryStart[ei]), ge = Int(s.edgeGeometryStart[ei + 1])
                var pLat = s.nodeLatE7[Int(s.edgeBaseNode[ei])], pLon = s.nodeLonE7[Int(s.edgeBaseNode[ei])]
                for k in 0...(ge - gs) {
                    let qLat: Int32, qLon: Int32
                    if k < ge - gs { qLat = s.pillarLatE7[gs + k]; qLon = s.pillarLonE7[gs + k] } else {
                        qLat = s.nodeLatE7[Int(s.edgeAdjNode[ei])]; qLon = s.nodeLonE7[Int(s.edgeAdjNode[ei])]
                    }
                    let x0 = min(nx - 1, Int((Double(min(pLon, qLon)) / 1e7 - minLon) / cell))
                    let x1 = min(nx - 1, Int((Double(max(pLon, qLon)) / 1e7 - minLon) / cell))
                    let y0 = min(ny - 1, Int((Double(min(pLat, qLat)) / 1e7 - minLat) / cell))
                    let y1 = min(ny - 1, Int((Double(max(pLat, qLat)) / 1e7 - minLat) / cell))
                    boxes.append((Int32(x0), Int32(x1), Int32(y0), Int32(y1)))
                    segEdge[g] = Int32(ei)
                    for y in y0...y1 { for x in x0...x1 { counts[y * nx + x + 1] += 1 } }
                    pLat = qLat; pLon = qLon
                    g += 1
                }
            }
        }
        for i in 0..<(nx * ny) { counts[i + 1] += counts[i] }
        var items = [Int32](repeating: 0, count: Int(counts[nx * ny]))
        var fill = counts
        for (g, b) in boxes.enumerated() {
            for y in Int(b.2)...Int(b.3) {
                for x in Int(b.0)...Int(b.1) {
                    let c = y * nx + x
                    items[Int(fill[c])] = Int32(g)
                    fill[c] += 1
                }
            }
        }
        return SegmentGrid(minLat: minLat, minLon: minLon, cellDeg: cell, nx: nx, ny: ny,
                           cellStart: StoredArray(counts), cellItems: StoredArray(items),
                           segEdge: StoredArray(segEdge), cellMeters: cellMeters)
    }
}
