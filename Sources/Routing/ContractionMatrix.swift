/// `TravelMatrix` through a `ContractionHierarchy`: many-to-many with buckets. One backward upward search per
/// distinct destination leaves (destination, cost) in a bucket at every state it settles; one forward upward search
/// per distinct source scans the buckets of the states it settles (best meeting state per destination). Each
/// cell's path is then unpacked into original directed edges and its seconds and metres re-added in the order
/// `OneToManySearch` adds them, so a cell equals the Dijkstra's whenever both pick the same path (ties: see
/// ContractionQuery.swift). Seeds are `OneToManySearch`'s (no bearings); the same-edge direct piece is offered
/// first and kept unless a path is strictly faster, as there.
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
        var buckets: [Int32: [(target: Int, cost: Double)]] = [:]
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
                buckets[s, default: []].append((j, k))
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
                if let bucket = buckets[s] {
                    for (j, bd) in bucket {
                        let c = k + bd
                        if c < best[j] {
                            if best[j] == .infinity { found += 1 }
                            best[j] = c; meet[j] = s
                        }
                    }
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
                if meet[j] >= 0, let path = path(meet: meet[j], ws: ws, space: spaces[j], from: from, to: to,
                                                  edgeLength: edgeLength),
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

    /// The unpacked path through `meet`, its seconds and metres summed as `OneToManySearch` sums them.
    func path(meet: Int32, ws: CHWorkspace, space: Space, from: Snap, to: Snap,
              edgeLength: [Double]) -> TravelMatrix.Cell? {
        var arcs: [Int32] = []
        var s = meet
        while ws.fArc[Int(s)] >= 0 { arcs.append(ws.fArc[Int(s)]); s = ws.fPrev[Int(s)] }
        let startCode = ws.fArc[Int(s)]
        arcs.reverse()
        s = meet
        guard var label = space.label[s] else { return nil }
        while label.arc >= 0 {
            arcs.append(label.arc)
            s = label.next
            guard let next = space.label[s] else { return nil }
            label = next
        }
        let endCode = label.arc
        var edges: [Int32] = []
        guard graph.unpack(ch, arcs: arcs, into: &edges) else { return nil }
        var g = 0.0, meters = 0.0
        if startCode <= -2 {
            let d = -2 - startCode, e = Int(d >> 1)
            let w = graph.directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            if d & 1 == 0 {
                g = (1 - from.fraction) * w; meters = edgeLength[e] - from.distanceAlong
            } else {
                g = from.fraction * w; meters = from.distanceAlong
            }
        }
        for d in edges {
            g += graph.directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            meters += edgeLength[Int(d >> 1)]
        }
        if endCode <= -2 {
            let d = -2 - endCode, e = Int(d >> 1)
            let w = graph.directedWeight(d, vehicle: vehicle, options: options) ?? .infinity
            if d & 1 == 0 {
                g += to.fraction * w; meters += to.distanceAlong
            } else {
                g += (1 - to.fraction) * w; meters += edgeLength[e] - to.distanceAlong
            }
        }
        return TravelMatrix.Cell(seconds: g, meters: meters)
    }
}
