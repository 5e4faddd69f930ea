import ArrayBlob

/// The map shapes of a dataset (buildings, water, land use, waterways, railways: ``MapShape``),
/// stored as one `ArrayBlob` in the dataset's `map_shapes` section and read in place
/// (``MapShapeStore/load(databasePath:)``). This type owns the stored format: ``serialized()``
/// writes it, ``init(region:)`` reads it.
///
/// Shapes are numbered `0..<count` in the order stored: by kind, then multipolygons after ways,
/// then OSM id. Per shape: kind, flags (area, relation), OSM id, name, building levels and height,
/// bounding box and a range of rings; per ring: a flag (inner) and a range of points.
public struct MapShapes: Sendable {
    /// The stored form's failures: a blob that is not a map-shape blob, truncated or inconsistent.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    static let magic = "VMSH"
    static let version: UInt32 = 1

    /// Its section in a dataset file (`FileSections`).
    public static let sectionName = "map_shapes"

    // Per shape.
    private var kinds = StoredArray<UInt8>()
    /// Bit 0: area; bit 1: multipolygon relation.
    private var flags = StoredArray<UInt8>()
    private var osmIDs = StoredArray<Int64>()
    /// 0 = untagged.
    private var levelValues = StoredArray<UInt8>()
    /// Decimetres; 0 = untagged.
    private var heightDecimetres = StoredArray<UInt16>()
    /// Into the name arena; 0 = "".
    private var nameIndex = StoredArray<Int32>()
    private var minLatE7 = StoredArray<Int32>()
    private var minLonE7 = StoredArray<Int32>()
    private var maxLatE7 = StoredArray<Int32>()
    private var maxLonE7 = StoredArray<Int32>()
    /// Shape i's rings: `ringStart[i] ..< ringStart[i + 1]` (count + 1 entries).
    private var ringStart = StoredArray<Int32>()
    // Per ring.
    /// Bit 0: inner.
    private var ringFlags = StoredArray<UInt8>()
    /// Ring r's points: `pointStart[r] ..< pointStart[r + 1]` (ring count + 1 entries).
    private var pointStart = StoredArray<Int32>()
    // Per point.
    private var pointLatE7 = StoredArray<Int32>()
    private var pointLonE7 = StoredArray<Int32>()
    // Names: name i is `nameBytes[nameStart[i] ..< nameStart[i + 1]]`.
    private var nameBytes = StoredArray<UInt8>()
    private var nameStart = StoredArray<UInt32>()

    /// No shapes.
    public init() { self.init([]) }

    /// The stored form of `shapes`, ordered as stored (kind, ways before relations, OSM id).
    /// Rings with fewer than two points and shapes left without rings are dropped.
    public init(_ shapes: [MapShape]) {
        let order = shapes.indices.filter { shapes[$0].rings.contains { $0.count >= 2 } }.sorted {
            let a = shapes[$0], b = shapes[$1]
            if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
            if a.isRelation != b.isRelation { return !a.isRelation }
            if a.osmID != b.osmID { return a.osmID < b.osmID }
            return $0 < $1
        }
        var kinds: [UInt8] = [], flags: [UInt8] = [], osmIDs: [Int64] = [], levels: [UInt8] = [], heights: [UInt16] = []
        var nameIndex: [Int32] = [], ringStart: [Int32] = [0], ringFlags: [UInt8] = [], pointStart: [Int32] = [0]
        var minLat: [Int32] = [], minLon: [Int32] = [], maxLat: [Int32] = [], maxLon: [Int32] = []
        var lats: [Int32] = [], lons: [Int32] = []
        var nameBytes: [UInt8] = [], nameStart: [UInt32] = [0, 0]
        var names: [String: Int32] = ["": 0]
        for i in order {
            let shape = shapes[i]
            kinds.append(shape.kind.rawValue)
            flags.append((shape.isArea ? 1 : 0) | (shape.isRelation ? 2 : 0))
            osmIDs.append(shape.osmID)
            levels.append(UInt8(clamping: shape.levels ?? 0))
            heights.append(shape.heightMetres.map { UInt16(clamping: Int(($0 * 10).rounded())) } ?? 0)
            if let id = names[shape.name] {
                nameIndex.append(id)
            } else {
                let id = Int32(nameStart.count - 1)
                names[shape.name] = id
                nameBytes += shape.name.utf8
                nameStart.append(UInt32(nameBytes.count))
                nameIndex.append(id)
            }
            var box = (Int32.max, Int32.max, Int32.min, Int32.min)
            for ring in shape.rings where ring.count >= 2 {
                ringFlags.append(ring.isInner ? 1 : 0)
                lats += ring.latE7
                lons += ring.lonE7
                pointStart.append(Int32(lats.count))
                for k in 0..<ring.count {
                    box = (min(box.0, ring.latE7[k]), min(box.1, ring.lonE7[k]), max(box.2, ring.latE7[k]), max(box.3, ring.lonE7[k]))
                }
            }
            ringStart.append(Int32(ringFlags.count))
            minLat.append(box.0); minLon.append(box.1); maxLat.append(box.2); maxLon.append(box.3)
        }
        self.kinds = StoredArray(kinds); self.flags = StoredArray(flags); self.osmIDs = StoredArray(osmIDs)
        self.levelValues = StoredArray(levels); self.heightDecimetres = StoredArray(heights)
        self.nameIndex = StoredArray(nameIndex)
        (minLatE7, minLonE7, maxLatE7, maxLonE7) = (StoredArray(minLat), StoredArray(minLon), StoredArray(maxLat), StoredArray(maxLon))
        self.ringStart = StoredArray(ringStart); self.ringFlags = StoredArray(ringFlags); self.pointStart = StoredArray(pointStart)
        (pointLatE7, pointLonE7) = (StoredArray(lats), StoredArray(lons))
        self.nameBytes = StoredArray(nameBytes); self.nameStart = StoredArray(nameStart)
    }

