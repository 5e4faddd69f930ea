import ArrayBlob

/// A contraction hierarchy (Geisberger et al. 2008) of one vehicle's **search-state graph**: the states are the
/// `SearchBuffers` states (one per graph node, plus one per arriving directed edge at turn-restriction via nodes), the
/// arcs are the moves the A* makes (state → state reached by a directed edge the vehicle may travel, restricted
/// turns left out), so turn restrictions stay exactly as forbidden as in `searchLeg`. Built at import
/// (`ContractionHierarchy.build`), stored as flat arrays (`serialized()`, an `ArrayBlob`), queried by
/// `RoadGraph.searchLegCH` (ContractionQuery.swift).
///
/// Build: states contracted one by one in the order of a lazily updated priority
/// `2 × edge difference + deleted neighbours + level` (edge difference = shortcuts added − arcs removed; deleted
/// neighbours = neighbours already contracted; level = hierarchy depth). Lazy: a state's edge difference is
/// simulated at start and again when it comes out of the queue (back in if no longer the minimum); contracting a
/// state only refreshes its neighbours' deleted-neighbour and level terms (`simulateNeighbours` re-simulates them
/// too: on the whole city 15 % fewer arcs and settled states, but a 2× slower build). A shortcut u → w is added for u → v → w
/// unless a bounded witness search (Dijkstra from u avoiding v, over uncontracted states, at most
/// `witnessSettleLimit` states settled, `simulationSettleLimit` while estimating priorities) finds a path no
/// longer than it; an unfinished witness search only adds shortcuts that are not needed, never loses a distance.
///
/// Storage: per state its rank; the upward arcs of each state (CSR `upStart`/`upHead`/`upWeight`/`upArc`: arcs s →
/// h with rank h > rank s) for forward searches and the downward ones (`downStart`/`downTail`/`downWeight`/
/// `downArc`: arcs t → s with rank t > rank s) for backward searches; per arc its unpacking (`arcFirst` = -1 and
/// `arcSecond` = the original directed edge, or the two arcs a shortcut replaces). Weights are seconds as `Double`,
/// exactly the A*'s slot weights (a shortcut's = the sum of its two arcs).
public final class ContractionHierarchy: @unchecked Sendable {
    public let vehicle: Vehicle
    /// The graph it was built for: node, edge and state counts and a checksum of the vehicle's slot weights and the
    /// turn restrictions (`RoadGraph.attaching` rejects a hierarchy that does not match).
    public let nodeCount: Int
    public let edgeCount: Int
    public let stateCount: Int
    public let checksum: UInt64
    let rank: StoredArray<Int32>
    let upStart: StoredArray<Int32>
    let upHead: StoredArray<Int32>
    let upWeight: StoredArray<Double>
    let upArc: StoredArray<Int32>
    let downStart: StoredArray<Int32>
    let downTail: StoredArray<Int32>
    let downWeight: StoredArray<Double>
    let downArc: StoredArray<Int32>
    let arcFirst: StoredArray<Int32>
    let arcSecond: StoredArray<Int32>

    /// Whether the arrays are a mapped file's pages (`init(region:)` of a mapped dataset section).
    public var isMapped: Bool { upHead.isMapped && arcFirst.isMapped }

