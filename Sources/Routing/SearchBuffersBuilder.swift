import ArrayBlob
import Platform

extension SearchBuffers.Stored {
    /// Derives the search index of a validated `s` (O(n) plus one SCC pass per vehicle): what the importer stores
    /// with the graph, and what `RoadGraph.validate()` compares a stored index with.
    static func build(_ s: RoadGraph.Storage, minNetworkSize: Int) -> SearchBuffers.Stored {
        let n = s.nodeCount, e = s.edgeCount
        let vehicles = Vehicle.allCases.count

        // Adjacency.
        var adjStart = [Int32](repeating: 0, count: n + 1)
        for i in 0..<e {
            adjStart[Int(s.edgeBaseNode[i]) + 1] += 1
            adjStart[Int(s.edgeAdjNode[i]) + 1] += 1
        }
        for v in 0..<n { adjStart[v + 1] += adjStart[v] }
        var adjDirEdge = [Int32](repeating: 0, count: 2 * e)
        var fill = [Int32](repeating: 0, count: n)
        for i in 0..<e {
            let b = Int(s.edgeBaseNode[i]), a = Int(s.edgeAdjNode[i])
            adjDirEdge[Int(adjStart[b] + fill[b])] = Int32(2 * i); fill[b] += 1
            adjDirEdge[Int(adjStart[a] + fill[a])] = Int32(2 * i + 1); fill[a] += 1
        }

        // Edge-based states at via nodes: one per directed edge arriving there.
        @inline(__always) func head(_ d: Int32) -> Int32 {
            d & 1 == 0 ? s.edgeAdjNode[Int(d >> 1)] : s.edgeBaseNode[Int(d >> 1)]
        }
        var isVia = [Bool](repeating: false, count: n)
        for d in s.turnFromEdge { isVia[Int(head(d))] = true }
        var arrivalOfDirEdge = [Int32](repeating: 0, count: 2 * e)
        var extraNode: [Int32] = [], extraIn: [Int32] = []
        for d in 0..<(2 * e) {
            let h = head(Int32(d))
            if isVia[Int(h)] {
                arrivalOfDirEdge[d] = Int32(n + extraNode.count)
                extraNode.append(h)
                extraIn.append(Int32(d))
            } else {
                arrivalOfDirEdge[d] = h
            }
        }
        let extra = extraNode.count
        let t = s.turnFromEdge.count
        var turnStart = [Int32](repeating: 0, count: extra + 1)
        for d in s.turnFromEdge { turnStart[Int(arrivalOfDirEdge[Int(d)]) - n + 1] += 1 }
        for i in 0..<extra { turnStart[i + 1] += turnStart[i] }
        var turnOut = [Int32](repeating: 0, count: t), turnKind = [UInt8](repeating: 0, count: t)
        var turnMask = [UInt8](repeating: 0, count: t)
        var tfill = [Int32](repeating: 0, count: extra)
        for i in 0..<t {
            let st = Int(arrivalOfDirEdge[Int(s.turnFromEdge[i])]) - n
            let pos = Int(turnStart[st] + tfill[st]); tfill[st] += 1
            turnOut[pos] = s.turnToEdge[i]
            turnKind[pos] = s.turnKind[i]
            turnMask[pos] = s.turnVehicles[i]
        }

        // Slot arrays.
        var adjArrival = [Int32](repeating: 0, count: 2 * e), adjSpecial = [UInt8](repeating: 0, count: 2 * e)
        var weights = [[Double]](repeating: [Double](repeating: .infinity, count: 2 * e), count: vehicles)
        var maxSpeed = [Double](repeating: 1, count: vehicles)
        var usableSpecial = [UInt8](repeating: 0, count: vehicles)
        for slot in 0..<(2 * e) {
            let d = adjDirEdge[slot]
            let ei = Int(d >> 1)
            adjArrival[slot] = arrivalOfDirEdge[Int(d)]
            var special = s.edgeFlags[ei] & (EdgeFlag.ferry | EdgeFlag.toll)
            if s.edgeMaxWeight[ei] != 0 { special |= 0x80 }
            adjSpecial[slot] = special
            for v in 0..<vehicles {
                let bit = UInt16(1) << UInt16(2 * v + Int(d & 1))
                let kmh = Double(s.edgeSpeed[ei * vehicles + v])
                if s.edgeAccess[ei] & bit != 0 && kmh > 0 {
                    weights[v][slot] = s.edgeDistance[ei] * 3.6 / kmh
                    maxSpeed[v] = max(maxSpeed[v], kmh / 3.6)
                    usableSpecial[v] |= special
                }
            }
        }

        // Planar coordinates.
        var maxAbsLat = 0.0
        for i in 0..<n { maxAbsLat = max(maxAbsLat, abs(Double(s.nodeLatE7[i]) / 1e7)) }
        for i in 0..<s.pillarLatE7.count { maxAbsLat = max(maxAbsLat, abs(Double(s.pillarLatE7[i]) / 1e7)) }
        let yScale = Geo.metresPerDegree
        let xScale = yScale * cos(min(89, maxAbsLat) * Double.pi / 180)
        var nodeX = [Double](repeating: 0, count: n), nodeY = [Double](repeating: 0, count: n)
        for i in 0..<n {
            nodeX[i] = Double(s.nodeLonE7[i]) / 1e7 * xScale
            nodeY[i] = Double(s.nodeLatE7[i]) / 1e7 * yScale
        }

        // FNV-1a over each vehicle's slot weights (bit patterns) and arrivals, then the turn-restriction entries.
        let weightChecksum = weights.map { w -> UInt64 in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            @inline(__always) func mix(_ x: UInt64) { h = (h ^ x) &* 0x100_0000_01b3 }
            mix(UInt64(n)); mix(UInt64(e)); mix(UInt64(n + extra))
            for slot in 0..<(2 * e) {
                mix(w[slot].bitPattern)
                mix(UInt64(UInt32(bitPattern: adjArrival[slot])))
            }
            for i in 0..<t {
                mix(UInt64(UInt32(bitPattern: turnOut[i])) << 16 | UInt64(turnKind[i]) << 8 | UInt64(turnMask[i]))
            }
            return h
        }

        let subnetworks = adjStart.withUnsafeBufferPointer { start in
            adjDirEdge.withUnsafeBufferPointer { dir in
                Subnetworks.compute(s, adjStart: start.baseAddress!, adjDirEdge: dir.baseAddress ?? start.baseAddress!,
                                    minNetworkSize: minNetworkSize)
            }
        }
        return SearchBuffers.Stored(
            stateCount: n + extra,
            adjStart: StoredArray(adjStart), adjDirEdge: StoredArray(adjDirEdge), adjArrival: StoredArray(adjArrival),
            adjSpecial: StoredArray(adjSpecial), adjWeight: weights.map { StoredArray($0) },
            arrivalOfDirEdge: StoredArray(arrivalOfDirEdge), extraStateNode: StoredArray(extraNode),
            extraStateInEdge: StoredArray(extraIn), turnStart: StoredArray(turnStart), turnOut: StoredArray(turnOut),
            turnKind: StoredArray(turnKind), turnMask: StoredArray(turnMask),
            nodeX: StoredArray(nodeX), nodeY: StoredArray(nodeY), xScale: xScale, yScale: yScale,
            maxSpeed: maxSpeed, weightChecksum: weightChecksum, usableSpecial: usableSpecial,
            grid: SegmentGrid.build(s), subnetworks: subnetworks)
    }
}