    // MARK: Reading

    public var count: Int { kinds.count }
    /// Rings over every shape.
    public var ringCount: Int { ringFlags.count }
    /// Points over every ring.
    public var pointCount: Int { pointLatE7.count }

    /// The kind of shape `i` (nil for a kind a newer build stored).
    public func kind(_ i: Int) -> MapShapeKind? { MapShapeKind(rawValue: kinds[i]) }
    public func isArea(_ i: Int) -> Bool { flags[i] & 1 != 0 }
    public func isRelation(_ i: Int) -> Bool { flags[i] & 2 != 0 }
    public func osmID(_ i: Int) -> Int64 { osmIDs[i] }
    public func levels(_ i: Int) -> Int? { levelValues[i] == 0 ? nil : Int(levelValues[i]) }
    public func heightMetres(_ i: Int) -> Double? { heightDecimetres[i] == 0 ? nil : Double(heightDecimetres[i]) / 10 }

    /// The name of shape `i` ("" when it has none).
    public func name(_ i: Int) -> String {
        let n = Int(nameIndex[i])
        let start = Int(nameStart[n]), end = Int(nameStart[n + 1])
        return nameBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// Shape `i`'s bounding box, 1e-7 degrees.
    public func bounds(_ i: Int) -> (minLatE7: Int32, minLonE7: Int32, maxLatE7: Int32, maxLonE7: Int32) {
        (minLatE7[i], minLonE7[i], maxLatE7[i], maxLonE7[i])
    }

    /// The ring indexes of shape `i` (for ``isInner(ring:)`` and ``points(ring:)``).
    public func rings(_ i: Int) -> Range<Int> { Int(ringStart[i])..<Int(ringStart[i + 1]) }
    public func isInner(ring r: Int) -> Bool { ringFlags[r] & 1 != 0 }
    /// The point indexes of ring `r` (for ``latE7(point:)`` and ``lonE7(point:)``).
    public func points(ring r: Int) -> Range<Int> { Int(pointStart[r])..<Int(pointStart[r + 1]) }
    public func latE7(point p: Int) -> Int32 { pointLatE7[p] }
    public func lonE7(point p: Int) -> Int32 { pointLonE7[p] }

    /// Shape `i` as a value (copies its geometry).
    public func shape(_ i: Int) -> MapShape {
        let rings = rings(i).map { r in
            let points = points(ring: r)
            return MapShape.Ring(isInner: isInner(ring: r), latE7: points.map { pointLatE7[$0] }, lonE7: points.map { pointLonE7[$0] })
        }
        return MapShape(kind: kind(i) ?? .building, isArea: isArea(i), osmID: osmID(i), isRelation: isRelation(i), name: name(i),
                        levels: levels(i), heightMetres: heightMetres(i), rings: rings)
    }

    /// The shapes whose bounding box meets the box given in degrees (a linear scan of the boxes).
    public func shapes(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) -> [Int] {
        let box = (e7(minLatitude), e7(minLongitude), e7(maxLatitude), e7(maxLongitude))
        return (0..<count).filter {
            minLatE7[$0] <= box.2 && maxLatE7[$0] >= box.0 && minLonE7[$0] <= box.3 && maxLonE7[$0] >= box.1
        }
    }

    /// Whether area `i` covers the point (even–odd over all its rings: holes excluded); false for lines.
    public func contains(_ i: Int, latitude: Double, longitude: Double) -> Bool {
        guard isArea(i) else { return false }
        let y = latitude * 1e7, x = longitude * 1e7
        guard y >= Double(minLatE7[i]), y <= Double(maxLatE7[i]), x >= Double(minLonE7[i]), x <= Double(maxLonE7[i]) else { return false }
        var inside = false
        for r in rings(i) {
            let points = points(ring: r)
            var j = points.upperBound - 1
            for k in points {
                let yk = Double(pointLatE7[k]), xk = Double(pointLonE7[k]), yj = Double(pointLatE7[j]), xj = Double(pointLonE7[j])
                if (yk > y) != (yj > y) && x < (xj - xk) * (y - yk) / (yj - yk) + xk { inside.toggle() }
                j = k
            }
        }
        return inside
    }

    /// Bytes of the stored form.
    public var byteCount: Int {
        kinds.byteCount + flags.byteCount + osmIDs.byteCount + levelValues.byteCount + heightDecimetres.byteCount
            + nameIndex.byteCount + 4 * minLatE7.byteCount + ringStart.byteCount + ringFlags.byteCount + pointStart.byteCount
            + pointLatE7.byteCount + pointLonE7.byteCount + nameBytes.byteCount + nameStart.byteCount
    }

    private func e7(_ degrees: Double) -> Int32 { Int32(clamping: Int((degrees * 1e7).rounded())) }

    // MARK: The stored format

    /// The section's bytes.
    public func serialized() -> [UInt8] {
        var out = ArrayBlobWriter(magic: Self.magic, version: Self.version)
        out.append(kinds); out.append(flags); out.append(osmIDs); out.append(levelValues); out.append(heightDecimetres)
        out.append(nameIndex); out.append(minLatE7); out.append(minLonE7); out.append(maxLatE7); out.append(maxLonE7)
        out.append(ringStart); out.append(ringFlags); out.append(pointStart); out.append(pointLatE7); out.append(pointLonE7)
        out.append(nameBytes); out.append(nameStart)
        return out.bytes
    }

    /// The shapes stored in `region` (a mapped section or a copy of ``serialized()``), read in
    /// place. Counts and ranges are checked (O(shapes + rings)): a damaged blob throws, it never traps.
    public init(region: ByteRegion) throws(Malformed) {
        do throws(ArrayBlobReader.Malformed) {
            var r = try ArrayBlobReader(region, magic: Self.magic, version: Self.version)
            kinds = try r.stored(); flags = try r.stored(); osmIDs = try r.stored(); levelValues = try r.stored()
            heightDecimetres = try r.stored(); nameIndex = try r.stored()
            minLatE7 = try r.stored(); minLonE7 = try r.stored(); maxLatE7 = try r.stored(); maxLonE7 = try r.stored()
            ringStart = try r.stored(); ringFlags = try r.stored(); pointStart = try r.stored()
            pointLatE7 = try r.stored(); pointLonE7 = try r.stored(); nameBytes = try r.stored(); nameStart = try r.stored()
            guard r.isAtEnd else { throw ArrayBlobReader.Malformed(reason: "trailing bytes") }
        } catch {
            throw Malformed(description: "map shapes: \(error.reason)")
        }
        try validate()
    }

    /// A copy of `bytes` (``serialized()``), checked.
    public init(serialized bytes: [UInt8]) throws(Malformed) {
        try self.init(region: ByteRegion(copying: bytes))
    }

    private func validate() throws(Malformed) {
        func check(_ ok: Bool, _ what: String) throws(Malformed) {
            if !ok { throw Malformed(description: "map shapes: inconsistent \(what)") }
        }
        let n = count
        for array in [flags.count, osmIDs.count, levelValues.count, heightDecimetres.count, nameIndex.count,
                      minLatE7.count, minLonE7.count, maxLatE7.count, maxLonE7.count] {
            try check(array == n, "shape arrays")
        }
        try check(ringStart.count == n + 1 && ringStart[0] == 0 && Int(ringStart[n]) == ringFlags.count, "ring ranges")
        try check(pointStart.count == ringFlags.count + 1 && pointStart[0] == 0 && Int(pointStart[ringFlags.count]) == pointLatE7.count
                  && pointLonE7.count == pointLatE7.count, "point ranges")
        try check(nameStart.count >= 1 && nameStart[0] == 0 && Int(nameStart[nameStart.count - 1]) == nameBytes.count, "names")
        for i in 0..<n { try check(ringStart[i] <= ringStart[i + 1], "ring ranges") }
        for r in 0..<ringFlags.count { try check(pointStart[r] <= pointStart[r + 1], "point ranges") }
        for k in 1..<nameStart.count { try check(nameStart[k - 1] <= nameStart[k], "names") }
        let names = nameStart.count - 1
        for i in 0..<n { try check(nameIndex[i] >= 0 && Int(nameIndex[i]) < names, "name indexes") }
    }
}
