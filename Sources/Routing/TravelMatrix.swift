import ArrayBlob
import Dispatch

/// Many-to-many travel times and distances of the fastest paths between snapped positions.
///
/// Algorithm: one Dijkstra per distinct source over the same hybrid state space as `Router`'s A* (one state per
/// graph node, plus one per arriving edge at turn-restriction via nodes), stopping as soon as every destination is
/// final — never N×M point-to-point searches. Along with each state's cost (seconds) it carries the distance
/// (metres) of the path that cost belongs to, so a cell's `meters` is the length of the fastest path, not of the
/// shortest one. Start and end partial edges, same-edge pairs (including one-way loops) and `source == destination`
/// are handled exactly as in `Router.route`: a cell's `seconds` equals that route's `weight` and, up to rounding,
/// its `time` / 1000 and `distance` (ties between equally fast paths may pick a different one).
/// With a contraction hierarchy attached (and options it can answer) the cells come from a bucket many-to-many
/// search instead (ContractionMatrix.swift): same values, `settledStates` then counts its upward searches.
public struct TravelMatrix: Sendable, Equatable {
    /// One reachable pair: travel time in seconds and distance in metres along the fastest path (unrounded).
    public struct Cell: Sendable, Equatable {
        public var seconds: Double
        public var meters: Double

        public init(seconds: Double, meters: Double) {
            self.seconds = seconds
            self.meters = meters
        }
    }

    /// Thrown when `sources.count × destinations.count` exceeds the `maxCells` given to `compute`.
    public struct TooManyCells: Error, Sendable, Equatable {
        public var requested: Int
        public var maxCells: Int
    }

    /// `compute`'s default cell limit: 100 × 100 (memory is trivial; the cost is one search per source).
    public static let defaultMaxCells = 10_000

    public let sourceCount: Int
    public let destinationCount: Int
    /// Row-major (`source * destinationCount + destination`); nil = no path for the vehicle.
    public let cells: [Cell?]
    /// Search states settled over all the one-to-many searches.
    public let settledStates: Int

    /// The cell of `source` → `destination` (indexes into the arrays given to `compute`); nil = unreachable.
    public subscript(source: Int, destination: Int) -> Cell? {
        precondition(source >= 0 && source < sourceCount && destination >= 0 && destination < destinationCount)
        return cells[source * destinationCount + destination]
    }

    /// Computes the matrix. Repeated sources (or destinations) are searched (or targeted) once.
    /// - Parameters:
    ///   - workspace: reused when the searches run on the caller's thread only.
    ///   - parallelism: searches run on up to this many threads at once (each source's search is
    ///     independent). 1 keeps everything on the caller's thread.
    ///   - threadWorkspace: with `parallelism` > 1, the workspace of the thread that calls it (a thread-local
    ///     one: two threads must never get the same); nil makes one per thread and call.
    /// - Throws: `TooManyCells` when `sources.count * destinations.count > maxCells` (checked before any work).
    public static func compute(_ graph: RoadGraph, sources: [Snap], destinations: [Snap], vehicle: Vehicle,
                               options: RouteOptions = RouteOptions(), maxCells: Int = defaultMaxCells,
                               workspace: RouterWorkspace? = nil, parallelism: Int = 1,
                               threadWorkspace: (@Sendable () -> RouterWorkspace)? = nil) throws(TooManyCells) -> TravelMatrix {
        let (requested, overflow) = sources.count.multipliedReportingOverflow(by: destinations.count)
        guard !overflow, requested <= maxCells else {
            throw TooManyCells(requested: overflow ? Int.max : requested, maxCells: maxCells)
        }
        var targetOf: [Snap: Int] = [:]
        var targets: [Snap] = []
        let column = destinations.map { snap in
            if let t = targetOf[snap] { return t }
            targetOf[snap] = targets.count
            targets.append(snap)
            return targets.count - 1
        }
        var rowOfSource: [Snap: Int] = [:]
        var distinct: [Snap] = []
        for source in sources where rowOfSource[source] == nil {
            rowOfSource[source] = distinct.count
            distinct.append(source)
        }
        let search = OneToManySearch(graph: graph, targets: targets, vehicle: vehicle, options: options)
        let distinctSources = distinct
        let rows = SearchRows(count: distinct.count)
        let threads = max(1, min(parallelism, distinct.count))
        if let ch = graph.usableHierarchy(vehicle, options) {
            // Many-to-many through the contraction hierarchy (ContractionMatrix.swift), on the caller's thread.
            let ws = workspace ?? threadWorkspace?() ?? RouterWorkspace(graph: graph)
            let computed = ContractionMatrix(graph: graph, ch: ch, vehicle: vehicle, options: options)
                .rows(sources: distinct, targets: targets, workspace: ws)
            for (i, row) in computed.enumerated() { rows.set(i, row) }
        } else if threads == 1 {
            let ws = workspace ?? RouterWorkspace(graph: graph)
            for (i, source) in distinct.enumerated() { rows.set(i, search.run(from: source, workspace: ws)) }
        } else {
            // Thread k takes sources k, k + threads, …: no shared state but the result slots.
            DispatchQueue.concurrentPerform(iterations: threads) { k in
                // Not `workspace`: concurrentPerform may run any iteration on the caller's thread, beside iteration 0.
                let ws = threadWorkspace?() ?? RouterWorkspace(graph: graph)
                for i in stride(from: k, to: distinctSources.count, by: threads) { rows.set(i, search.run(from: distinctSources[i], workspace: ws)) }
            }
        }
        var cells: [Cell?] = []
        cells.reserveCapacity(requested)
        for source in sources {
            let row = rows.row(rowOfSource[source]!)
            for c in column { cells.append(row[c]) }
        }
        return TravelMatrix(sourceCount: sources.count, destinationCount: destinations.count, cells: cells,
                            settledStates: rows.settled)
    }
}

