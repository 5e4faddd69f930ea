import ArrayBlob
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public enum RoadGraphError: Error, Sendable, Equatable {
    /// Array lengths or indexes are inconsistent (message names the array).
    case invalidStorage(String)
    /// `RoadGraph.Storage(serialized:)`: bad magic, version or truncated data.
    case invalidSerialization(String)
}

/// The routable road network. Immutable and `Sendable`: share one instance between threads; keep one
/// `RouterWorkspace` per thread.
///
/// Conventions: graph nodes `0..<nodeCount`, edges `0..<edgeCount` (undirected, base → adj as in the OSM way),
/// directed edge `d = 2e` runs base → adj and `d = 2e + 1` adj → base. Coordinates are stored in 1e-7 degrees
/// (`Int32`, OSM's own precision).
public struct RoadGraph: Sendable {
    /// The plain, persistable form: arrays only, written/read as BLOBs by the storage layer
    /// (or as one blob with `serialized()` / `init(serialized:)`). Everything else is derived at `init`.
    public struct Storage: Sendable, Equatable {
        /// Graph node coordinates, 1e-7 degrees. Count = nodeCount.
        public var nodeLatE7: [Int32] = []
        public var nodeLonE7: [Int32] = []
        /// OSM id of each graph node.
        public var nodeOSMID: [Int64] = []
        /// Count = edgeCount for every `edge*` array except `edgeSpeed` (edgeCount × 5, vehicle-major per edge:
        /// index `e * 5 + vehicle.rawValue`, km/h, 0 = no access) and `edgeGeometryStart` (edgeCount + 1).
        public var edgeBaseNode: [Int32] = []
        public var edgeAdjNode: [Int32] = []
        /// Length in metres (haversine along the geometry).
        public var edgeDistance: [Double] = []
        public var edgeWayID: [Int64] = []
        /// Index into `names` ("" = unnamed).
        public var edgeNameIndex: [Int32] = []
        /// `RoadClass.rawValue`.
        public var edgeRoadClass: [UInt8] = []
        /// `EdgeFlag` bits (ferry, toll, roundabout).
        public var edgeFlags: [UInt8] = []
        /// Bit `2 * vehicle.rawValue` = forward (base → adj) allowed, bit `2 * vehicle.rawValue + 1` = backward.
        public var edgeAccess: [UInt16] = []
        public var edgeSpeed: [UInt8] = []
        /// `maxweight` in units of 10 kg; 0 = none.
        public var edgeMaxWeight: [UInt16] = []
        /// Pillar (intermediate geometry point) range of edge e: `edgeGeometryStart[e] ..< edgeGeometryStart[e+1]`,
        /// ordered base → adj.
        public var edgeGeometryStart: [Int32] = []
        public var pillarLatE7: [Int32] = []
        public var pillarLonE7: [Int32] = []
        public var names: [String] = []
        /// Turn restrictions: arriving directed edge → leaving directed edge at the shared node,
        /// `TurnRestriction.Kind.rawValue`, `VehicleSet.rawValue`.
        public var turnFromEdge: [Int32] = []
        public var turnToEdge: [Int32] = []
        public var turnKind: [UInt8] = []
        public var turnVehicles: [UInt8] = []

        public init() {}

        public var nodeCount: Int { nodeLatE7.count }
        public var edgeCount: Int { edgeBaseNode.count }

