/// One map shape as the import collects it and ``MapShapes/shape(_:)`` gives it back: a building,
/// a lake, a park, a river's centre line… with its OSM origin, name and geometry.
///
/// Coordinates are 1e-7 degrees (`Int32`, OSM's precision). An area's rings are closed (first
/// point = last point); outer rings run as OSM has them (no orientation is imposed), inner rings
/// (holes: a lake's islands, a courtyard) follow their outer ring. A line has one ring, open or
/// closed, with `isInner == false`.
public struct MapShape: Sendable, Equatable {
    /// One ring of an area, or the points of a line.
    public struct Ring: Sendable, Equatable {
        /// A hole of the area (`role=inner` in a multipolygon).
        public var isInner: Bool
        public var latE7: [Int32]
        public var lonE7: [Int32]

        public init(isInner: Bool = false, latE7: [Int32], lonE7: [Int32]) {
            precondition(latE7.count == lonE7.count, "a ring's coordinate arrays differ in length")
            self.isInner = isInner
            self.latE7 = latE7
            self.lonE7 = lonE7
        }

        public var count: Int { latE7.count }
    }

    public var kind: MapShapeKind
    /// An area (closed rings) rather than a line. Always true for the area kinds and false for
    /// the line kinds (``MapShapeKind/isLine``); a runway may be either.
    public var isArea: Bool
    /// The OSM way id, or the relation id of a multipolygon (``isRelation``).
    public var osmID: Int64
    public var isRelation: Bool
    /// `name` (else `name:vi`); "" when untagged.
    public var name: String
    /// `building:levels` (whole floors above ground, 1…255), buildings only; nil when untagged.
    public var levels: Int?
    /// `height` in metres (0.1 m precision, up to 6553.5), buildings only; nil when untagged.
    public var heightMetres: Double?
    public var rings: [Ring]

    public init(kind: MapShapeKind, isArea: Bool, osmID: Int64, isRelation: Bool = false, name: String = "",
                levels: Int? = nil, heightMetres: Double? = nil, rings: [Ring]) {
        self.kind = kind
        self.isArea = isArea
        self.osmID = osmID
        self.isRelation = isRelation
        self.name = name
        self.levels = levels
        self.heightMetres = heightMetres
        self.rings = rings
    }
}