    /// Arcs (original moves + shortcuts).
    public var arcCount: Int { arcFirst.count }
    public var shortcutCount: Int { arcFirst.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) } }

    init(vehicle: Vehicle, nodeCount: Int, edgeCount: Int, stateCount: Int, checksum: UInt64, rank: StoredArray<Int32>,
         upStart: StoredArray<Int32>, upHead: StoredArray<Int32>, upWeight: StoredArray<Double>, upArc: StoredArray<Int32>,
         downStart: StoredArray<Int32>, downTail: StoredArray<Int32>, downWeight: StoredArray<Double>,
         downArc: StoredArray<Int32>, arcFirst: StoredArray<Int32>, arcSecond: StoredArray<Int32>) {
        self.vehicle = vehicle
        self.nodeCount = nodeCount
        self.edgeCount = edgeCount
        self.stateCount = stateCount
        self.checksum = checksum
        self.rank = rank
        self.upStart = upStart; self.upHead = upHead; self.upWeight = upWeight; self.upArc = upArc
        self.downStart = downStart; self.downTail = downTail; self.downWeight = downWeight; self.downArc = downArc
        self.arcFirst = arcFirst; self.arcSecond = arcSecond
    }

    /// Bytes of the stored arrays (what `serialized()` holds, headers aside).
    public var byteCount: Int {
        4 * (rank.count + upStart.count + upHead.count + upArc.count + downStart.count + downTail.count
             + downArc.count + arcFirst.count + arcSecond.count) + 8 * (upWeight.count + downWeight.count)
    }

    public static let defaultWitnessSettleLimit = 500
    public static let defaultSimulationSettleLimit = 100

    /// Contracts the state graph of `graph` for `vehicle` (no route options: every edge the vehicle may use).
    public static func build(_ graph: RoadGraph, vehicle: Vehicle,
                             witnessSettleLimit: Int = defaultWitnessSettleLimit,
                             simulationSettleLimit: Int = defaultSimulationSettleLimit,
                             simulateNeighbours: Bool = false) -> ContractionHierarchy {
        let idx = graph.index
        let n = idx.nodeCount
        let S = idx.stateCount
        let vi = vehicle.rawValue
        let vBit = UInt8(1) << UInt8(vi)
        let W = idx.adjWeight[vi]

        // Arcs: tail, head, weight, unpacking.
        var tail: [Int32] = [], head: [Int32] = [], weight: [Double] = []
        var first: [Int32] = [], second: [Int32] = []
        tail.reserveCapacity(2 * idx.edgeCount); head.reserveCapacity(2 * idx.edgeCount)
        weight.reserveCapacity(2 * idx.edgeCount)
        first.reserveCapacity(2 * idx.edgeCount); second.reserveCapacity(2 * idx.edgeCount)
        var outArcs = [[Int32]](repeating: [], count: S)
        var inArcs = [[Int32]](repeating: [], count: S)

        // Original moves; parallel moves between the same two states keep the first of the smallest weight in slot
        // order (the one the A* keeps: it only replaces a label by a strictly smaller one).
        for s in 0..<S {
            let node = Int(idx.stateNode(Int32(s)))
            for slot in Int(idx.adjStart[node])..<Int(idx.adjStart[node + 1]) {
                let w = W[slot]
                if w == .infinity { continue }
                let d = idx.adjDirEdge[slot]
                if s >= n && !idx.turnAllowed(state: s, out: d, vehicleBit: vBit) { continue }
                let t = idx.adjArrival[slot]
                if Int(t) == s { continue }
                var merged = false
                for a in outArcs[s] where head[Int(a)] == t {
                    if w < weight[Int(a)] { weight[Int(a)] = w; second[Int(a)] = d }
                    merged = true
                    break
                }
                if merged { continue }
                let a = Int32(tail.count)
                tail.append(Int32(s)); head.append(t); weight.append(w); first.append(-1); second.append(d)
                outArcs[s].append(a)
                inArcs[Int(t)].append(a)
            }
        }

        // Witness search state.
        var wDist = [Double](repeating: .infinity, count: S)
        var wStamp = [UInt32](repeating: 0, count: S)
        var wGen: UInt32 = 0
        let heap = SearchHeap()
        var contracted = [Bool](repeating: false, count: S)
        // Targets of the current witness search (`targetStamp[x] == wGen`), and how many are not settled yet.
        var targetStamp = [UInt32](repeating: 0, count: S)

        /// Dijkstra from `u` over uncontracted states without `v`, up to `maxCost` / `limit` settled states, or
        /// until the `targets` states marked in `targetStamp` are all settled.
        /// Afterwards `wStamp[x] == wGen` marks states with a tentative distance `wDist[x]` (a real path's length).
        func witness(from u: Int32, avoiding v: Int32, maxCost: Double, limit: Int, targets: Int) {
            heap.count = 0
            wDist[Int(u)] = 0; wStamp[Int(u)] = wGen
            heap.push(0, u)
            var settled = 0
            var remaining = targets
            while heap.count > 0 {
                let (k, x) = heap.pop()
                let xi = Int(x)
                if k > wDist[xi] { continue }
                if k > maxCost { break }
                if targetStamp[xi] == wGen {
                    targetStamp[xi] = 0
                    remaining -= 1
                    if remaining == 0 { break }
                }
                settled += 1
                if settled > limit { break }
                for a in outArcs[xi] {
                    let h = head[Int(a)]
                    if h == v { continue }
                    let nd = k + weight[Int(a)]
                    if nd > maxCost { continue }
                    let hi = Int(h)
                    if wStamp[hi] == wGen && wDist[hi] <= nd { continue }
                    wStamp[hi] = wGen; wDist[hi] = nd
                    heap.push(nd, h)
                }
            }
        }

        /// Shortcuts needed to contract `v` (added when `apply`).
        func contract(_ v: Int32, apply: Bool, limit: Int) -> Int {
            var count = 0
            let ins = inArcs[Int(v)], outs = outArcs[Int(v)]
            if ins.isEmpty || outs.isEmpty { return 0 }
            var maxOut = 0.0
            for b in outs { maxOut = max(maxOut, weight[Int(b)]) }
            for a in ins {
                let u = tail[Int(a)]
                let wa = weight[Int(a)]
                wGen &+= 1
                if wGen == 0 {
                    for i in 0..<S { wStamp[i] = 0; targetStamp[i] = 0 }
                    wGen = 1
                }
                var targets = 0
                for b in outs {
                    let w = Int(head[Int(b)])
                    if w != Int(u) && targetStamp[w] != wGen { targetStamp[w] = wGen; targets += 1 }
                }
                if targets == 0 { continue }
                witness(from: u, avoiding: v, maxCost: wa + maxOut, limit: limit, targets: targets)
                for b in outs {
                    let w = head[Int(b)]
                    if w == u { continue }
                    let c = wa + weight[Int(b)]
                    if wStamp[Int(w)] == wGen && wDist[Int(w)] <= c { continue }
                    count += 1
                    guard apply else { continue }
                    var merged = false
                    for x in outArcs[Int(u)] where head[Int(x)] == w {
                        if c < weight[Int(x)] { weight[Int(x)] = c; first[Int(x)] = a; second[Int(x)] = b }
                        merged = true
                        break
                    }
                    if merged { continue }
                    let s = Int32(tail.count)
                    tail.append(u); head.append(w); weight.append(c); first.append(a); second.append(b)
                    outArcs[Int(u)].append(s)
                    inArcs[Int(w)].append(s)
                }
            }
            return count
        }

        var deleted = [Int32](repeating: 0, count: S)
        var level = [Int32](repeating: 0, count: S)
        var priority = [Int32](repeating: 0, count: S)
        /// Edge difference of the last simulation of each state (neighbours only refresh the other terms).
        var edgeDifference = [Int32](repeating: 0, count: S)
        func computePriority(_ v: Int32) -> Int32 {
            let added = contract(v, apply: false, limit: simulationSettleLimit)
            let removed = inArcs[Int(v)].count + outArcs[Int(v)].count
            edgeDifference[Int(v)] = Int32(added - removed)
            return 2 * edgeDifference[Int(v)] + deleted[Int(v)] + level[Int(v)]
        }

        // Queue of (priority, state), lowest priority first and ties by state (a total order: the contraction
        // order is fixed by the priorities); lazy: stale entries (priority changed) are skipped.
        let queue = KeyHeap<EqualKeysByState>()
        for v in 0..<S {
            priority[v] = computePriority(Int32(v))
            queue.push(Double(priority[v]), Int32(v))
        }

        var rank = [Int32](repeating: 0, count: S)
        var upOf = [[Int32]](repeating: [], count: S)
        var downOf = [[Int32]](repeating: [], count: S)
        var order: Int32 = 0
        var neighbours: [Int32] = []
        while queue.count > 0 {
            let (p, v) = queue.pop()
            let vi = Int(v)
            if contracted[vi] || p != Double(priority[vi]) { continue }
            // Lazy update: re-evaluate; if no longer the minimum, put it back.
            let fresh = computePriority(v)
            if Double(fresh) != p, Double(fresh) > queue.minKey {
                priority[vi] = fresh
                queue.push(Double(fresh), v)
                continue
            }
            _ = contract(v, apply: true, limit: witnessSettleLimit)
            contracted[vi] = true
            rank[vi] = order; order += 1
            neighbours.removeAll(keepingCapacity: true)
            for a in inArcs[vi] {
                let u = Int(tail[Int(a)])
                if let k = outArcs[u].firstIndex(of: a) { outArcs[u].swapAt(k, outArcs[u].count - 1); outArcs[u].removeLast() }
                neighbours.append(Int32(u))
            }
            for b in outArcs[vi] {
                let w = Int(head[Int(b)])
                if let k = inArcs[w].firstIndex(of: b) { inArcs[w].swapAt(k, inArcs[w].count - 1); inArcs[w].removeLast() }
                neighbours.append(Int32(w))
            }
            upOf[vi] = outArcs[vi]; downOf[vi] = inArcs[vi]
            outArcs[vi] = []; inArcs[vi] = []
            neighbours.sort()
            var last: Int32 = -1
            for x in neighbours where x != last {
                last = x
                let xi = Int(x)
                if contracted[xi] { continue }
                deleted[xi] += 1
                level[xi] = max(level[xi], level[vi] + 1)
                priority[xi] = simulateNeighbours ? computePriority(x) : 2 * edgeDifference[xi] + deleted[xi] + level[xi]
                queue.push(Double(priority[xi]), x)
            }
        }

        // Flatten.
        var upStart = [Int32](repeating: 0, count: S + 1), downStart = [Int32](repeating: 0, count: S + 1)
        for s in 0..<S {
            upStart[s + 1] = upStart[s] + Int32(upOf[s].count)
            downStart[s + 1] = downStart[s] + Int32(downOf[s].count)
        }
        var upHead: [Int32] = [], upWeight: [Double] = [], upArc: [Int32] = []
        var downTail: [Int32] = [], downWeight: [Double] = [], downArc: [Int32] = []
        upHead.reserveCapacity(Int(upStart[S])); upWeight.reserveCapacity(Int(upStart[S])); upArc.reserveCapacity(Int(upStart[S]))
        downTail.reserveCapacity(Int(downStart[S])); downWeight.reserveCapacity(Int(downStart[S]))
        downArc.reserveCapacity(Int(downStart[S]))
        for s in 0..<S {
            for a in upOf[s] { upHead.append(head[Int(a)]); upWeight.append(weight[Int(a)]); upArc.append(a) }
            for a in downOf[s] { downTail.append(tail[Int(a)]); downWeight.append(weight[Int(a)]); downArc.append(a) }
        }
        return ContractionHierarchy(
            vehicle: vehicle, nodeCount: n, edgeCount: idx.edgeCount, stateCount: S,
            checksum: idx.stored.weightChecksum[vi], rank: StoredArray(rank),
            upStart: StoredArray(upStart), upHead: StoredArray(upHead), upWeight: StoredArray(upWeight),
            upArc: StoredArray(upArc), downStart: StoredArray(downStart), downTail: StoredArray(downTail),
            downWeight: StoredArray(downWeight), downArc: StoredArray(downArc),
            arcFirst: StoredArray(first), arcSecond: StoredArray(second))
    }

    /// Whether it was built for this graph (counts and the weight checksum the graph's index stores), O(1).
    func matches(_ graph: RoadGraph) -> Bool {
        let idx = graph.index
        return idx.nodeCount == nodeCount && idx.edgeCount == edgeCount && idx.stateCount == stateCount
            && idx.stored.weightChecksum[vehicle.rawValue] == checksum
    }
}

