import ArrayBlob

/// The road graph's blob (a dataset's `road_graph` section): one `ArrayBlob` of the storage's arrays followed by
/// its search index's (`SearchBuffers.Stored`), so that opening a graph reads every array in place and derives
/// nothing. Doubles are stored as their bit patterns.
extension RoadGraph {
    static let magic = "VMRG"
    /// 3: the derived search index stored after the storage; names as an arena. 4: ArrayBlob head + body.
    static let version: UInt32 = 4

    /// Its section in a dataset file (`FileSections`).
    public static let sectionName = "road_graph"

    /// One self-describing little-endian blob of the storage and the derived index.
    public func serialized() -> [UInt8] {
        var out = ArrayBlobWriter(magic: Self.magic, version: Self.version)
        storage.write(into: &out)
        index.stored.write(into: &out)
        return out.bytes
    }

    /// The graph stored in `region` (a mapped dataset section), read in place: O(1) (magic, version, counts).
    /// Values are not checked (`validate()` does; a dataset's checksum covers the file); a damaged index traps
    /// where a bounds-checked `StoredArray` reads it, or misroutes. A `minNetworkSize` other than the one
    /// the graph was imported with recomputes the subnetworks (O(n)).
    public init(region: ByteRegion, minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        try self.init(inPlace: region, minNetworkSize: minNetworkSize)
    }

    /// `minNetworkSize` nil: the subnetworks as stored.
    private init(inPlace region: ByteRegion, minNetworkSize: Int?) throws(RoadGraphError) {
        let storage: Storage, stored: SearchBuffers.Stored
        do throws(ArrayBlobReader.Malformed) {
            var r = try ArrayBlobReader(region, magic: Self.magic, version: Self.version)
            storage = try Storage.read(from: &r)
            stored = try SearchBuffers.Stored.read(from: &r)
            guard r.isAtEnd else { throw ArrayBlobReader.Malformed(reason: "trailing bytes") }
        } catch {
            throw .invalidSerialization(error.reason)
        }
        let graph = try RoadGraph(storage: storage, index: stored)
        if let minNetworkSize, minNetworkSize != stored.subnetworks.minNetworkSize {
            var changed = stored
            changed.subnetworks = Subnetworks.compute(storage, adjStart: graph.index.adjStart,
                                                      adjDirEdge: graph.index.adjDirEdge, minNetworkSize: minNetworkSize)
            self = try RoadGraph(storage: storage, index: changed)
        } else {
            self = graph
        }
    }

    /// A copy of `bytes` (`serialized()`), fully checked (`validate()`).
    public init(serialized bytes: [UInt8],
                minNetworkSize: Int = RoadGraph.defaultMinNetworkSize) throws(RoadGraphError) {
        let graph = try RoadGraph(inPlace: ByteRegion(copying: bytes), minNetworkSize: nil)
        try graph.validate()
        if minNetworkSize == graph.index.stored.subnetworks.minNetworkSize {
            self = graph
        } else {
            self = try RoadGraph(storage: graph.storage, minNetworkSize: minNetworkSize)
        }
    }
}

extension RoadGraph.Storage {
    func write(into out: inout ArrayBlobWriter) {
        out.append(nodeLatE7); out.append(nodeLonE7); out.append(nodeOSMID)
        out.append(edgeBaseNode); out.append(edgeAdjNode); out.append(edgeDistance); out.append(edgeWayID)
        out.append(edgeNameIndex); out.append(edgeRoadClass); out.append(edgeFlags); out.append(edgeAccess)
        out.append(edgeSpeed); out.append(edgeMaxWeight); out.append(edgeGeometryStart)
        out.append(pillarLatE7); out.append(pillarLonE7)
        out.append(turnFromEdge); out.append(turnToEdge); out.append(turnKind); out.append(turnVehicles)
        out.append(nameStart); out.append(nameBytes)
    }

    static func read(from r: inout ArrayBlobReader) throws(ArrayBlobReader.Malformed) -> RoadGraph.Storage {
        var s = RoadGraph.Storage()
        s.nodeLatE7 = try r.stored(); s.nodeLonE7 = try r.stored(); s.nodeOSMID = try r.stored()
        s.edgeBaseNode = try r.stored(); s.edgeAdjNode = try r.stored(); s.edgeDistance = try r.stored()
        s.edgeWayID = try r.stored(); s.edgeNameIndex = try r.stored(); s.edgeRoadClass = try r.stored()
        s.edgeFlags = try r.stored(); s.edgeAccess = try r.stored(); s.edgeSpeed = try r.stored()
        s.edgeMaxWeight = try r.stored(); s.edgeGeometryStart = try r.stored()
        s.pillarLatE7 = try r.stored(); s.pillarLonE7 = try r.stored()
        s.turnFromEdge = try r.stored(); s.turnToEdge = try r.stored(); s.turnKind = try r.stored()
        s.turnVehicles = try r.stored()
        s.nameStart = try r.stored(); s.nameBytes = try r.stored()
        return s
    }
}

