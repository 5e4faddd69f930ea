import ArrayBlob

/// `TravelMatrix` through a `ContractionHierarchy`: many-to-many with buckets. One backward upward search per
/// distinct destination leaves (destination, cost) in a bucket at every state it settles; one forward upward search
/// per distinct source scans the buckets of the states it settles (best meeting state per destination). A cell's
/// seconds are the hierarchy's sum for that path (shortcut weights are sums of their arcs: the same edges added in
/// another association than `OneToManySearch`'s, so equal to ~1e-12 relative, not bit for bit — re-adding every
/// edge in order would cost a 25 × 25 matrix 625 path lengths of work, ~100 ms on a country); its metres are
/// summed per arc, memoized per shortcut. Seeds are `OneToManySearch`'s (no bearings); the same-edge direct piece
/// is offered first and kept unless a path is strictly faster, as there. Ties: see ContractionQuery.swift.
struct ContractionMatrix {
    let graph: RoadGraph
    let ch: ContractionHierarchy
    let vehicle: Vehicle
    let options: RouteOptions

    /// A destination's backward search space: per settled state its cost, arc and next state (or seed code).
    struct Space {
        var label: [Int32: (cost: Double, arc: Int32, next: Int32)] = [:]
    }

    func rows(sources: [Snap], targets: [Snap], workspace: RouterWorkspace) -> [(cells: [TravelMatrix.Cell?], settled: Int)] {
        let idx = graph.index
        let ws = workspace.chWorkspace(states: idx.stateCount)
        let m = targets.count
        var spaces: [Space] = []
        spaces.reserveCapacity(m)
        // Buckets: state → first entry; entries chained by `bucketNext` (-1 = end).
        var bucketFirst: [Int32: Int32] = [:]
        var bucketTarget: [Int32] = [], bucketCost: [Double] = [], bucketNext: [Int32] = []
        var backwardSettled = 0

        // Backward searches.
        for (j, to) in targets.enumerated() {
            ws.begin()
            let bDist = ws.bDist, bStamp = ws.bStamp, bArc = ws.bArc, bNext = ws.bNext, heap = ws.bHeap
            let visited = ws.visited, settledMark = ws.settled
            graph.backwardSeeds(to, vehicle: vehicle, options: options) { s, cost, code in
                let i = Int(s)
                if bStamp[i] >= visited && bDist[i] <= cost { return }
                bStamp[i] = visited; bDist[i] = cost; bArc[i] = code; bNext[i] = -1
                heap.push(cost, s)
            }
            var space = Space()
            while heap.count > 0 {
                let (k, s) = heap.pop()
                let i = Int(s)
                if bStamp[i] == settledMark || k > bDist[i] { continue }
                bStamp[i] = settledMark
                backwardSettled += 1
                space.label[s] = (k, bArc[i], bNext[i])
                bucketTarget.append(Int32(j)); bucketCost.append(k)
                bucketNext.append(bucketFirst[s] ?? -1)
                bucketFirst[s] = Int32(bucketTarget.count - 1)
                var stalled = false
                for a in Int(ch.upStart[i])..<Int(ch.upStart[i + 1]) {
                    let x = Int(ch.upHead[a])
                    if bStamp[x] >= visited && bDist[x] + ch.upWeight[a] < k { stalled = true; break }
                }
                if stalled { continue }
                for a in Int(ch.downStart[i])..<Int(ch.downStart[i + 1]) {
                    let t = Int(ch.downTail[a])
                    let nd = k + ch.downWeight[a]
                    if bStamp[t] >= visited {
                        if bStamp[t] == settledMark || nd >= bDist[t] { continue }
                    } else {
                        bStamp[t] = visited
                    }
                    bDist[t] = nd; bArc[t] = ch.downArc[a]; bNext[t] = s
                    heap.push(nd, Int32(t))
                }
            }
            spaces.append(space)
        }

        let edgeLength = graph.storage.edgeDistance
        var memo: [Int32: Double] = [:]
        var out: [(cells: [TravelMatrix.Cell?], settled: Int)] = []
        for from in sources {
            // Direct same-edge offers first (as `OneToManySearch`).
            var directCost = [Double](repeating: .infinity, count: m)
            var directMeters = [Double](repeating: 0, count: m)
            if from.node == nil {
                for (j, to) in targets.enumerated() where to.node == nil && to.edge == from.edge {
                    if to.distanceAlong >= from.distanceAlong,
                       let w = graph.directedWeight(Int32(2 * from.edge), vehicle: vehicle, options: options) {
                        let c = (to.fraction - from.fraction) * w
                        if c < directCost[j] { directCost[j] = c; directMeters[j] = to.distanceAlong - from.distanceAlong }
                    }
                    if to.distanceAlong <= from.distanceAlong,
                       let w = graph.directedWeight(Int32(2 * from.edge + 1), vehicle: vehicle, options: options) {
                        let c = (from.fraction - to.fraction) * w
                        if c < directCost[j] { directCost[j] = c; directMeters[j] = from.distanceAlong - to.distanceAlong }
                    }
                }
            }

            ws.begin()
            let fDist = ws.fDist, fStamp = ws.fStamp, fArc = ws.fArc, fPrev = ws.fPrev, heap = ws.fHeap
            let visited = ws.visited, settledMark = ws.settled
            func seed(_ s: Int32, _ cost: Double, _ code: Int32) {
                let i = Int(s)
                if fStamp[i] >= visited && fDist[i] <= cost { return }
                fStamp[i] = visited; fDist[i] = cost; fArc[i] = code; fPrev[i] = -1
                heap.push(cost, s)
            }
            if let a = from.node {
                seed(Int32(a), 0, -1)
            } else {
                let e = Int32(from.edge)
                if let w = graph.directedWeight(2 * e, vehicle: vehicle, options: options) {
                    seed(idx.arrivalOfDirEdge[Int(2 * e)], (1 - from.fraction) * w, -2 - 2 * e)
                }
                if let w = graph.directedWeight(2 * e + 1, vehicle: vehicle, options: options) {
                    seed(idx.arrivalOfDirEdge[Int(2 * e + 1)], from.fraction * w, -2 - (2 * e + 1))
                }
            }
            var best = [Double](repeating: .infinity, count: m)
            var meet = [Int32](repeating: -1, count: m)
            var found = 0
            var settled = 0
            while heap.count > 0 {
                let (k, s) = heap.pop()
                let i = Int(s)
                if fStamp[i] == settledMark || k > fDist[i] { continue }
                if found == m, k >= best.max()! { break }
                fStamp[i] = settledMark
                settled += 1
                var entry = bucketFirst[s] ?? -1
                while entry >= 0 {
                    let j = Int(bucketTarget[Int(entry)])
                    let c = k + bucketCost[Int(entry)]
                    if c < best[j] {
                        if best[j] == .infinity { found += 1 }
                        best[j] = c; meet[j] = s
                    }
                    entry = bucketNext[Int(entry)]
                }
                var stalled = false
                for a in Int(ch.downStart[i])..<Int(ch.downStart[i + 1]) {
                    let x = Int(ch.downTail[a])
                    if fStamp[x] >= visited && fDist[x] + ch.downWeight[a] < k { stalled = true; break }
                }
                if stalled { continue }
                for a in Int(ch.upStart[i])..<Int(ch.upStart[i + 1]) {
                    let h = Int(ch.upHead[a])
                    let nd = k + ch.upWeight[a]
                    if fStamp[h] >= visited {
                        if fStamp[h] == settledMark || nd >= fDist[h] { continue }
                    } else {
                        fStamp[h] = visited
                    }
                    fDist[h] = nd; fArc[h] = ch.upArc[a]; fPrev[h] = s
                    heap.push(nd, Int32(h))
                }
            }

            var cells: [TravelMatrix.Cell?] = []
            cells.reserveCapacity(m)
            for (j, to) in targets.enumerated() {
                var cell: TravelMatrix.Cell? = directCost[j] < .infinity
                    ? TravelMatrix.Cell(seconds: directCost[j], meters: directMeters[j]) : nil
                if meet[j] >= 0, let path = path(meet: meet[j], cost: best[j], ws: ws, space: spaces[j], from: from,
                                                  to: to, edgeLength: edgeLength, memo: &memo),
                   path.seconds < directCost[j] {
                    cell = path
                }
                cells.append(cell)
            }
            out.append((cells, settled))
        }
        if !out.isEmpty { out[0].settled += backwardSettled }
        return out
    }