        public func validate() throws(RoadGraphError) {
            let n = nodeCount, e = edgeCount
            func check(_ ok: Bool, _ what: String) throws(RoadGraphError) {
                if !ok { throw .invalidStorage(what) }
            }
            try check(nodeLonE7.count == n && nodeOSMID.count == n, "node arrays")
            try check(edgeAdjNode.count == e && edgeDistance.count == e && edgeWayID.count == e
                      && edgeNameIndex.count == e && edgeRoadClass.count == e && edgeFlags.count == e
                      && edgeAccess.count == e && edgeMaxWeight.count == e, "edge arrays")
            try check(edgeSpeed.count == e * Vehicle.allCases.count, "edgeSpeed")
            try check(edgeGeometryStart.count == e + 1 && edgeGeometryStart.first == 0
                      && Int(edgeGeometryStart.last!) == pillarLatE7.count && pillarLonE7.count == pillarLatE7.count,
                      "geometry")
            for i in 0..<e {
                try check(edgeBaseNode[i] >= 0 && Int(edgeBaseNode[i]) < n && edgeAdjNode[i] >= 0
                          && Int(edgeAdjNode[i]) < n, "edge node index")
                try check(edgeGeometryStart[i] <= edgeGeometryStart[i + 1], "edgeGeometryStart order")
                try check(edgeNameIndex[i] >= 0 && Int(edgeNameIndex[i]) < names.count, "edgeNameIndex")
                try check(edgeDistance[i] >= 0 && edgeDistance[i].isFinite, "edgeDistance")
                try check(edgeRoadClass[i] < UInt8(RoadClass.allCases.count), "edgeRoadClass")
            }
            let t = turnFromEdge.count
            try check(turnToEdge.count == t && turnKind.count == t && turnVehicles.count == t, "turn arrays")
            for i in 0..<t {
                let a = turnFromEdge[i], b = turnToEdge[i]
                try check(a >= 0 && Int(a) < 2 * e && b >= 0 && Int(b) < 2 * e && turnKind[i] <= 1, "turn index")
                let head = a & 1 == 0 ? edgeAdjNode[Int(a >> 1)] : edgeBaseNode[Int(a >> 1)]
                let tail = b & 1 == 0 ? edgeBaseNode[Int(b >> 1)] : edgeAdjNode[Int(b >> 1)]
                try check(head == tail, "turn edges do not meet")
            }
        }
    }

    public let storage: Storage
    let index: SearchIndex
    /// Per vehicle (`Vehicle.rawValue`): the contraction hierarchy `Router` and `TravelMatrix` use when the route
    /// options allow (see `attaching(_:)`); nil = A* / Dijkstra only.
    var hierarchies = [ContractionHierarchy?](repeating: nil, count: Vehicle.allCases.count)
    /// Per vehicle: `adjSpecial` bits (ferry, toll, 0x80 = maxweight) of the slots it may use, set by `attaching`
    /// (an option that only concerns edges the vehicle never uses leaves the hierarchy usable).
    var usableSpecial = [UInt8](repeating: 0xFF, count: Vehicle.allCases.count)

    /// GraphHopper's `prepare.min_network_size` default: strongly connected components with fewer graph nodes
    /// than this are excluded from snapping (see `isSnappable(edge:vehicle:)`).
    public static let defaultMinNetworkSize = 200

    /// `minNetworkSize` only affects derived data (`isSnappable`); `storage` and serialization are unchanged.
    public init(storage: Storage, minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        try storage.validate()
        self.storage = storage
        self.index = SearchIndex(storage, minNetworkSize: minNetworkSize)
    }

    public var nodeCount: Int { storage.nodeCount }
    public var edgeCount: Int { storage.edgeCount }
    /// Number of search states (nodes plus one state per edge arriving at a turn-restriction via node).
    public var searchStateCount: Int { index.stateCount }

    public func coordinate(ofNode node: Int) -> GeoPoint {
        GeoPoint(Double(storage.nodeLatE7[node]) / 1e7, Double(storage.nodeLonE7[node]) / 1e7)
    }

    /// The full geometry of an edge, base → adj (both graph nodes included).
    public func edgeGeometry(_ edge: Int) -> [GeoPoint] {
        var pts = [coordinate(ofNode: Int(storage.edgeBaseNode[edge]))]
        for i in Int(storage.edgeGeometryStart[edge])..<Int(storage.edgeGeometryStart[edge + 1]) {
            pts.append(GeoPoint(Double(storage.pillarLatE7[i]) / 1e7, Double(storage.pillarLonE7[i]) / 1e7))
        }
        pts.append(coordinate(ofNode: Int(storage.edgeAdjNode[edge])))
        return pts
    }

    /// Subnetwork removal (after GraphHopper's `prepare.min_network_size`): whether `snap` may place a point on
    /// `edge` for `vehicle`. Per vehicle, the strongly connected components of the directed graph of the edge
    /// directions it may use (access bit and speed > 0) are computed at load; turn restrictions and route options
    /// (avoidances, truck weight) are ignored for this. An edge usable by the vehicle is snappable iff at least
    /// one of its end nodes lies in a component with ≥ `minNetworkSize` graph nodes (junctions and way ends, not
    /// pillars) or in a largest component (every component of the maximal size), so a small graph that is one
    /// piece stays snappable. Unsnappable edges stay routable (the search may still traverse them); they are just
    /// never a start or end point. False for edges the vehicle cannot use at all.
    public func isSnappable(edge: Int, vehicle: Vehicle) -> Bool {
        index.snappable[edge] & (1 << UInt8(vehicle.rawValue)) != 0
    }

