/// Every feature's geometry copied into a few flat arrays when the index is built: one array of points in
/// feature order, parts (a point set, a line, a ring) as ranges of it, features as ranges of parts. A tile
/// reads one contiguous run of memory per feature instead of chasing nested arrays (and their reference
/// counts) across the heap. Memory: 16 bytes a point, 5 a part, 5 a feature.
struct FlatGeometry: Sendable {
    enum Kind: UInt8, Sendable { case points, lines, polygons }

    var kinds: [Kind] = []
    /// Feature i's parts are `featureParts[i] ..< featureParts[i + 1]`.
    var featureParts: [UInt32] = [0]
    /// Part j's points are `partStarts[j] ..< partStarts[j + 1]`.
    var partStarts: [UInt32] = [0]
    /// For polygons: whether part j is an exterior ring (the holes that follow it are its own).
    var exterior: [Bool] = []
    var points: [WorldPoint] = []

    /// Appends a feature; `usable` false stores it with no parts (it is never drawn).
    mutating func append(_ geometry: MapGeometry, usable: Bool) {
        switch geometry {
        case .points(let p):
            kinds.append(.points)
            if usable { addPart(p, exterior: false) }
        case .lines(let lines):
            kinds.append(.lines)
            if usable { for line in lines { addPart(line, exterior: false) } }
        case .polygons(let polygons):
            kinds.append(.polygons)
            if usable {
                for polygon in polygons {
                    for (k, ring) in polygon.enumerated() { addPart(ring, exterior: k == 0) }
                }
            }
        }
        featureParts.append(UInt32(truncatingIfNeeded: exterior.count))
    }

    private mutating func addPart(_ part: [WorldPoint], exterior isExterior: Bool) {
        points.append(contentsOf: part)
        partStarts.append(UInt32(truncatingIfNeeded: points.count))
        exterior.append(isExterior)
    }
}