    /// The cell of the path through `meet`: seconds = its cost as the hierarchy sums it (`best`), metres = the
    /// partial start and end pieces plus each arc's length, memoized per shortcut over the whole matrix (paths
    /// share most of their upper arcs), so a cell costs its number of top-level arcs, not its number of edges.
    func path(meet: Int32, cost: Double, ws: CHWorkspace, space: Space, from: Snap, to: Snap,
              edgeLength: StoredArray<Double>, memo: inout [Int32: Double]) -> TravelMatrix.Cell? {
        var meters = 0.0
        var s = meet
        var depth = 0
        let limit = ch.stateCount + 1
        while ws.fArc[Int(s)] >= 0 {
            meters += arcMeters(ws.fArc[Int(s)], edgeLength, &memo)
            s = ws.fPrev[Int(s)]
            depth += 1
            if depth > limit { return nil }
        }
        let startCode = ws.fArc[Int(s)]
        s = meet
        guard var label = space.label[s] else { return nil }
        while label.arc >= 0 {
            meters += arcMeters(label.arc, edgeLength, &memo)
            s = label.next
            guard let next = space.label[s] else { return nil }
            label = next
            depth += 1
            if depth > 2 * limit { return nil }
        }
        let endCode = label.arc
        if startCode <= -2 {
            let d = -2 - startCode, e = Int(d >> 1)
            meters += d & 1 == 0 ? edgeLength[e] - from.distanceAlong : from.distanceAlong
        }
        if endCode <= -2 {
            let d = -2 - endCode, e = Int(d >> 1)
            meters += d & 1 == 0 ? to.distanceAlong : edgeLength[e] - to.distanceAlong
        }
        return TravelMatrix.Cell(seconds: cost, meters: meters)
    }

    /// Metres of an arc's original edges (recursion depth ≤ the hierarchy's unpacking depth).
    func arcMeters(_ a: Int32, _ edgeLength: StoredArray<Double>, _ memo: inout [Int32: Double]) -> Double {
        let f = ch.arcFirst[Int(a)]
        if f < 0 { return edgeLength[Int(ch.arcSecond[Int(a)] >> 1)] }
        if let m = memo[a] { return m }
        let m = arcMeters(f, edgeLength, &memo) + arcMeters(ch.arcSecond[Int(a)], edgeLength, &memo)
        memo[a] = m
        return m
    }
}
