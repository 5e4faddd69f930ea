import ArrayBlob

/// The flat buffers the searches read, derived from `RoadGraph.Storage` at import (`Stored.build`) and stored after
/// it in the graph's blob: adjacency (CSR), per-vehicle slot weights, edge-based states at turn-restriction via
/// nodes, planar node coordinates for the A* bound, the spatial grid, per-vehicle subnetwork (snappable) flags.
/// Opening one is O(1): the arrays are views (`StoredArray`) of the blob's region, and the pointers the hot loops
/// use point into them (the region lives as long as `stored`).
final class SearchBuffers: @unchecked Sendable {
    /// The persisted part: every array and scalar, as views of one region (or heap copies when just built).
    struct Stored: Sendable, Equatable {
        var stateCount: Int
        /// CSR adjacency: slots `adjStart[v] ..< adjStart[v+1]` are the directed edges leaving v.
        var adjStart: StoredArray<Int32>
        var adjDirEdge: StoredArray<Int32>
        /// State reached by traversing the slot's directed edge.
        var adjArrival: StoredArray<Int32>
        /// `EdgeFlag.ferry | EdgeFlag.toll` plus 0x80 when the edge has a maxweight: slots needing an options check.
        var adjSpecial: StoredArray<UInt8>
        /// Per vehicle: travel time (s) of each slot, +infinity when not allowed.
        var adjWeight: [StoredArray<Double>]
        /// State reached by traversing directed edge d.
        var arrivalOfDirEdge: StoredArray<Int32>
        /// States ≥ nodeCount: their node and the directed edge they arrived by, and their restriction entries.
        var extraStateNode: StoredArray<Int32>
        var extraStateInEdge: StoredArray<Int32>
        var turnStart: StoredArray<Int32>
        var turnOut: StoredArray<Int32>
        var turnKind: StoredArray<UInt8>
        var turnMask: StoredArray<UInt8>
        /// Planar coordinates (metres) with a fixed x scale cos(max |lat|): distances never exceed true distances.
        var nodeX: StoredArray<Double>
        var nodeY: StoredArray<Double>
        var xScale: Double
        var yScale: Double
        /// Fastest speed (m/s) of each vehicle anywhere in the graph (for the admissible A* bound).
        var maxSpeed: [Double]
        /// Per vehicle: FNV-1a of its slot weights and the turn tables (what a `ContractionHierarchy` built for
        /// the graph carries: `matches`).
        var weightChecksum: [UInt64]
        /// Per vehicle: `adjSpecial` bits of the slots it may use (`RoadGraph.usableSpecial`).
        var usableSpecial: [UInt8]
        var grid: SegmentGrid
        var subnetworks: Subnetworks
    }

    let stored: Stored
    let nodeCount: Int
    let edgeCount: Int
    let stateCount: Int
    let adjStart: UnsafePointer<Int32>
    let adjDirEdge: UnsafePointer<Int32>
    let adjArrival: UnsafePointer<Int32>
    let adjSpecial: UnsafePointer<UInt8>
    let adjWeight: [UnsafePointer<Double>]
    let arrivalOfDirEdge: UnsafePointer<Int32>
    let extraStateNode: UnsafePointer<Int32>
    let extraStateInEdge: UnsafePointer<Int32>
    let turnStart: UnsafePointer<Int32>
    let turnOut: UnsafePointer<Int32>
    let turnKind: UnsafePointer<UInt8>
    let turnMask: UnsafePointer<UInt8>
    let nodeX: UnsafePointer<Double>
    let nodeY: UnsafePointer<Double>
    let xScale: Double
    let yScale: Double
    let maxSpeed: [Double]
    let grid: SegmentGrid

    /// Checks that the counts of `stored` fit `storage` (O(1); the values are checked by `RoadGraph.validate()`).
    init(_ stored: Stored, storage: RoadGraph.Storage) throws(RoadGraphError) {
        let n = storage.nodeCount, e = storage.edgeCount, s = stored.stateCount
        let vehicles = Vehicle.allCases.count
        let extra = s - n
        func check(_ ok: Bool, _ what: String) throws(RoadGraphError) {
            if !ok { throw .invalidStorage("search index: \(what)") }
        }
        try check(extra >= 0 && stored.adjStart.count == n + 1, "states, adjStart")
        try check(stored.adjDirEdge.count == 2 * e && stored.adjArrival.count == 2 * e && stored.adjSpecial.count == 2 * e
                  && stored.arrivalOfDirEdge.count == 2 * e, "slot arrays")
        try check(stored.adjWeight.count == vehicles && stored.adjWeight.allSatisfy { $0.count == 2 * e }, "adjWeight")
        try check(stored.extraStateNode.count == extra && stored.extraStateInEdge.count == extra
                  && stored.turnStart.count == extra + 1, "extra states")
        let t = storage.turnFromEdge.count
        try check(stored.turnOut.count == t && stored.turnKind.count == t && stored.turnMask.count == t, "turn tables")
        try check(stored.nodeX.count == n && stored.nodeY.count == n, "planar coordinates")
        try check(stored.maxSpeed.count == vehicles && stored.weightChecksum.count == vehicles
                  && stored.usableSpecial.count == vehicles, "per-vehicle values")
        try check(stored.grid.hasConsistentCounts(storage), "grid")
        try check(stored.subnetworks.hasConsistentCounts(edgeCount: e), "subnetworks")
        self.stored = stored
        nodeCount = n
        edgeCount = e
        stateCount = s
        adjStart = stored.adjStart.base
        adjDirEdge = stored.adjDirEdge.base
        adjArrival = stored.adjArrival.base
        adjSpecial = stored.adjSpecial.base
        adjWeight = stored.adjWeight.map(\.base)
        arrivalOfDirEdge = stored.arrivalOfDirEdge.base
        extraStateNode = stored.extraStateNode.base
        extraStateInEdge = stored.extraStateInEdge.base
        turnStart = stored.turnStart.base
        turnOut = stored.turnOut.base
        turnKind = stored.turnKind.base
        turnMask = stored.turnMask.base
        nodeX = stored.nodeX.base
        nodeY = stored.nodeY.base
        xScale = stored.xScale
        yScale = stored.yScale
        maxSpeed = stored.maxSpeed
        grid = stored.grid
    }

    @inline(__always) func stateNode(_ s: Int32) -> Int32 {
        Int(s) < nodeCount ? s : extraStateNode[Int(s) - nodeCount]
    }

    /// Whether leaving state `state` (an extra state) by directed edge `out` is allowed for `vehicleBit`.
    @inline(__always) func turnAllowed(state: Int, out: Int32, vehicleBit: UInt8) -> Bool {
        let k = state - nodeCount
        var hasOnly = false, onlyMatch = false
        for i in Int(turnStart[k])..<Int(turnStart[k + 1]) where turnMask[i] & vehicleBit != 0 {
            if turnKind[i] == 0 {
                if turnOut[i] == out { return false }
            } else {
                hasOnly = true
                if turnOut[i] == out { onlyMatch = true }
            }
        }
        return !hasOnly || onlyMatch
    }
}