    /// Per vehicle: edges it may use (in some direction) that subnetwork removal excludes from snapping, and the
    /// node count of its largest strongly connected component.
    public func subnetworkSummary(vehicle: Vehicle) -> (unsnappableEdges: Int, largestComponentNodes: Int) {
        (index.unsnappableEdges[vehicle.rawValue], index.largestComponent[vehicle.rawValue])
    }

    public func name(ofEdge edge: Int) -> String { storage.names[Int(storage.edgeNameIndex[edge])] }

    /// Whether `vehicle` may travel edge `edge` base → adj (`forward`) or adj → base.
    public func isAccessible(edge: Int, forward: Bool, vehicle: Vehicle) -> Bool {
        storage.edgeAccess[edge] & (1 << UInt16(2 * vehicle.rawValue + (forward ? 0 : 1))) != 0
    }

    /// Speed in km/h of `vehicle` on `edge` (0 when not allowed in either direction).
    public func speedKmh(edge: Int, vehicle: Vehicle) -> Double {
        Double(storage.edgeSpeed[edge * Vehicle.allCases.count + vehicle.rawValue])
    }

    /// Whether the options let `vehicle` use the edge at all (ferry/toll avoidance, truck weight).
    func optionsAllow(edge e: Int, vehicle: Vehicle, options: RouteOptions) -> Bool {
        let f = storage.edgeFlags[e]
        if options.avoidFerry && f & EdgeFlag.ferry != 0 { return false }
        if options.avoidToll && f & EdgeFlag.toll != 0 { return false }
        if vehicle == .truck, let cap = options.truckCapacityKg, storage.edgeMaxWeight[e] != 0,
           Int(storage.edgeMaxWeight[e]) * 10 < cap { return false }
        return true
    }

    /// Travel time in seconds of the directed edge for the vehicle, nil when not allowed (access or options).
    func directedWeight(_ d: Int32, vehicle: Vehicle, options: RouteOptions) -> Double? {
        let e = Int(d >> 1)
        guard isAccessible(edge: e, forward: d & 1 == 0, vehicle: vehicle),
              optionsAllow(edge: e, vehicle: vehicle, options: options) else { return nil }
        let kmh = speedKmh(edge: e, vehicle: vehicle)
        guard kmh > 0 else { return nil }
        return storage.edgeDistance[e] * 3.6 / kmh
    }
}

// MARK: - Serialization

extension RoadGraph.Storage {
    static let magic = "VMRG"
    static let version: UInt32 = 2

    /// One self-describing little-endian blob of all arrays (`ArrayBlobWriter`; alternative to storing
    /// each array as a BLOB).
    public func serialized() -> [UInt8] {
        var out = ArrayBlobWriter(magic: Self.magic, version: Self.version)
        out.append(nodeLatE7); out.append(nodeLonE7); out.append(nodeOSMID)
        out.append(edgeBaseNode); out.append(edgeAdjNode); out.append(edgeDistance); out.append(edgeWayID)
        out.append(edgeNameIndex); out.append(edgeRoadClass); out.append(edgeFlags); out.append(edgeAccess)
        out.append(edgeSpeed); out.append(edgeMaxWeight); out.append(edgeGeometryStart)
        out.append(pillarLatE7); out.append(pillarLonE7)
        out.append(turnFromEdge); out.append(turnToEdge); out.append(turnKind); out.append(turnVehicles)
        out.append(UInt64(names.count))
        for name in names { out.append(name) }
        return out.bytes
    }

    public init(serialized bytes: [UInt8]) throws(RoadGraphError) {
        self.init()
        // (`withUnsafeBytes` rethrows untyped errors: the reader's typed one comes back as a `Result`.)
        let read = bytes.withUnsafeBytes { raw in
            Result { () throws(ArrayBlobReader.Malformed) in
                var r = try ArrayBlobReader(raw, magic: Self.magic, version: Self.version)
                nodeLatE7 = try r.array(); nodeLonE7 = try r.array(); nodeOSMID = try r.array()
                edgeBaseNode = try r.array(); edgeAdjNode = try r.array(); edgeDistance = try r.array(); edgeWayID = try r.array()
                edgeNameIndex = try r.array(); edgeRoadClass = try r.array(); edgeFlags = try r.array(); edgeAccess = try r.array()
                edgeSpeed = try r.array(); edgeMaxWeight = try r.array(); edgeGeometryStart = try r.array()
                pillarLatE7 = try r.array(); pillarLonE7 = try r.array()
                turnFromEdge = try r.array(); turnToEdge = try r.array(); turnKind = try r.array(); turnVehicles = try r.array()
                guard let nameCount = Int(exactly: try r.value(UInt64.self)), nameCount < Int(Int32.max) else {
                    throw ArrayBlobReader.Malformed(reason: "names")
                }
                names.reserveCapacity(min(nameCount, raw.count))
                for _ in 0..<nameCount { names.append(try r.string()) }
                guard r.isAtEnd else { throw ArrayBlobReader.Malformed(reason: "trailing bytes") }
            }
        }
        if case .failure(let error) = read { throw .invalidSerialization(error.reason) }
    }
}