// MARK: - Serialization

extension ContractionHierarchy {
    static let magic = "VMCH"
    /// 3: read in place (the arrays 8-byte aligned, O(1) checks at load). 4: ArrayBlob head + body.
    static let version: UInt32 = 4

    /// One little-endian `ArrayBlob` of the flat arrays (a dataset's `road_graph_ch.<vehicle>` section).
    public func serialized() -> [UInt8] {
        var out = ArrayBlobWriter(magic: Self.magic, version: Self.version)
        out.append(UInt64(vehicle.rawValue)); out.append(UInt64(nodeCount)); out.append(UInt64(edgeCount))
        out.append(UInt64(stateCount)); out.append(checksum)
        out.append(rank)
        out.append(upStart); out.append(upHead); out.append(upWeight); out.append(upArc)
        out.append(downStart); out.append(downTail); out.append(downWeight); out.append(downArc)
        out.append(arcFirst); out.append(arcSecond)
        return out.bytes
    }

    /// Its section in a dataset file (`FileSections`).
    public static func sectionName(vehicle: Int) -> String { "road_graph_ch.\(vehicle)" }

    /// The hierarchy stored in `region` (a mapped dataset section), read in place: O(1) (magic, version and
    /// counts); `validate()` checks the values.
    public convenience init(region: ByteRegion) throws(RoadGraphError) {
        let read = Result { () throws(ArrayBlobReader.Malformed) -> ContractionHierarchy in
            var r = try ArrayBlobReader(region, magic: Self.magic, version: Self.version)
            guard let vehicle = Vehicle(rawValue: Int(truncatingIfNeeded: try r.value(UInt64.self))) else {
                throw ArrayBlobReader.Malformed(reason: "vehicle")
            }
            let n = Int(truncatingIfNeeded: try r.value(UInt64.self))
            let e = Int(truncatingIfNeeded: try r.value(UInt64.self))
            let s = Int(truncatingIfNeeded: try r.value(UInt64.self))
            let checksum = try r.value(UInt64.self)
            let rank: StoredArray<Int32> = try r.stored()
            let upStart: StoredArray<Int32> = try r.stored(), upHead: StoredArray<Int32> = try r.stored()
            let upWeight: StoredArray<Double> = try r.stored(), upArc: StoredArray<Int32> = try r.stored()
            let downStart: StoredArray<Int32> = try r.stored(), downTail: StoredArray<Int32> = try r.stored()
            let downWeight: StoredArray<Double> = try r.stored(), downArc: StoredArray<Int32> = try r.stored()
            let arcFirst: StoredArray<Int32> = try r.stored(), arcSecond: StoredArray<Int32> = try r.stored()
            guard r.isAtEnd else { throw ArrayBlobReader.Malformed(reason: "trailing bytes") }
            guard n >= 0, e >= 0, s >= n, rank.count == s, upStart.count == s + 1, downStart.count == s + 1,
                  Int(upStart[s]) == upHead.count, upWeight.count == upHead.count, upArc.count == upHead.count,
                  Int(downStart[s]) == downTail.count, downWeight.count == downTail.count,
                  downArc.count == downTail.count, arcSecond.count == arcFirst.count
            else { throw ArrayBlobReader.Malformed(reason: "inconsistent arrays") }
            return ContractionHierarchy(
                vehicle: vehicle, nodeCount: n, edgeCount: e, stateCount: s, checksum: checksum, rank: rank,
                upStart: upStart, upHead: upHead, upWeight: upWeight, upArc: upArc,
                downStart: downStart, downTail: downTail, downWeight: downWeight, downArc: downArc,
                arcFirst: arcFirst, arcSecond: arcSecond)
        }
        switch read {
        case .success(let ch):
            self.init(vehicle: ch.vehicle, nodeCount: ch.nodeCount, edgeCount: ch.edgeCount, stateCount: ch.stateCount,
                      checksum: ch.checksum, rank: ch.rank, upStart: ch.upStart, upHead: ch.upHead,
                      upWeight: ch.upWeight, upArc: ch.upArc, downStart: ch.downStart, downTail: ch.downTail,
                      downWeight: ch.downWeight, downArc: ch.downArc, arcFirst: ch.arcFirst, arcSecond: ch.arcSecond)
        case .failure(let error):
            throw .invalidSerialization(error.reason)
        }
    }

