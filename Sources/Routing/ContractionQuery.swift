import ArrayBlob
/// Queries over a `ContractionHierarchy`: point-to-point legs for `Router` and one-to-many rows for `TravelMatrix`.
///
/// A leg is a bidirectional Dijkstra over the hierarchy's upward arcs (forward from the start's states, backward
/// from the target's states) with stall-on-demand, stopped once both queues' minima reach the best meeting cost.
/// The seeds are exactly the A*'s: a start at a node = its node state at 0; a start inside an edge = the states its
/// allowed directed edges (bearing: `Snap.departsForward`) arrive at, at the partial cost; a target at a node = every
/// state at that node at 0; a target inside an edge = every state at the tail of each directed edge of that edge
/// that may leave by it (turn restrictions), at the partial cost. The path found is unpacked into the original
/// directed edges and its cost is re-added in the A*'s order (start partial, then edge by edge, then end partial),
/// so for the same path `weight` is bit-for-bit the A*'s.
///
/// Tie-break: among paths of exactly equal weight the A* keeps the first label it finds, this search the first
/// meeting state it settles — they may return different (equally fast) paths; weight is then equal, distance may
/// differ. (The hierarchy's sums are associated differently from the A*'s, so "equal" is up to the last bits of a
/// `Double`: two paths within ~1e-12 s of each other count as tied.)
///
/// Route options that change weights or remove edges (`avoidFerry`, `avoidToll`, a truck's `truckCapacityKg`)
/// are not in the hierarchy: `ContractionHierarchy.canAnswer` is false — unless the graph has no such edge the
/// vehicle may use — and callers use the A*.
extension ContractionHierarchy {
    /// Whether a query with these options may use the hierarchy: no option that changes weights or access —
    /// `avoidFerry`, `avoidToll`, a truck's `truckCapacityKg` — unless the graph has no edge of that kind the
    /// vehicle may use (`usableSpecial`: `EdgeFlag.ferry | EdgeFlag.toll` bits, 0x80 = some edge has a maxweight).
    public func canAnswer(options: RouteOptions, usableSpecial: UInt8 = 0xFF) -> Bool {
        if options.avoidFerry && usableSpecial & EdgeFlag.ferry != 0 { return false }
        if options.avoidToll && usableSpecial & EdgeFlag.toll != 0 { return false }
        if vehicle == .truck && options.truckCapacityKg != nil && usableSpecial & 0x80 != 0 { return false }
        return true
    }
}

/// The two half-searches' labels, sized to the state count, cleared in O(1) with generation stamps.
final class CHWorkspace {
    let capacity: Int
    var generation: UInt32 = 0
    let fDist: UnsafeMutablePointer<Double>, bDist: UnsafeMutablePointer<Double>
    let fStamp: UnsafeMutablePointer<UInt32>, bStamp: UnsafeMutablePointer<UInt32>
    /// Parent arc (≥ 0), or a seed: -1 = at a node, -2 - d = entered by the partial directed edge d.
    let fArc: UnsafeMutablePointer<Int32>, bArc: UnsafeMutablePointer<Int32>
    /// The state the parent arc comes from (forward) / leads to (backward).
    let fPrev: UnsafeMutablePointer<Int32>, bNext: UnsafeMutablePointer<Int32>
    let fHeap = SearchHeap(), bHeap = SearchHeap()

    init(states: Int) {
        let c = max(1, states)
        capacity = c
        fDist = .allocate(capacity: c); bDist = .allocate(capacity: c)
        fStamp = .allocate(capacity: c); bStamp = .allocate(capacity: c)
        fStamp.initialize(repeating: 0, count: c); bStamp.initialize(repeating: 0, count: c)
        fArc = .allocate(capacity: c); bArc = .allocate(capacity: c)
        fPrev = .allocate(capacity: c); bNext = .allocate(capacity: c)
    }

    deinit {
        fDist.deallocate(); bDist.deallocate(); fStamp.deallocate(); bStamp.deallocate()
        fArc.deallocate(); bArc.deallocate(); fPrev.deallocate(); bNext.deallocate()
    }