extension RoadGraph {
    /// Its section in a dataset file (`FileSections`).
    public static let sectionName = "road_graph"

    /// The graph stored in `region` (a mapped dataset section).
    public init(region: ByteRegion, minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        try self.init(serialized: Array(region.bytes), minNetworkSize: minNetworkSize)
    }

    public init(serialized bytes: [UInt8],
                minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        try self.init(storage: Storage(serialized: bytes), minNetworkSize: minNetworkSize)
    }
    public func serialized() -> [UInt8] { storage.serialized() }
}

// MARK: - Derived search structures

/// Immutable flat buffers derived from `Storage` at load time: adjacency (CSR), per-vehicle slot weights,
/// edge-based states at turn-restriction via nodes, planar node coordinates for the A* bound, spatial grid,
/// per-vehicle subnetwork (snappable) flags.
final class SearchIndex: @unchecked Sendable {
    let nodeCount: Int
    let edgeCount: Int
    let stateCount: Int
    /// CSR adjacency: slots `adjStart[v] ..< adjStart[v+1]` are the directed edges leaving v.
    let adjStart: UnsafeMutablePointer<Int32>
    let adjDirEdge: UnsafeMutablePointer<Int32>
    /// State reached by traversing the slot's directed edge.
    let adjArrival: UnsafeMutablePointer<Int32>
    /// `EdgeFlag.ferry | EdgeFlag.toll` plus 0x80 when the edge has a maxweight: slots needing an options check.
    let adjSpecial: UnsafeMutablePointer<UInt8>
    /// Per vehicle: travel time (s) of each slot, +infinity when not allowed.
    let adjWeight: [UnsafeMutablePointer<Double>]
    /// State reached by traversing directed edge d.
    let arrivalOfDirEdge: UnsafeMutablePointer<Int32>
    /// States ≥ nodeCount: their node and the directed edge they arrived by, and their restriction entries.
    let extraStateNode: UnsafeMutablePointer<Int32>
    let extraStateInEdge: UnsafeMutablePointer<Int32>
    let turnStart: UnsafeMutablePointer<Int32>
    let turnOut: UnsafeMutablePointer<Int32>
    let turnKind: UnsafeMutablePointer<UInt8>
    let turnMask: UnsafeMutablePointer<UInt8>
    /// Planar coordinates (metres) with a fixed x scale cos(max |lat|): distances never exceed true distances.
    let nodeX: UnsafeMutablePointer<Double>
    let nodeY: UnsafeMutablePointer<Double>
    let xScale: Double
    let yScale: Double
    /// Fastest speed (m/s) of each vehicle anywhere in the graph (for the admissible A* bound).
    let maxSpeed: [Double]
    let grid: SegmentGrid
    /// Per edge: bit `vehicle.rawValue` set when the edge is usable by the vehicle and not in a small subnetwork
    /// (see `RoadGraph.isSnappable`).
    let snappable: UnsafeMutablePointer<UInt8>
    /// Per vehicle: usable edges excluded from snapping; nodes of the largest strongly connected component.
    let unsnappableEdges: [Int]
    let largestComponent: [Int]

    private let frees: [() -> Void]

    init(_ s: RoadGraph.Storage, minNetworkSize: Int) {
        let n = s.nodeCount, e = s.edgeCount
        let vehicles = Vehicle.allCases.count
        nodeCount = n
        edgeCount = e
        var frees: [() -> Void] = []
        func alloc<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
            p.initialize(repeating: value, count: max(1, count))
            frees.append { p.deinitialize(count: max(1, count)); p.deallocate() }
            return p
        }

