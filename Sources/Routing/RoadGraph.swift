import ArrayBlob
import Platform

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
    /// The plain form of the network: arrays only, views of a dataset's mapped `road_graph` section or of heap
    /// copies (build or edit one as an `EditableStorage`). What routing derives from it (`SearchBuffers`) is built
    /// with the graph at import and stored after it in the same blob (`serialized()`).
    public struct Storage: Sendable, Equatable {
        /// Graph node coordinates, 1e-7 degrees. Count = nodeCount.
        public var nodeLatE7 = StoredArray<Int32>()
        public var nodeLonE7 = StoredArray<Int32>()
        /// OSM id of each graph node.
        public var nodeOSMID = StoredArray<Int64>()
        /// Count = edgeCount for every `edge*` array except `edgeSpeed` (edgeCount × 5, vehicle-major per edge:
        /// index `e * 5 + vehicle.rawValue`, km/h, 0 = no access) and `edgeGeometryStart` (edgeCount + 1).
        public var edgeBaseNode = StoredArray<Int32>()
        public var edgeAdjNode = StoredArray<Int32>()
        /// Length in metres (haversine along the geometry).
        public var edgeDistance = StoredArray<Double>()
        public var edgeWayID = StoredArray<Int64>()
        /// Index into the names (`name(at:)`; "" = unnamed).
        public var edgeNameIndex = StoredArray<Int32>()
        /// `RoadClass.rawValue`.
        public var edgeRoadClass = StoredArray<UInt8>()
        /// `EdgeFlag` bits (ferry, toll, roundabout; bridge and tunnel for maps).
        public var edgeFlags = StoredArray<UInt8>()
        /// Bit `2 * vehicle.rawValue` = forward (base → adj) allowed, bit `2 * vehicle.rawValue + 1` = backward.
        public var edgeAccess = StoredArray<UInt16>()
        public var edgeSpeed = StoredArray<UInt8>()
        /// `maxweight` in units of 10 kg; 0 = none.
        public var edgeMaxWeight = StoredArray<UInt16>()
        /// Pillar (intermediate geometry point) range of edge e: `edgeGeometryStart[e] ..< edgeGeometryStart[e+1]`,
        /// ordered base → adj.
        public var edgeGeometryStart = StoredArray<Int32>()
        public var pillarLatE7 = StoredArray<Int32>()
        public var pillarLonE7 = StoredArray<Int32>()
        /// The street names, an arena read in place: name i is the UTF-8 bytes
        /// `nameBytes[nameStart[i] ..< nameStart[i + 1]]` (`name(at:)`); `nameStart` has nameCount + 1 entries
        /// (none in an empty storage). Name 0 is "" in graphs `RoadGraphBuilder` builds.
        public var nameBytes = StoredArray<UInt8>()
        public var nameStart = StoredArray<UInt32>()
        /// Turn restrictions: arriving directed edge → leaving directed edge at the shared node,
        /// `TurnRestriction.Kind.rawValue`, `VehicleSet.rawValue`.
        public var turnFromEdge = StoredArray<Int32>()
        public var turnToEdge = StoredArray<Int32>()
        public var turnKind = StoredArray<UInt8>()
        public var turnVehicles = StoredArray<UInt8>()

        public init() {}

        public var nodeCount: Int { nodeLatE7.count }
        public var edgeCount: Int { edgeBaseNode.count }
        public var nameCount: Int { max(0, nameStart.count - 1) }

        /// Name `i` (built from the arena's bytes).
        public func name(at i: Int) -> String {
            let start = Int(nameStart[i]), end = Int(nameStart[i + 1])
            precondition(start <= end && end <= nameBytes.count, "name arena out of range")
            return nameBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        }

        /// Whether name `i` is "" (-1: no name).
        public func nameIsEmpty(_ i: Int32) -> Bool { i < 0 || nameStart[Int(i)] == nameStart[Int(i) + 1] }

        /// Whether names `i` and `j` have the same bytes (-1: no name, the same as ""), without building Strings.
        /// For the names `RoadGraphBuilder` stores (one index per distinct name) this is String equality.
        public func namesEqual(_ i: Int32, _ j: Int32) -> Bool {
            if i == j { return true }
            if i < 0 || j < 0 { return nameIsEmpty(i) && nameIsEmpty(j) }
            let a = Int(nameStart[Int(i)]), b = Int(nameStart[Int(j)])
            let length = Int(nameStart[Int(i) + 1]) - a
            guard length == Int(nameStart[Int(j) + 1]) - b else { return false }
            precondition(a + length <= nameBytes.count && b + length <= nameBytes.count, "name arena out of range")
            return nameBytes.withUnsafeBufferPointer { bytes in
                length == 0 || memcmp(bytes.baseAddress! + a, bytes.baseAddress! + b, length) == 0
            }
        }

        /// The O(1) part of `validate()`: the arrays' counts agree with each other.
        public func checkCounts() throws(RoadGraphError) {
            let n = nodeCount, e = edgeCount
            func check(_ ok: Bool, _ what: String) throws(RoadGraphError) {
                if !ok { throw .invalidStorage(what) }
            }
            try check(nodeLonE7.count == n && nodeOSMID.count == n, "node arrays")
            try check(edgeAdjNode.count == e && edgeDistance.count == e && edgeWayID.count == e
                      && edgeNameIndex.count == e && edgeRoadClass.count == e && edgeFlags.count == e
                      && edgeAccess.count == e && edgeMaxWeight.count == e, "edge arrays")
            try check(edgeSpeed.count == e * Vehicle.allCases.count, "edgeSpeed")
            try check(edgeGeometryStart.count == e + 1 && pillarLonE7.count == pillarLatE7.count, "geometry")
            let t = turnFromEdge.count
            try check(turnToEdge.count == t && turnKind.count == t && turnVehicles.count == t, "turn arrays")
            try check(nameStart.isEmpty ? nameBytes.isEmpty : nameStart.count >= 2, "name arena")
        }

        /// Every count and index in range (O(n)): what `RoadGraph(storage:)` and `RoadGraph(serialized:)` check;
        /// a graph read in place from a dataset section checks only `checkCounts()` (the file's checksum covers
        /// the rest).
        public func validate() throws(RoadGraphError) {
            try checkCounts()
            let n = nodeCount, e = edgeCount
            func check(_ ok: Bool, _ what: String) throws(RoadGraphError) {
                if !ok { throw .invalidStorage(what) }
            }
            if !nameStart.isEmpty {
                try check(nameStart[0] == 0 && Int(nameStart[nameStart.count - 1]) == nameBytes.count, "name arena")
                for i in 1..<nameStart.count { try check(nameStart[i - 1] <= nameStart[i], "name arena order") }
            }
            try check(edgeGeometryStart.first == 0 && Int(edgeGeometryStart.last!) == pillarLatE7.count, "geometry")
            for i in 0..<e {
                try check(edgeBaseNode[i] >= 0 && Int(edgeBaseNode[i]) < n && edgeAdjNode[i] >= 0
                          && Int(edgeAdjNode[i]) < n, "edge node index")
                try check(edgeGeometryStart[i] <= edgeGeometryStart[i + 1], "edgeGeometryStart order")
                try check(edgeNameIndex[i] >= 0 && Int(edgeNameIndex[i]) < nameCount, "edgeNameIndex")
                try check(edgeDistance[i] >= 0 && edgeDistance[i].isFinite, "edgeDistance")
                try check(edgeRoadClass[i] < UInt8(RoadClass.allCases.count), "edgeRoadClass")
            }
            for i in 0..<turnFromEdge.count {
                let a = turnFromEdge[i], b = turnToEdge[i]
                try check(a >= 0 && Int(a) < 2 * e && b >= 0 && Int(b) < 2 * e && turnKind[i] <= 1, "turn index")
                let head = a & 1 == 0 ? edgeAdjNode[Int(a >> 1)] : edgeBaseNode[Int(a >> 1)]
                let tail = b & 1 == 0 ? edgeBaseNode[Int(b >> 1)] : edgeAdjNode[Int(b >> 1)]
                try check(head == tail, "turn edges do not meet")
            }
        }
    }

    public let storage: Storage
    let index: SearchBuffers
    /// Per vehicle (`Vehicle.rawValue`): the contraction hierarchy `Router` and `TravelMatrix` use when the route
    /// options allow (see `attaching(_:)`); nil = A* / Dijkstra only.
    var hierarchies = [ContractionHierarchy?](repeating: nil, count: Vehicle.allCases.count)
    /// Per vehicle: `adjSpecial` bits (ferry, toll, 0x80 = maxweight) of the slots it may use, set by `attaching`
    /// (an option that only concerns edges the vehicle never uses leaves the hierarchy usable).
    var usableSpecial = [UInt8](repeating: 0xFF, count: Vehicle.allCases.count)

    /// GraphHopper's `prepare.min_network_size` default: strongly connected components with fewer graph nodes
    /// than this are excluded from snapping (see `isSnappable(edge:vehicle:)`).
    public static let defaultMinNetworkSize = 200

    /// Validates `storage` (O(n)) and derives its search index (`SearchBuffers.Stored.build`): what the importer
    /// runs. `minNetworkSize` only affects derived data (`isSnappable`); `storage` is unchanged.
    public init(storage: Storage, minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        try storage.validate()
        self.storage = storage
        self.index = try SearchBuffers(.build(storage, minNetworkSize: minNetworkSize), storage: storage)
    }

    /// A graph of `storage` and its already derived index (counts checked, O(1)).
    init(storage: Storage, index: SearchBuffers.Stored) throws(RoadGraphError) {
        try storage.checkCounts()
        self.storage = storage
        self.index = try SearchBuffers(index, storage: storage)
    }

    /// The full check of a graph read in place (O(n), as long as an import's derivation): `storage.validate()`,
    /// and the stored search index equal to the one the storage derives.
    public func validate() throws(RoadGraphError) {
        try storage.validate()
        let derived = SearchBuffers.Stored.build(storage, minNetworkSize: index.stored.subnetworks.minNetworkSize)
        guard derived == index.stored else { throw .invalidStorage("search index") }
    }

    public var nodeCount: Int { storage.nodeCount }
    public var edgeCount: Int { storage.edgeCount }
    /// Whether the graph was read in place from a mapped file (`init(region:)` of a mapped dataset section): its
    /// arrays and its search index's are the file's pages, not heap copies.
    public var isMapped: Bool { storage.edgeBaseNode.isMapped && index.stored.adjStart.isMapped }
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
    /// directions it may use (access bit and speed > 0) are computed at import (`Subnetworks`); turn restrictions and route options
    /// (avoidances, truck weight) are ignored for this. An edge usable by the vehicle is snappable iff at least
    /// one of its end nodes lies in a component with ≥ `minNetworkSize` graph nodes (junctions and way ends, not
    /// pillars) or in a largest component (every component of the maximal size), so a small graph that is one
    /// piece stays snappable. Unsnappable edges stay routable (the search may still traverse them); they are just
    /// never a start or end point. False for edges the vehicle cannot use at all.
    public func isSnappable(edge: Int, vehicle: Vehicle) -> Bool {
        index.stored.subnetworks.snappable[edge] & (1 << UInt8(vehicle.rawValue)) != 0
    }

    /// Per vehicle: edges it may use (in some direction) that subnetwork removal excludes from snapping, and the
    /// node count of its largest strongly connected component.
    public func subnetworkSummary(vehicle: Vehicle) -> (unsnappableEdges: Int, largestComponentNodes: Int) {
        (index.stored.subnetworks.unsnappableEdges[vehicle.rawValue], index.stored.subnetworks.largestComponent[vehicle.rawValue])
    }

    public func name(ofEdge edge: Int) -> String { storage.name(at: Int(storage.edgeNameIndex[edge])) }

    /// The road class of `edge` (`.other` for a value this build does not know).
    public func roadClass(ofEdge edge: Int) -> RoadClass { RoadClass(rawValue: storage.edgeRoadClass[edge]) ?? .other }

    /// Whether `edge` is (part of) a bridge (`EdgeFlag.bridge`).
    public func isBridge(edge: Int) -> Bool { storage.edgeFlags[edge] & EdgeFlag.bridge != 0 }

    /// Whether `edge` runs in a tunnel or a building passage (`EdgeFlag.tunnel`).
    public func isTunnel(edge: Int) -> Bool { storage.edgeFlags[edge] & EdgeFlag.tunnel != 0 }

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