/// The rows of a matrix as its searches finish them, possibly on several threads (each slot written once).
private final class SearchRows: @unchecked Sendable {
    // @unchecked: every slot is written by exactly one thread before `concurrentPerform` returns, read after;
    // raw memory, so no exclusivity check sees the concurrent writes to different slots as one access.
    private let rows: UnsafeMutablePointer<[TravelMatrix.Cell?]>
    private let settledPerRow: UnsafeMutablePointer<Int>
    private let count: Int

    init(count: Int) {
        self.count = count
        rows = .allocate(capacity: max(count, 1))
        rows.initialize(repeating: [], count: max(count, 1))
        settledPerRow = .allocate(capacity: max(count, 1))
        settledPerRow.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        rows.deinitialize(count: max(count, 1))
        rows.deallocate()
        settledPerRow.deallocate()
    }

    func set(_ index: Int, _ result: (cells: [TravelMatrix.Cell?], settled: Int)) {
        rows[index] = result.cells
        settledPerRow[index] = result.settled
    }

    func row(_ index: Int) -> [TravelMatrix.Cell?] { rows[index] }
    var settled: Int { (0..<count).reduce(0) { $0 + settledPerRow[$1] } }
}

/// Dijkstra from one source to a fixed set of targets (built once per matrix, run once per source).
struct OneToManySearch {
    let graph: RoadGraph
    let targets: [Snap]
    let vehicle: Vehicle
    let options: RouteOptions
    /// Targets at a graph node: `firstAtNode[node]` → target, then `nextAtSameKey[target]` (-1 = end).
    let firstAtNode: [Int32]
    /// Targets inside an edge (no node): `firstOnEdge[edge]`, chained the same way.
    let firstOnEdge: [Int32]
    let nextAtSameKey: [Int32]

    init(graph: RoadGraph, targets: [Snap], vehicle: Vehicle, options: RouteOptions) {
        self.graph = graph
        self.targets = targets
        self.vehicle = vehicle
        self.options = options
        var atNode = [Int32](repeating: -1, count: graph.nodeCount)
        var onEdge = [Int32](repeating: -1, count: graph.edgeCount)
        var next = [Int32](repeating: -1, count: targets.count)
        for (t, snap) in targets.enumerated().reversed() {
            if let node = snap.node {
                next[t] = atNode[node]; atNode[node] = Int32(t)
            } else {
                next[t] = onEdge[snap.edge]; onEdge[snap.edge] = Int32(t)
            }
        }
        firstAtNode = atNode
        firstOnEdge = onEdge
        nextAtSameKey = next
    }

