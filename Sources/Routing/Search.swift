/// Per-thread reusable search state. Arrays are sized to the graph's state count once and "cleared" in O(1) per
/// query with generation stamps. Not thread-safe: keep one per thread (or per request handler). It is marked
/// `@unchecked Sendable` only so that a pool can hand it from thread to thread; never use one concurrently.
public final class RouterWorkspace: @unchecked Sendable {
    var capacity = 0
    var g: UnsafeMutablePointer<Double>
    var stamp: UnsafeMutablePointer<UInt32>
    var parentState: UnsafeMutablePointer<Int32>
    var parentEdge: UnsafeMutablePointer<Int32>
    var generation: UInt32 = 0
    /// The open states by key (lazy deletion).
    let heap = SearchHeap()
    /// Per state: metres along the path `g` belongs to (filled only by `TravelMatrix`; sized on first use).
    var meters: UnsafeMutablePointer<Double>
    var metersCapacity = 0
    /// Labels of contraction-hierarchy queries (ContractionQuery.swift), made on first use.
    var ch: CHWorkspace?

    /// States settled by the last leg search.
    public internal(set) var lastSettledCount = 0

    public init(stateCapacity: Int = 0) {
        g = .allocate(capacity: 1)
        stamp = .allocate(capacity: 1)
        parentState = .allocate(capacity: 1)
        parentEdge = .allocate(capacity: 1)
        meters = .allocate(capacity: 1)
        if stateCapacity > 0 { reserve(stateCapacity) }
    }

    public convenience init(graph: RoadGraph) { self.init(stateCapacity: graph.searchStateCount) }

    deinit {
        g.deallocate(); stamp.deallocate(); parentState.deallocate(); parentEdge.deallocate()
        meters.deallocate()
    }

    func reserveMeters(_ n: Int) {
        guard n > metersCapacity else { return }
        meters.deallocate()
        meters = .allocate(capacity: n)
        metersCapacity = n
    }

    func reserve(_ n: Int) {
        guard n > capacity else { return }
        g.deallocate(); stamp.deallocate(); parentState.deallocate(); parentEdge.deallocate()
        g = .allocate(capacity: n)
        stamp = .allocate(capacity: n)
        stamp.initialize(repeating: 0, count: n)
        parentState = .allocate(capacity: n)
        parentEdge = .allocate(capacity: n)
        capacity = n
        generation = 0
    }

    /// Starts a new query over `states` states.
    func begin(states: Int) {
        reserve(states)
        if generation >= 0x7FFF_FFF0 {
            stamp.update(repeating: 0, count: capacity)
            generation = 0
        }
        generation += 1
        heap.count = 0
    }

    @inline(__always) var visitedStamp: UInt32 { generation &* 2 }
    @inline(__always) var settledStamp: UInt32 { generation &* 2 &+ 1 }

    @inline(__always) var heapCount: Int { heap.count }
    @inline(__always) func push(_ key: Double, _ state: Int32) { heap.push(key, state) }
    /// Pops the minimum; heap must be non-empty.
    @inline(__always) func pop() -> (Double, Int32) { heap.pop() }
}

/// One traversed piece of a directed edge; `start`/`end` nil = the directed edge's tail/head node.
struct PathPiece {
    var dirEdge: Int32
    var start: Snap?
    var end: Snap?
}

struct LegSearchResult {
    var cost: Double
    var settled: Int
    var pieces: [PathPiece]
}

extension RoadGraph {
    /// Fastest path between two positions: A* over the hybrid state space (graph nodes, plus one state per
    /// arriving edge at turn-restriction via nodes), bound = planar straight-line distance × 0.99 / fastest speed
    /// of the vehicle in this graph. Handles partial start/end edges, same-edge legs, one-ways (loops around when
    /// the target lies behind the start on a one-way edge). Nil when the target is unreachable.
    func searchLeg(from: Snap, to: Snap, vehicle: Vehicle, options: RouteOptions,
                   workspace ws: RouterWorkspace) -> LegSearchResult? {
        let idx = index
        let n = idx.nodeCount
        let vi = vehicle.rawValue
        let vBit = UInt8(1) << UInt8(vi)
        let W = idx.adjWeight[vi]
        let adjStart = idx.adjStart, adjDirEdge = idx.adjDirEdge, adjArrival = idx.adjArrival
        let adjSpecial = idx.adjSpecial
        let nodeX = idx.nodeX, nodeY = idx.nodeY
        let checkSpecial = options.avoidFerry || options.avoidToll
            || (vehicle == .truck && options.truckCapacityKg != nil)

        ws.begin(states: idx.stateCount)
        let g = ws.g, stamp = ws.stamp, parentState = ws.parentState, parentEdge = ws.parentEdge
        let visited = ws.visitedStamp, settledMark = ws.settledStamp

        // Target.
        let targetNode = to.node ?? -1
        let targetEdge = to.node == nil ? to.edge : -1
        let tFrac = to.fraction
        let tx = to.point.longitude * idx.xScale, ty = to.point.latitude * idx.yScale
        let hFactor = 0.99 / idx.maxSpeed[vi]

        enum Best { case none, direct, viaEdge(Int32, Int32), atNode(Int32) }
        var best = Double.infinity
        var bestKind = Best.none

        if let a = from.node, a == targetNode {
            ws.lastSettledCount = 0
            return LegSearchResult(cost: 0, settled: 0, pieces: [])
        }
        if from.node == nil && targetEdge >= 0 && from.edge == targetEdge {
            if to.distanceAlong >= from.distanceAlong, from.departsForward != false,
               let w = directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) {
                best = (to.fraction - from.fraction) * w; bestKind = .direct
            }
            if to.distanceAlong <= from.distanceAlong, from.departsForward != true,
               let w = directedWeight(Int32(2 * from.edge + 1), vehicle: vehicle, options: options) {
                let c = (from.fraction - to.fraction) * w
                if c < best { best = c; bestKind = .direct }
            }
        }