extension SearchBuffers.Stored {
    func write(into out: inout ArrayBlobWriter) {
        out.append(UInt64(stateCount))
        out.append(adjStart); out.append(adjDirEdge); out.append(adjArrival); out.append(adjSpecial)
        out.append(UInt64(adjWeight.count))
        for w in adjWeight { out.append(w) }
        out.append(arrivalOfDirEdge); out.append(extraStateNode); out.append(extraStateInEdge)
        out.append(turnStart); out.append(turnOut); out.append(turnKind); out.append(turnMask)
        out.append(nodeX); out.append(nodeY)
        out.append(xScale.bitPattern); out.append(yScale.bitPattern)
        out.append(maxSpeed.map(\.bitPattern)); out.append(weightChecksum); out.append(usableSpecial)
        out.append(grid.minLat.bitPattern); out.append(grid.minLon.bitPattern); out.append(grid.cellDeg.bitPattern)
        out.append(grid.cellMeters.bitPattern); out.append(UInt64(grid.nx)); out.append(UInt64(grid.ny))
        out.append(grid.cellStart); out.append(grid.cellItems); out.append(grid.segEdge)
        out.append(Int64(subnetworks.minNetworkSize)); out.append(subnetworks.snappable)
        out.append(subnetworks.unsnappableEdges.map(Int64.init)); out.append(subnetworks.largestComponent.map(Int64.init))
    }

    static func read(from r: inout ArrayBlobReader) throws(ArrayBlobReader.Malformed) -> SearchBuffers.Stored {
        func count() throws(ArrayBlobReader.Malformed) -> Int {
            guard let value = Int(exactly: try r.value(UInt64.self)), value <= Int(Int32.max) else {
                throw ArrayBlobReader.Malformed(reason: "search index count")
            }
            return value
        }
        func double() throws(ArrayBlobReader.Malformed) -> Double { Double(bitPattern: try r.value(UInt64.self)) }
        let stateCount = try count()
        let adjStart: StoredArray<Int32> = try r.stored(), adjDirEdge: StoredArray<Int32> = try r.stored()
        let adjArrival: StoredArray<Int32> = try r.stored(), adjSpecial: StoredArray<UInt8> = try r.stored()
        let vehicles = try count()
        guard vehicles == Vehicle.allCases.count else { throw ArrayBlobReader.Malformed(reason: "vehicles") }
        var adjWeight: [StoredArray<Double>] = []
        for _ in 0..<vehicles { adjWeight.append(try r.stored()) }
        let arrivalOfDirEdge: StoredArray<Int32> = try r.stored()
        let extraStateNode: StoredArray<Int32> = try r.stored(), extraStateInEdge: StoredArray<Int32> = try r.stored()
        let turnStart: StoredArray<Int32> = try r.stored(), turnOut: StoredArray<Int32> = try r.stored()
        let turnKind: StoredArray<UInt8> = try r.stored(), turnMask: StoredArray<UInt8> = try r.stored()
        let nodeX: StoredArray<Double> = try r.stored(), nodeY: StoredArray<Double> = try r.stored()
        let xScale = try double(), yScale = try double()
        let maxSpeed = try r.array(UInt64.self).map(Double.init(bitPattern:))
        let weightChecksum = try r.array(UInt64.self), usableSpecial = try r.array(UInt8.self)
        let minLat = try double(), minLon = try double(), cellDeg = try double(), cellMeters = try double()
        let nx = try count(), ny = try count()
        let grid = SegmentGrid(minLat: minLat, minLon: minLon, cellDeg: cellDeg, nx: nx, ny: ny,
                               cellStart: try r.stored(), cellItems: try r.stored(), segEdge: try r.stored(),
                               cellMeters: cellMeters)
        let minNetworkSize = Int(try r.value(Int64.self))
        let snappable: StoredArray<UInt8> = try r.stored()
        let unsnappable = try r.array(Int64.self).map { Int($0) }, largest = try r.array(Int64.self).map { Int($0) }
        return SearchBuffers.Stored(
            stateCount: stateCount, adjStart: adjStart, adjDirEdge: adjDirEdge, adjArrival: adjArrival,
            adjSpecial: adjSpecial, adjWeight: adjWeight, arrivalOfDirEdge: arrivalOfDirEdge,
            extraStateNode: extraStateNode, extraStateInEdge: extraStateInEdge, turnStart: turnStart, turnOut: turnOut,
            turnKind: turnKind, turnMask: turnMask, nodeX: nodeX, nodeY: nodeY, xScale: xScale, yScale: yScale,
            maxSpeed: maxSpeed, weightChecksum: weightChecksum, usableSpecial: usableSpecial, grid: grid,
            subnetworks: Subnetworks(minNetworkSize: minNetworkSize, snappable: snappable,
                                     unsnappableEdges: unsnappable, largestComponent: largest))
    }
}