    func begin() {
        if generation >= 0x7FFF_FFF0 {
            fStamp.update(repeating: 0, count: capacity); bStamp.update(repeating: 0, count: capacity)
            generation = 0
        }
        generation += 1
        fHeap.count = 0; bHeap.count = 0
    }
    @inline(__always) var visited: UInt32 { generation &* 2 }
    @inline(__always) var settled: UInt32 { generation &* 2 &+ 1 }
}

extension RouterWorkspace {
    func chWorkspace(states: Int) -> CHWorkspace {
        if let c = ch, c.capacity >= states { return c }
        let c = CHWorkspace(states: states)
        ch = c
        return c
    }
}

extension RoadGraph {
    /// A copy of the graph with these hierarchies attached (one per vehicle; a later one for the same vehicle
    /// wins). Hierarchies built for another graph (counts or weight checksum differ) are ignored.
    public func attaching(_ chs: [ContractionHierarchy]) -> RoadGraph {
        var g = self
        for ch in chs where ch.matches(self) {
            let v = ch.vehicle.rawValue
            g.hierarchies[v] = ch
            g.usableSpecial[v] = index.stored.usableSpecial[v]
        }
        return g
    }

    /// The attached hierarchy of `vehicle`, if any.
    public func contractionHierarchy(for vehicle: Vehicle) -> ContractionHierarchy? {
        hierarchies[vehicle.rawValue]
    }

    /// The hierarchy a query with these options may use.
    func usableHierarchy(_ vehicle: Vehicle, _ options: RouteOptions) -> ContractionHierarchy? {
        guard let ch = hierarchies[vehicle.rawValue],
              ch.canAnswer(options: options, usableSpecial: usableSpecial[vehicle.rawValue]) else { return nil }
        return ch
    }

    /// Every state at `node` (its node state, and at a via node one per arriving directed edge).
    @inline(__always) func forEachState(at node: Int, _ body: (Int32) -> Void) {
        let idx = index
        body(Int32(node))
        for slot in Int(idx.adjStart[node])..<Int(idx.adjStart[node + 1]) {
            let st = idx.arrivalOfDirEdge[Int(idx.adjDirEdge[slot] ^ 1)]
            if Int(st) >= idx.nodeCount { body(st) }
        }
    }

    /// Backward seeds of a target: (state, cost, seed code) as described in the file comment.
    func backwardSeeds(_ to: Snap, vehicle: Vehicle, options: RouteOptions, _ seed: (Int32, Double, Int32) -> Void) {
        let idx = index
        if let t = to.node {
            forEachState(at: t) { seed($0, 0, -1) }
            return
        }
        let e = to.edge
        let vBit = UInt8(1) << UInt8(vehicle.rawValue)
        for d in [Int32(2 * e), Int32(2 * e + 1)] {
            guard let w = directedWeight(d, vehicle: vehicle, options: options) else { continue }
            let partial = d & 1 == 0 ? to.fraction * w : (1 - to.fraction) * w
            let tailNode = Int(d & 1 == 0 ? storage.edgeBaseNode[e] : storage.edgeAdjNode[e])
            forEachState(at: tailNode) { st in
                if Int(st) >= idx.nodeCount && !idx.turnAllowed(state: Int(st), out: d, vehicleBit: vBit) { return }
                seed(st, partial, -2 - d)
            }
        }
    }

    /// Expands arcs (in path order) into original directed edges; nil if the arrays are damaged (a cycle).
    func unpack(_ ch: ContractionHierarchy, arcs: [Int32], into out: inout [Int32]) -> Bool {
        var stack: [Int32] = []
        var budget = 4 * (edgeCount + 1) + arcs.count
        for arc in arcs {
            stack.append(arc)
            while let a = stack.popLast() {
                budget -= 1
                if budget < 0 { return false }
                let f = ch.arcFirst[Int(a)]
                if f < 0 { out.append(ch.arcSecond[Int(a)]) } else { stack.append(ch.arcSecond[Int(a)]); stack.append(f) }
            }
        }
        return true
    }

