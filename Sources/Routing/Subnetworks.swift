import ArrayBlob

/// Subnetwork removal's result (`RoadGraph.isSnappable`): per vehicle, the strongly connected components of the
/// usable directed edges (finite slot weight = access bit and speed > 0, so one-way directions are respected; turn
/// restrictions ignored), reduced to one flag bit per edge and vehicle. Computed at import (`compute`) for the
/// graph's `minNetworkSize` and stored with its search index.
struct Subnetworks: Sendable, Equatable {
    /// The `minNetworkSize` the flags are for.
    let minNetworkSize: Int
    /// Per edge: bit `vehicle.rawValue` set when the edge is usable by the vehicle and not in a small subnetwork.
    let snappable: StoredArray<UInt8>
    /// Per vehicle: usable edges excluded from snapping; nodes of the largest strongly connected component.
    let unsnappableEdges: [Int]
    let largestComponent: [Int]

    func hasConsistentCounts(edgeCount: Int) -> Bool {
        snappable.count == edgeCount && unsnappableEdges.count == Vehicle.allCases.count
            && largestComponent.count == Vehicle.allCases.count
    }

    /// The subnetworks of `s` whose CSR adjacency is `adjStart` / `adjDirEdge` (`SearchBuffers.Stored`).
    static func compute(_ s: RoadGraph.Storage, adjStart: UnsafePointer<Int32>, adjDirEdge: UnsafePointer<Int32>,
                        minNetworkSize: Int) -> Subnetworks {
        let n = s.nodeCount, e = s.edgeCount
        let vehicles = Vehicle.allCases.count
        // Head node of each slot, bit v set when vehicle v may use it (at least one element so the buffers' base
        // addresses are never nil).
        var slotHead = [Int32](repeating: 0, count: max(1, 2 * e))
        var slotUsable = [UInt8](repeating: 0, count: max(1, 2 * e))
        for slot in 0..<(2 * e) {
            let d = adjDirEdge[slot]
            let ei = Int(d >> 1)
            slotHead[slot] = d & 1 == 0 ? s.edgeAdjNode[ei] : s.edgeBaseNode[ei]
            for v in 0..<vehicles {
                let bit = UInt16(1) << UInt16(2 * v + Int(d & 1))
                if s.edgeAccess[ei] & bit != 0 && s.edgeSpeed[ei * vehicles + v] > 0 {
                    slotUsable[slot] |= UInt8(1) << UInt8(v)
                }
            }
        }
        var snappable = [UInt8](repeating: 0, count: e)
        var unsnappable = [Int](repeating: 0, count: vehicles)
        var largest = [Int](repeating: 0, count: vehicles)
        let scc = StrongComponents(nodeCount: n)
        for v in 0..<vehicles {
            slotHead.withUnsafeBufferPointer { head in
                slotUsable.withUnsafeBufferPointer { usable in
                    scc.run(adjStart: adjStart, slotHead: head.baseAddress!, slotUsable: usable.baseAddress!,
                            bit: UInt8(1) << UInt8(v))
                }
            }
            let maxSize = Int(scc.size.max() ?? 0)
            largest[v] = maxSize
            let bit = UInt8(1) << UInt8(v)
            let usableMask = UInt16(3) << UInt16(2 * v)
            let comp = scc.component
            scc.size.withUnsafeBufferPointer { size in
                func kept(_ node: Int32) -> Bool {
                    let c = Int(size[Int(comp[Int(node)])])
                    return c >= minNetworkSize || c == maxSize
                }
                for ei in 0..<e {
                    guard s.edgeAccess[ei] & usableMask != 0, s.edgeSpeed[ei * vehicles + v] > 0 else { continue }
                    if kept(s.edgeBaseNode[ei]) || kept(s.edgeAdjNode[ei]) {
                        snappable[ei] |= bit
                    } else {
                        unsnappable[v] += 1
                    }
                }
            }
        }
        return Subnetworks(minNetworkSize: minNetworkSize, snappable: StoredArray(snappable),
                           unsnappableEdges: unsnappable, largestComponent: largest)
    }
}
