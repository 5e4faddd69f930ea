import ArrayBlob

extension RoadGraph {
    /// A `Storage` as growable Swift arrays (and names as strings): what `RoadGraphBuilder` fills and tests edit;
    /// `Storage(_:)` freezes it into stored arrays.
    public struct EditableStorage: Sendable, Equatable {
        public var nodeLatE7: [Int32] = []
        public var nodeLonE7: [Int32] = []
        public var nodeOSMID: [Int64] = []
        public var edgeBaseNode: [Int32] = []
        public var edgeAdjNode: [Int32] = []
        public var edgeDistance: [Double] = []
        public var edgeWayID: [Int64] = []
        public var edgeNameIndex: [Int32] = []
        public var edgeRoadClass: [UInt8] = []
        public var edgeFlags: [UInt8] = []
        public var edgeAccess: [UInt16] = []
        public var edgeSpeed: [UInt8] = []
        public var edgeMaxWeight: [UInt16] = []
        public var edgeGeometryStart: [Int32] = []
        public var pillarLatE7: [Int32] = []
        public var pillarLonE7: [Int32] = []
        public var names: [String] = []
        public var turnFromEdge: [Int32] = []
        public var turnToEdge: [Int32] = []
        public var turnKind: [UInt8] = []
        public var turnVehicles: [UInt8] = []

        public init() {}

        /// A copy of `storage`'s arrays.
        public init(_ storage: Storage) {
            nodeLatE7 = Array(storage.nodeLatE7); nodeLonE7 = Array(storage.nodeLonE7)
            nodeOSMID = Array(storage.nodeOSMID)
            edgeBaseNode = Array(storage.edgeBaseNode); edgeAdjNode = Array(storage.edgeAdjNode)
            edgeDistance = Array(storage.edgeDistance); edgeWayID = Array(storage.edgeWayID)
            edgeNameIndex = Array(storage.edgeNameIndex); edgeRoadClass = Array(storage.edgeRoadClass)
            edgeFlags = Array(storage.edgeFlags); edgeAccess = Array(storage.edgeAccess)
            edgeSpeed = Array(storage.edgeSpeed); edgeMaxWeight = Array(storage.edgeMaxWeight)
            edgeGeometryStart = Array(storage.edgeGeometryStart)
            pillarLatE7 = Array(storage.pillarLatE7); pillarLonE7 = Array(storage.pillarLonE7)
            names = (0..<storage.nameCount).map(storage.name(at:))
            turnFromEdge = Array(storage.turnFromEdge); turnToEdge = Array(storage.turnToEdge)
            turnKind = Array(storage.turnKind); turnVehicles = Array(storage.turnVehicles)
        }
    }
}

extension RoadGraph.Storage {
    /// `editable`'s arrays as stored arrays (copied once), the names as an arena.
    public init(_ editable: RoadGraph.EditableStorage) {
        self.init()
        nodeLatE7 = StoredArray(editable.nodeLatE7); nodeLonE7 = StoredArray(editable.nodeLonE7)
        nodeOSMID = StoredArray(editable.nodeOSMID)
        edgeBaseNode = StoredArray(editable.edgeBaseNode); edgeAdjNode = StoredArray(editable.edgeAdjNode)
        edgeDistance = StoredArray(editable.edgeDistance); edgeWayID = StoredArray(editable.edgeWayID)
        edgeNameIndex = StoredArray(editable.edgeNameIndex); edgeRoadClass = StoredArray(editable.edgeRoadClass)
        edgeFlags = StoredArray(editable.edgeFlags); edgeAccess = StoredArray(editable.edgeAccess)
        edgeSpeed = StoredArray(editable.edgeSpeed); edgeMaxWeight = StoredArray(editable.edgeMaxWeight)
        edgeGeometryStart = StoredArray(editable.edgeGeometryStart)
        pillarLatE7 = StoredArray(editable.pillarLatE7); pillarLonE7 = StoredArray(editable.pillarLonE7)
        var bytes: [UInt8] = [], starts: [UInt32] = []
        if !editable.names.isEmpty {
            starts.reserveCapacity(editable.names.count + 1)
            starts.append(0)
            for name in editable.names {
                bytes += name.utf8
                starts.append(UInt32(bytes.count))
            }
        }
        nameBytes = StoredArray(bytes); nameStart = StoredArray(starts)
        turnFromEdge = StoredArray(editable.turnFromEdge); turnToEdge = StoredArray(editable.turnToEdge)
        turnKind = StoredArray(editable.turnKind); turnVehicles = StoredArray(editable.turnVehicles)
    }
}