        // Adjacency.
        let adjStart = alloc(n + 1, Int32(0))
        for i in 0..<e {
            adjStart[Int(s.edgeBaseNode[i]) + 1] += 1
            adjStart[Int(s.edgeAdjNode[i]) + 1] += 1
        }
        for v in 0..<n { adjStart[v + 1] += adjStart[v] }
        let adjDirEdge = alloc(2 * e, Int32(0))
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
        let arrivalOfDirEdge = alloc(2 * e, Int32(0))
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
        stateCount = n + extra
        let extraStateNode = alloc(extra, Int32(0)), extraStateInEdge = alloc(extra, Int32(0))
        for i in 0..<extra { extraStateNode[i] = extraNode[i]; extraStateInEdge[i] = extraIn[i] }
        let t = s.turnFromEdge.count
        let turnStart = alloc(extra + 1, Int32(0))
        for d in s.turnFromEdge { turnStart[Int(arrivalOfDirEdge[Int(d)]) - n + 1] += 1 }
        for i in 0..<extra { turnStart[i + 1] += turnStart[i] }
        let turnOut = alloc(t, Int32(0)), turnKind = alloc(t, UInt8(0)), turnMask = alloc(t, UInt8(0))
        var tfill = [Int32](repeating: 0, count: extra)
        for i in 0..<t {
            let st = Int(arrivalOfDirEdge[Int(s.turnFromEdge[i])]) - n
            let pos = Int(turnStart[st] + tfill[st]); tfill[st] += 1
            turnOut[pos] = s.turnToEdge[i]
            turnKind[pos] = s.turnKind[i]
            turnMask[pos] = s.turnVehicles[i]
        }

        // Slot arrays.
        let adjArrival = alloc(2 * e, Int32(0)), adjSpecial = alloc(2 * e, UInt8(0))
        var weights: [UnsafeMutablePointer<Double>] = []
        var maxSpeed = [Double](repeating: 1, count: vehicles)
        for _ in 0..<vehicles { weights.append(alloc(2 * e, Double.infinity)) }
        // For the subnetwork pass below: head node of each slot, bit v set when vehicle v may use it.
        // (At least one element so the buffers' base addresses are never nil.)
        var slotHead = [Int32](repeating: 0, count: max(1, 2 * e))
        var slotUsable = [UInt8](repeating: 0, count: max(1, 2 * e))
        for slot in 0..<(2 * e) {
            let d = adjDirEdge[slot]
            let ei = Int(d >> 1)
            adjArrival[slot] = arrivalOfDirEdge[Int(d)]
            slotHead[slot] = head(d)
            var special = s.edgeFlags[ei] & (EdgeFlag.ferry | EdgeFlag.toll)
            if s.edgeMaxWeight[ei] != 0 { special |= 0x80 }
            adjSpecial[slot] = special
            for v in 0..<vehicles {
                let bit = UInt16(1) << UInt16(2 * v + Int(d & 1))
                let kmh = Double(s.edgeSpeed[ei * vehicles + v])
                if s.edgeAccess[ei] & bit != 0 && kmh > 0 {
                    weights[v][slot] = s.edgeDistance[ei] * 3.6 / kmh
                    slotUsable[slot] |= UInt8(1) << UInt8(v)
                    maxSpeed[v] = max(maxSpeed[v], kmh / 3.6)
                }
            }
        }

        // Planar coordinates.
        var maxAbsLat = 0.0
        for i in 0..<n { maxAbsLat = max(maxAbsLat, abs(Double(s.nodeLatE7[i]) / 1e7)) }
        for i in 0..<s.pillarLatE7.count { maxAbsLat = max(maxAbsLat, abs(Double(s.pillarLatE7[i]) / 1e7)) }
        let yScale = Geo.earthRadius * Double.pi / 180
        let xScale = yScale * cos(min(89, maxAbsLat) * Double.pi / 180)
        let nodeX = alloc(n, 0.0), nodeY = alloc(n, 0.0)
        for i in 0..<n {
            nodeX[i] = Double(s.nodeLonE7[i]) / 1e7 * xScale
            nodeY[i] = Double(s.nodeLatE7[i]) / 1e7 * yScale
        }

        self.adjStart = adjStart
        self.adjDirEdge = adjDirEdge
        self.adjArrival = adjArrival
        self.adjSpecial = adjSpecial
        self.adjWeight = weights
        self.arrivalOfDirEdge = arrivalOfDirEdge
        self.extraStateNode = extraStateNode
        self.extraStateInEdge = extraStateInEdge
        self.turnStart = turnStart
        self.turnOut = turnOut
        self.turnKind = turnKind
        self.turnMask = turnMask
        self.nodeX = nodeX
        self.nodeY = nodeY
        self.xScale = xScale
        self.yScale = yScale
        self.maxSpeed = maxSpeed
        self.grid = SegmentGrid(s)

