/// Storage-agnostic input of `RoadGraphBuilder`: the importer translates parsed OSM into these values.
public struct RoadNetworkInput: Sendable {
    /// Parallel arrays: OSM node id, latitude, longitude (degrees). Nodes not referenced by a way are ignored.
    public var nodeIDs: [Int64]
    public var nodeLatitudes: [Double]
    public var nodeLongitudes: [Double]
    /// Ways with a `highway` tag, and `route=ferry` ways. Others are ignored by the builder anyway.
    public var ways: [RoadWay]
    public var restrictions: [TurnRestriction]

    public init(nodeIDs: [Int64], nodeLatitudes: [Double], nodeLongitudes: [Double],
                ways: [RoadWay], restrictions: [TurnRestriction] = []) {
        precondition(nodeIDs.count == nodeLatitudes.count && nodeIDs.count == nodeLongitudes.count,
                     "RoadNetworkInput: parallel node arrays differ in length")
        self.nodeIDs = nodeIDs
        self.nodeLatitudes = nodeLatitudes
        self.nodeLongitudes = nodeLongitudes
        self.ways = ways
        self.restrictions = restrictions
    }

    public init(nodes: [(id: Int64, lat: Double, lon: Double)], ways: [RoadWay],
                restrictions: [TurnRestriction] = []) {
        self.init(nodeIDs: nodes.map(\.id), nodeLatitudes: nodes.map(\.lat), nodeLongitudes: nodes.map(\.lon),
                  ways: ways, restrictions: restrictions)
    }
}

/// One OSM way as the road graph reads it: its id, its nodes in order, and its tags.
public struct RoadWay: Sendable, Hashable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: [String: String]
    public init(id: Int64, nodeIDs: [Int64], tags: [String: String]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }

    /// The tags of `tags` that routing reads (highway class, access, one-way, speed, weight, name…):
    /// the graph built from a way with only these is the graph built from it with all of them.
    public static func routingTags(_ tags: [String: String]) -> [String: String] {
        tags.filter { VehicleProfiles.tagKeys.contains($0.key) }
    }
}

/// One turn restriction with a single via node (relations with via ways are not supported and are dropped by
/// `TurnRestriction.from(relationTags:members:)`).
public struct TurnRestriction: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable {
        /// `no_left_turn`, `no_right_turn`, `no_straight_on`, `no_u_turn`, `no_entry`, `no_exit`: the turn is forbidden.
        case no = 0
        /// `only_left_turn`, `only_right_turn`, `only_straight_on`, `only_u_turn`: every other turn is forbidden.
        case only = 1
    }
    public var fromWay: Int64
    public var viaNode: Int64
    public var toWay: Int64
    public var kind: Kind
    /// Vehicles it applies to (after `except=`).
    public var vehicles: VehicleSet

    public init(fromWay: Int64, viaNode: Int64, toWay: Int64, kind: Kind, vehicles: VehicleSet = .motorVehicles) {
        self.fromWay = fromWay
        self.viaNode = viaNode
        self.toWay = toWay
        self.kind = kind
        self.vehicles = vehicles
    }

    /// The kind of a `restriction*` value (`no_left_turn` → `.no`, `only_straight_on` → `.only`), nil otherwise.
    public static func kind(ofValue value: String) -> Kind? {
        let v = value.split(separator: ";").first.map { String($0).trimmed } ?? ""
        if v.hasPrefix("no_") { return .no }
        if v.hasPrefix("only_") { return .only }
        return nil
    }

    /// Kind and vehicles of a `type=restriction` relation's tags: `restriction=*` applies to car, motorcycle and
    /// truck; `restriction:motorcar|motorcycle|hgv|bicycle|foot|motor_vehicle|vehicle=*` to those vehicles;
    /// `except=a;b` removes vehicles (`motorcar`, `motorcycle`, `moped`, `hgv`, `goods`, `bicycle`, `foot`,
    /// `motor_vehicle`, `vehicle`). Nil when the tags carry no usable restriction.
    public static func interpret(tags: [String: String]) -> (kind: Kind, vehicles: VehicleSet)? {
        if let type = tags["type"], type != "restriction" && !type.hasPrefix("restriction:") { return nil }
        var kind: Kind?
        var vehicles: VehicleSet = []
        if let v = tags["restriction"], let k = Self.kind(ofValue: v) {
            kind = k
            vehicles = .motorVehicles
        }
        let specific: [(String, VehicleSet)] = [
            ("restriction:motorcar", .car), ("restriction:motorcycle", .motorcycle),
            ("restriction:hgv", .truck), ("restriction:bicycle", .bike), ("restriction:foot", .foot),
            ("restriction:motor_vehicle", .motorVehicles),
            ("restriction:vehicle", [.car, .motorcycle, .truck, .bike]),
        ]
        for (key, set) in specific {
            if let v = tags[key], let k = Self.kind(ofValue: v) {
                if kind == nil { kind = k }
                if k == kind { vehicles.formUnion(set) }
            }
        }
        guard let kind else { return nil }
        if let except = tags["except"] {
            for token in except.split(separator: ";") {
                switch String(token).trimmed {
                case "motorcar": vehicles.remove(.car)
                case "motorcycle", "moped": vehicles.remove(.motorcycle)
                case "hgv", "goods": vehicles.remove(.truck)
                case "bicycle": vehicles.remove(.bike)
                case "foot": vehicles.remove(.foot)
                case "motor_vehicle": vehicles.subtract(.motorVehicles)
                case "vehicle": vehicles.subtract([.car, .motorcycle, .truck, .bike])
                default: break
                }
            }
        }
        return vehicles.isEmpty ? nil : (kind, vehicles)
    }

    /// Translates a restriction relation (members as `(type, ref, role)` with types "node"/"way"/"relation")
    /// into restrictions. Several `from` (no_entry) or `to` (no_exit) ways give one restriction per pair.
    /// Returns [] for relations with a via way, no via node, or no usable tags.
    public static func from(relationTags tags: [String: String],
                            members: [(type: String, ref: Int64, role: String)]) -> [TurnRestriction] {
        guard let (kind, vehicles) = interpret(tags: tags) else { return [] }
        var from: [Int64] = [], to: [Int64] = [], via: [Int64] = []
        for m in members {
            switch (m.role, m.type) {
            case ("from", "way"): from.append(m.ref)
            case ("to", "way"): to.append(m.ref)
            case ("via", "node"): via.append(m.ref)
            case ("via", _): return []
            default: break
            }
        }
        guard via.count == 1, !from.isEmpty, !to.isEmpty else { return [] }
        var result: [TurnRestriction] = []
        for f in from {
            for t in to {
                result.append(TurnRestriction(fromWay: f, viaNode: via[0], toWay: t, kind: kind, vehicles: vehicles))
            }
        }
        return result
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