    /// The A*'s leg (`searchLeg`) through the hierarchy: same cost, same path unless another ties exactly.
    /// Nil when unreachable — or when the hierarchy's arrays are damaged (the caller may then use the A*).
    func searchLegCH(_ ch: ContractionHierarchy, from: Snap, to: Snap, vehicle: Vehicle, options: RouteOptions,
                     workspace: RouterWorkspace) -> LegSearchResult? {
        let idx = index
        if let a = from.node, a == to.node {
            workspace.lastSettledCount = 0
            return LegSearchResult(cost: 0, settled: 0, pieces: [])
        }
        // Same-edge direct piece, exactly as the A*.
        var direct = Double.infinity
        if from.node == nil && to.node == nil && from.edge == to.edge {
            if to.distanceAlong >= from.distanceAlong, from.departsForward != false,
               let w = directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) {
                direct = (to.fraction - from.fraction) * w
            }
            if to.distanceAlong <= from.distanceAlong, from.departsForward != true,
               let w = directedWeight(Int32(2 * from.edge + 1), vehicle: vehicle, options: options) {
                let c = (from.fraction - to.fraction) * w
                if c < direct { direct = c }
            }
        }

        let ws = workspace.chWorkspace(states: idx.stateCount)
        ws.begin()
        let fDist = ws.fDist, bDist = ws.bDist, fStamp = ws.fStamp, bStamp = ws.bStamp
        let fArc = ws.fArc, bArc = ws.bArc, fPrev = ws.fPrev, bNext = ws.bNext
        let fHeap = ws.fHeap, bHeap = ws.bHeap
        let visited = ws.visited, settledMark = ws.settled

        func fSeed(_ s: Int32, _ cost: Double, _ code: Int32) {
            let i = Int(s)
            if fStamp[i] >= visited && fDist[i] <= cost { return }
            fStamp[i] = visited; fDist[i] = cost; fArc[i] = code; fPrev[i] = -1
            fHeap.push(cost, s)
        }
        if let a = from.node {
            fSeed(Int32(a), 0, -1)
        } else {
            let e = Int32(from.edge)
            if from.departsForward != false, let w = directedWeight(2 * e, vehicle: vehicle, options: options) {
                fSeed(idx.arrivalOfDirEdge[Int(2 * e)], (1 - from.fraction) * w, -2 - 2 * e)
            }
            if from.departsForward != true, let w = directedWeight(2 * e + 1, vehicle: vehicle, options: options) {
                fSeed(idx.arrivalOfDirEdge[Int(2 * e + 1)], from.fraction * w, -2 - (2 * e + 1))
            }
        }
        backwardSeeds(to, vehicle: vehicle, options: options) { s, cost, code in
            let i = Int(s)
            if bStamp[i] >= visited && bDist[i] <= cost { return }
            bStamp[i] = visited; bDist[i] = cost; bArc[i] = code; bNext[i] = -1
            bHeap.push(cost, s)
        }

