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
            var copy = EditableCopy(storage: storage)
            Self.visitArrays(&copy)
            self = copy.editable
            names = (0..<storage.nameCount).map(storage.name(at:))
        }

        /// Hands `visitor` every array `Storage` and `EditableStorage` both hold (all but the names,
        /// an arena in one and strings in the other), in one list for both conversions.
        static func visitArrays(_ visitor: inout some StorageArrayVisitor) {
            visitor.visit(\.nodeLatE7, \.nodeLatE7); visitor.visit(\.nodeLonE7, \.nodeLonE7)
            visitor.visit(\.nodeOSMID, \.nodeOSMID)
            visitor.visit(\.edgeBaseNode, \.edgeBaseNode); visitor.visit(\.edgeAdjNode, \.edgeAdjNode)
            visitor.visit(\.edgeDistance, \.edgeDistance); visitor.visit(\.edgeWayID, \.edgeWayID)
            visitor.visit(\.edgeNameIndex, \.edgeNameIndex); visitor.visit(\.edgeRoadClass, \.edgeRoadClass)
            visitor.visit(\.edgeFlags, \.edgeFlags); visitor.visit(\.edgeAccess, \.edgeAccess)
            visitor.visit(\.edgeSpeed, \.edgeSpeed); visitor.visit(\.edgeMaxWeight, \.edgeMaxWeight)
            visitor.visit(\.edgeGeometryStart, \.edgeGeometryStart)
            visitor.visit(\.pillarLatE7, \.pillarLatE7); visitor.visit(\.pillarLonE7, \.pillarLonE7)
            visitor.visit(\.turnFromEdge, \.turnFromEdge); visitor.visit(\.turnToEdge, \.turnToEdge)
            visitor.visit(\.turnKind, \.turnKind); visitor.visit(\.turnVehicles, \.turnVehicles)
        }
    }
}

/// Told each array the two forms of a road graph's storage share, as a key path into each
/// (`RoadGraph.EditableStorage.visitArrays`).
protocol StorageArrayVisitor {
    mutating func visit<Element: BitwiseCopyable>(_ stored: WritableKeyPath<RoadGraph.Storage, StoredArray<Element>>,
                                                  _ editable: WritableKeyPath<RoadGraph.EditableStorage, [Element]>)
}

/// Copies a `Storage`'s shared arrays into an `EditableStorage`.
private struct EditableCopy: StorageArrayVisitor {
    let storage: RoadGraph.Storage
    var editable = RoadGraph.EditableStorage()

    mutating func visit<Element: BitwiseCopyable>(_ stored: WritableKeyPath<RoadGraph.Storage, StoredArray<Element>>,
                                                  _ editable: WritableKeyPath<RoadGraph.EditableStorage, [Element]>) {
        self.editable[keyPath: editable] = Array(storage[keyPath: stored])
    }
}

/// Copies an `EditableStorage`'s shared arrays into a `Storage`, once each.
private struct StoredCopy: StorageArrayVisitor {
    let editable: RoadGraph.EditableStorage
    var storage = RoadGraph.Storage()

    mutating func visit<Element: BitwiseCopyable>(_ stored: WritableKeyPath<RoadGraph.Storage, StoredArray<Element>>,
                                                  _ editable: WritableKeyPath<RoadGraph.EditableStorage, [Element]>) {
        storage[keyPath: stored] = StoredArray(self.editable[keyPath: editable])
    }
}

extension RoadGraph.Storage {
    /// `editable`'s arrays as stored arrays (copied once), the names as an arena.
    public init(_ editable: RoadGraph.EditableStorage) {
        var copy = StoredCopy(editable: editable)
        RoadGraph.EditableStorage.visitArrays(&copy)
        self = copy.storage
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
    }
}