        // Subnetworks: per vehicle, strongly connected components of the usable directed edges (finite slot
        // weight = access bit and speed > 0, so one-way directions are respected; turn restrictions ignored).
        let snappable = alloc(e, UInt8(0))
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
        self.snappable = snappable
        self.unsnappableEdges = unsnappable
        self.largestComponent = largest
        self.frees = frees
    }

    deinit { for f in frees { f() } }

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

/// Iterative Tarjan SCC over a CSR graph (no recursion: a whole-city graph's DFS is far deeper than the stack
/// allows). Reusable for several runs on the same node count. After `run`: `component[v]` = component id of node
/// v, `size[c]` = node count of component c.
final class StrongComponents {
    let nodeCount: Int
    /// During `run`: the low-link of nodes still on the Tarjan stack; afterwards the component id.
    let component: UnsafeMutablePointer<Int32>
    private(set) var size: [Int32] = []
    /// DFS discovery order (-1 = unvisited, `Int32.max` = already in a component, so it never lowers a low-link),
    /// Tarjan stack, DFS call stack (node, next slot): each at most n deep.
    private let order: UnsafeMutablePointer<Int32>
    private let stack: UnsafeMutablePointer<Int32>
    private let callNode: UnsafeMutablePointer<Int32>
    private let callSlot: UnsafeMutablePointer<Int32>

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        let c = max(1, nodeCount)
        component = .allocate(capacity: c)
        order = .allocate(capacity: c)
        stack = .allocate(capacity: c)
        callNode = .allocate(capacity: c)
        callSlot = .allocate(capacity: c)
    }

    deinit {
        component.deallocate(); order.deallocate()
        stack.deallocate(); callNode.deallocate(); callSlot.deallocate()
    }

    /// Slots `adjStart[v] ..< adjStart[v + 1]` leave node v and lead to `slotHead[slot]`; only slots with
    /// `slotUsable[slot] & bit != 0` are arcs.
    func run(adjStart: UnsafePointer<Int32>, slotHead: UnsafePointer<Int32>, slotUsable: UnsafePointer<UInt8>,
             bit: UInt8) {
        let n = nodeCount
        let low = component, order = order, stack = stack, callNode = callNode, callSlot = callSlot
        var size = self.size
        self.size = []
        size.removeAll(keepingCapacity: true)
        order.update(repeating: -1, count: n)
        var counter: Int32 = 0
        var stackTop = 0, callTop = 0
        for root in 0..<n where order[root] < 0 {
            order[root] = counter; low[root] = counter; counter += 1
            stack[stackTop] = Int32(root); stackTop += 1
            callNode[0] = Int32(root); callSlot[0] = adjStart[root]; callTop = 1
            while callTop > 0 {
                let v = Int(callNode[callTop - 1])
                var slot = Int(callSlot[callTop - 1])
                let end = Int(adjStart[v + 1])
                var lowV = low[v]
                var descended = false
                while slot < end {
                    let usable = slotUsable[slot] & bit != 0
                    let w = Int(slotHead[slot])
                    slot += 1
                    guard usable else { continue }
                    let ow = order[w]
                    if ow < 0 {
                        callSlot[callTop - 1] = Int32(slot)
                        order[w] = counter; low[w] = counter; counter += 1
                        stack[stackTop] = Int32(w); stackTop += 1
                        callNode[callTop] = Int32(w); callSlot[callTop] = adjStart[w]; callTop += 1
                        descended = true
                        break
                    }
                    // Visited: on the Tarjan stack, or done (order Int32.max: no effect).
                    if ow < lowV { lowV = ow }
                }
                low[v] = lowV
                if descended { continue }
                callTop -= 1
                if lowV == order[v] {
                    // v is the root of a component: pop it (low-links of finished nodes are no longer needed).
                    let c = Int32(size.count)
                    var count: Int32 = 0
                    while true {
                        stackTop -= 1
                        let x = Int(stack[stackTop])
                        order[x] = .max
                        low[x] = c  // = component[x]
                        count += 1
                        if x == v { break }
                    }
                    size.append(count)
                }
                if callTop > 0 {
                    let p = Int(callNode[callTop - 1])
                    if lowV < low[p] { low[p] = lowV }
                }
            }
        }
        self.size = size
    }
}