        @inline(__always) func heuristic(_ node: Int32) -> Double {
            let dx = nodeX[Int(node)] - tx, dy = nodeY[Int(node)] - ty
            return (dx * dx + dy * dy).squareRoot() * hFactor
        }
        @inline(__always) func relaxStart(_ state: Int32, _ cost: Double, _ edge: Int32) {
            let s = Int(state)
            if stamp[s] >= visited && g[s] <= cost { return }
            stamp[s] = visited
            g[s] = cost
            parentState[s] = -1
            parentEdge[s] = edge
            ws.push(cost + heuristic(idx.stateNode(state)), state)
        }

        if let a = from.node {
            relaxStart(Int32(a), 0, -1)
        } else {
            let e = Int32(from.edge)
            // A bearing-filtered start leaves in its one allowed direction (`Snap.departsForward`).
            if from.departsForward != false, let w = directedWeight(2 * e, vehicle: vehicle, options: options) {
                relaxStart(idx.arrivalOfDirEdge[Int(2 * e)], (1 - from.fraction) * w, 2 * e)
            }
            if from.departsForward != true, let w = directedWeight(2 * e + 1, vehicle: vehicle, options: options) {
                relaxStart(idx.arrivalOfDirEdge[Int(2 * e + 1)], from.fraction * w, 2 * e + 1)
            }
        }

        var settled = 0
        while ws.heapCount > 0 {
            let (key, state) = ws.pop()
            let s = Int(state)
            if stamp[s] == settledMark { continue }
            if key >= best { break }
            stamp[s] = settledMark
            settled += 1
            let gs = g[s]
            let node = s < n ? state : idx.extraStateNode[s - n]
            if node == targetNode {
                best = gs; bestKind = .atNode(state)
                break
            }
            let restricted = s >= n
            for slot in Int(adjStart[Int(node)])..<Int(adjStart[Int(node) + 1]) {
                let w = W[slot]
                if w == .infinity { continue }
                let d = adjDirEdge[slot]
                if checkSpecial && adjSpecial[slot] != 0 && !optionsAllow(edge: Int(d >> 1), vehicle: vehicle,
                                                                          options: options) { continue }
                if restricted && !idx.turnAllowed(state: s, out: d, vehicleBit: vBit) { continue }
                if Int(d >> 1) == targetEdge {
                    let c = gs + (d & 1 == 0 ? tFrac * w : (1 - tFrac) * w)
                    if c < best { best = c; bestKind = .viaEdge(state, d) }
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
                parentState[nsi] = state
                parentEdge[nsi] = d
                let hn = nsi < n ? ns : idx.extraStateNode[nsi - n]
                ws.push(nd + heuristic(hn), ns)
            }
        }
        ws.lastSettledCount = settled

        // Reconstruct.
        var lastPiece: PathPiece?
        var state: Int32
        switch bestKind {
        case .none:
            return nil
        case .direct:
            let forward = to.distanceAlong >= from.distanceAlong
                && directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) != nil
            let d = Int32(2 * from.edge + (forward ? 0 : 1))
            return LegSearchResult(cost: best, settled: settled, pieces: [PathPiece(dirEdge: d, start: from, end: to)])
        case .viaEdge(let s, let d):
            lastPiece = PathPiece(dirEdge: d, start: nil, end: to)
            state = s
        case .atNode(let s):
            state = s
        }
        var reversed: [PathPiece] = []
        if let lastPiece { reversed.append(lastPiece) }
        while true {
            let ps = parentState[Int(state)], pe = parentEdge[Int(state)]
            if ps < 0 {
                if pe >= 0 { reversed.append(PathPiece(dirEdge: pe, start: from, end: nil)) }
                break
            }
            reversed.append(PathPiece(dirEdge: pe, start: nil, end: nil))
            state = ps
        }
        return LegSearchResult(cost: best, settled: settled, pieces: reversed.reversed())
    }
}