        var best = Double.infinity
        var meet: Int32 = -1
        var settledCount = 0
        ch.upStart.withUnsafeBufferPointer { upStart in
        ch.upHead.withUnsafeBufferPointer { upHead in
        ch.upWeight.withUnsafeBufferPointer { upWeight in
        ch.upArc.withUnsafeBufferPointer { upArc in
        ch.downStart.withUnsafeBufferPointer { downStart in
        ch.downTail.withUnsafeBufferPointer { downTail in
        ch.downWeight.withUnsafeBufferPointer { downWeight in
        ch.downArc.withUnsafeBufferPointer { downArc in
            while true {
                let bound = min(best, direct)
                let fTop = fHeap.minKey, bTop = bHeap.minKey
                let fActive = fTop < bound, bActive = bTop < bound
                if !fActive && !bActive { break }
                if fActive && (!bActive || fTop <= bTop) {
                    let (k, s) = fHeap.pop()
                    let i = Int(s)
                    if fStamp[i] == settledMark || k > fDist[i] { continue }
                    fStamp[i] = settledMark
                    settledCount += 1
                    if bStamp[i] >= visited {
                        let c = k + bDist[i]
                        if c < best { best = c; meet = s }
                    }
                    var stalled = false
                    for j in Int(downStart[i])..<Int(downStart[i + 1]) {
                        let x = Int(downTail[j])
                        if fStamp[x] >= visited && fDist[x] + downWeight[j] < k { stalled = true; break }
                    }
                    if stalled { continue }
                    for j in Int(upStart[i])..<Int(upStart[i + 1]) {
                        let h = Int(upHead[j])
                        let nd = k + upWeight[j]
                        if fStamp[h] >= visited {
                            if fStamp[h] == settledMark || nd >= fDist[h] { continue }
                        } else {
                            fStamp[h] = visited
                        }
                        fDist[h] = nd; fArc[h] = upArc[j]; fPrev[h] = s
                        fHeap.push(nd, Int32(h))
                    }
                } else {
                    let (k, s) = bHeap.pop()
                    let i = Int(s)
                    if bStamp[i] == settledMark || k > bDist[i] { continue }
                    bStamp[i] = settledMark
                    settledCount += 1
                    if fStamp[i] >= visited {
                        let c = fDist[i] + k
                        if c < best { best = c; meet = s }
                    }
                    var stalled = false
                    for j in Int(upStart[i])..<Int(upStart[i + 1]) {
                        let x = Int(upHead[j])
                        if bStamp[x] >= visited && bDist[x] + upWeight[j] < k { stalled = true; break }
                    }
                    if stalled { continue }
                    for j in Int(downStart[i])..<Int(downStart[i + 1]) {
                        let t = Int(downTail[j])
                        let nd = k + downWeight[j]
                        if bStamp[t] >= visited {
                            if bStamp[t] == settledMark || nd >= bDist[t] { continue }
                        } else {
                            bStamp[t] = visited
                        }
                        bDist[t] = nd; bArc[t] = downArc[j]; bNext[t] = s
                        bHeap.push(nd, Int32(t))
                    }
                }
            }
        }}}}}}}}
        workspace.lastSettledCount = settledCount

        func directResult() -> LegSearchResult? {
            guard direct < .infinity else { return nil }
            let forward = to.distanceAlong >= from.distanceAlong
                && directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) != nil
            let d = Int32(2 * from.edge + (forward ? 0 : 1))
            return LegSearchResult(cost: direct, settled: settledCount,
                                   pieces: [PathPiece(dirEdge: d, start: from, end: to)])
        }
        guard meet >= 0 else { return directResult() }

        // Unpack: forward half (meet back to a seed), backward half (meet on to a seed).
        var arcs: [Int32] = []
        var s = meet
        while fArc[Int(s)] >= 0 { arcs.append(fArc[Int(s)]); s = fPrev[Int(s)] }
        let startCode = fArc[Int(s)]
        arcs.reverse()
        s = meet
        while bArc[Int(s)] >= 0 { arcs.append(bArc[Int(s)]); s = bNext[Int(s)] }
        let endCode = bArc[Int(s)]
        var edges: [Int32] = []
        guard unpack(ch, arcs: arcs, into: &edges) else { return nil }

        // Cost in the A*'s order.
        var pieces: [PathPiece] = []
        pieces.reserveCapacity(edges.count + 2)
        var cost = 0.0
        if startCode <= -2 {
            let d = -2 - startCode
            let w = directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            cost = d & 1 == 0 ? (1 - from.fraction) * w : from.fraction * w
            pieces.append(PathPiece(dirEdge: d, start: from, end: nil))
        }
        for d in edges {
            cost += directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            pieces.append(PathPiece(dirEdge: d, start: nil, end: nil))
        }
        if endCode <= -2 {
            let d = -2 - endCode
            let w = directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            cost += d & 1 == 0 ? to.fraction * w : (1 - to.fraction) * w
            pieces.append(PathPiece(dirEdge: d, start: nil, end: to))
        }
        if direct <= cost { return directResult() }
        return LegSearchResult(cost: cost, settled: settledCount, pieces: pieces)
    }
}