    func run(from: Snap, workspace ws: RouterWorkspace) -> (cells: [TravelMatrix.Cell?], settled: Int) {
        let m = targets.count
        var bestCost = [Double](repeating: .infinity, count: m)
        var bestMeters = [Double](repeating: 0, count: m)
        var done = [Bool](repeating: false, count: m)
        var remaining = m
        guard m > 0 else { return ([], 0) }

        let idx = graph.index
        let n = idx.nodeCount
        let vi = vehicle.rawValue
        let vBit = UInt8(1) << UInt8(vi)
        let W = idx.adjWeight[vi]
        let adjStart = idx.adjStart, adjDirEdge = idx.adjDirEdge, adjArrival = idx.adjArrival
        let adjSpecial = idx.adjSpecial
        let checkSpecial = options.avoidFerry || options.avoidToll
            || (vehicle == .truck && options.truckCapacityKg != nil)
        let edgeLength = graph.storage.edgeDistance

        ws.begin(states: idx.stateCount)
        ws.reserveMeters(idx.stateCount)
        let g = ws.g, stamp = ws.stamp, meters = ws.meters
        let visited = ws.visitedStamp, settledMark = ws.settledStamp

        // Targets inside an edge are final once the smallest unsettled key reaches their best cost (as in the A*,
        // which stops at `key >= best`); `pending` holds those with a finite, not yet final cost.
        var pending: [Int] = []
        var pendingMin = Double.infinity
        func offer(_ t: Int, _ cost: Double, _ dist: Double) {
            guard !done[t], cost < bestCost[t] else { return }
            if bestCost[t] == .infinity { pending.append(t) }
            bestCost[t] = cost
            bestMeters[t] = dist
            pendingMin = min(pendingMin, cost)
        }
        func finalizePending(upTo key: Double) {
            var keep: [Int] = []
            pendingMin = .infinity
            for t in pending where !done[t] {
                if bestCost[t] <= key {
                    done[t] = true
                    remaining -= 1
                } else {
                    keep.append(t)
                    pendingMin = min(pendingMin, bestCost[t])
                }
            }
            pending = keep
        }

        // Same-edge targets: the direct piece along the edge, in whichever direction is allowed (like the A*).
        if from.node == nil {
            var t = Int(firstOnEdge[from.edge])
            while t >= 0 {
                let to = targets[t]
                if to.distanceAlong >= from.distanceAlong,
                   let w = graph.directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) {
                    offer(t, (to.fraction - from.fraction) * w, to.distanceAlong - from.distanceAlong)
                }
                if to.distanceAlong <= from.distanceAlong,
                   let w = graph.directedWeight(Int32(2 * from.edge + 1), vehicle: vehicle, options: options) {
                    offer(t, (from.fraction - to.fraction) * w, from.distanceAlong - to.distanceAlong)
                }
                t = Int(nextAtSameKey[t])
            }
        }

        func relaxStart(_ state: Int32, _ cost: Double, _ dist: Double) {
            let s = Int(state)
            if stamp[s] >= visited && g[s] <= cost { return }
            stamp[s] = visited
            g[s] = cost
            meters[s] = dist
            ws.push(cost, state)
        }
        if let a = from.node {
            relaxStart(Int32(a), 0, 0)
        } else {
            let e = from.edge
            if let w = graph.directedWeight(Int32(2 * e), vehicle: vehicle, options: options) {
                relaxStart(idx.arrivalOfDirEdge[2 * e], (1 - from.fraction) * w, edgeLength[e] - from.distanceAlong)
            }
            if let w = graph.directedWeight(Int32(2 * e + 1), vehicle: vehicle, options: options) {
                relaxStart(idx.arrivalOfDirEdge[2 * e + 1], from.fraction * w, from.distanceAlong)
            }
        }

        var settled = 0
        edgeLength.withUnsafeBufferPointer { length in
            while ws.heapCount > 0 && remaining > 0 {
                let (key, state) = ws.pop()
                let s = Int(state)
                if stamp[s] == settledMark { continue }
                if key >= pendingMin {
                    finalizePending(upTo: key)
                    if remaining == 0 { break }
                }
                stamp[s] = settledMark
                settled += 1
                let gs = g[s], ds = meters[s]
                let node = s < n ? state : idx.extraStateNode[s - n]
                var t = Int(firstAtNode[Int(node)])
                while t >= 0 {
                    if !done[t] {
                        // The first settled state at a node is its cheapest (an extra state's twin included).
                        bestCost[t] = gs; bestMeters[t] = ds; done[t] = true
                        remaining -= 1
                    }
                    t = Int(nextAtSameKey[t])
                }
                if remaining == 0 { break }
                let restricted = s >= n
                for slot in Int(adjStart[Int(node)])..<Int(adjStart[Int(node) + 1]) {
                    let w = W[slot]
                    if w == .infinity { continue }
                    let d = adjDirEdge[slot]
                    let e = Int(d >> 1)
                    if checkSpecial && adjSpecial[slot] != 0
                        && !graph.optionsAllow(edge: e, vehicle: vehicle, options: options) { continue }
                    if restricted && !idx.turnAllowed(state: s, out: d, vehicleBit: vBit) { continue }
                    var te = Int(firstOnEdge[e])
                    while te >= 0 {
                        let to = targets[te]
                        if d & 1 == 0 {
                            offer(te, gs + to.fraction * w, ds + to.distanceAlong)
                        } else {
                            offer(te, gs + (1 - to.fraction) * w, ds + length[e] - to.distanceAlong)
                        }
                        te = Int(nextAtSameKey[te])
                    }
                    let ns = adjArrival[slot]
                    let nsi = Int(ns)
                    let nd = gs + w
                    if stamp[nsi] >= visited {
                        if stamp[nsi] == settledMark || nd >= g[nsi] { continue }
                    } else {
                        stamp[nsi] = visited
                    }
                    g[nsi] = nd
                    meters[nsi] = ds + length[e]
                    ws.push(nd, ns)
                }
            }
        }
        ws.lastSettledCount = settled
        var cells: [TravelMatrix.Cell?] = []
        cells.reserveCapacity(m)
        for t in 0..<m {
            cells.append(bestCost[t] < .infinity ? TravelMatrix.Cell(seconds: bestCost[t], meters: bestMeters[t]) : nil)
        }
        return (cells, settled)
    }
}