    /// A copy of `bytes` (`serialized()`), fully checked (`validate()`).
    public convenience init(serialized bytes: [UInt8]) throws(RoadGraphError) {
        try self.init(region: ByteRegion(copying: bytes))
        try validate()
    }

    /// Every index in range (O(arcs)): CSR starts ordered from 0, heads and tails states, arc references arcs or
    /// (unpacked) directed edges. Not run when a dataset section is mapped (the file's checksum covers it).
    public func validate() throws(RoadGraphError) {
        let s = stateCount, arcs = arcFirst.count, e = edgeCount
        let valid = upStart[0] == 0 && downStart[0] == 0
            && zip(upStart, upStart.dropFirst()).allSatisfy({ $0 <= $1 })
            && zip(downStart, downStart.dropFirst()).allSatisfy({ $0 <= $1 })
            && upHead.allSatisfy({ $0 >= 0 && Int($0) < s }) && downTail.allSatisfy({ $0 >= 0 && Int($0) < s })
            && upArc.allSatisfy({ $0 >= 0 && Int($0) < arcs }) && downArc.allSatisfy({ $0 >= 0 && Int($0) < arcs })
            && (0..<arcs).allSatisfy({ i in
                arcFirst[i] < 0 ? (arcSecond[i] >= 0 && Int(arcSecond[i]) < 2 * e)
                    : Int(arcFirst[i]) < arcs && arcSecond[i] >= 0 && Int(arcSecond[i]) < arcs
            })
        if !valid { throw .invalidStorage("contraction hierarchy: an index out of range") }
    }
}
