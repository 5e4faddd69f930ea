import Foundation
import OSMReader

/// Collects the map shapes of OSM inputs (XML or PBF) for ``MapShapes``: closed ways and
/// `type=multipolygon` relations whose tags give an area kind (buildings, water, land use, parks,
/// schools…), and ways whose tags give a line kind (rivers, canals, streams, railways), as
/// ``MapShapeKind/classify(_:)`` reads them.
///
/// Each file is read three times so memory holds only what the shapes need: relations (the
/// multipolygons and their member ways' ids), ways (the shapes' ways and those members, as node
/// ids), then the coordinates of only the nodes those ways use. Several files merge by OSM id
/// (the first file's copy wins).
///
/// Geometry as an extract allows: an area way missing a node (cut by the extract's edge) is
/// dropped; a line keeps its runs of known nodes. A multipolygon's outer and inner rings are
/// joined from its member ways end to end; rings that do not close (members missing) are dropped,
/// and a multipolygon without a closed outer ring is dropped.
public struct MapShapeSource {
    /// The shapes collected so far, in reading order.
    public private(set) var shapes: [MapShape] = []
    private var wayIDs = Set<Int64>()
    private var relationIDs = Set<Int64>()

    public init() {}

    /// Reads one OSM file's shapes; returns how many it contributed.
    @discardableResult
    public mutating func read(_ url: URL) throws -> Int {
        var relations = RelationCollector()
        var ways = WayCollector()
        do {
            try OSMReader.read(url, options: OSMReadOptions(kinds: [.relations]), handler: &relations)
            ways.members = Set(relations.multipolygons.flatMap { $0.members.map(\.way) })
            try OSMReader.read(url, options: OSMReadOptions(kinds: [.ways]), handler: &ways)
        } catch {
            throw DatasetError.osm(error, url: url)
        }
        var needed = ways.shapes.flatMap(\.nodeIDs) + ways.memberNodes.values.joined()
        needed.sort()
        var unique = 0
        for id in needed where unique == 0 || needed[unique - 1] != id {
            needed[unique] = id
            unique += 1
        }
        needed.removeSubrange(unique...)
        var nodes = NodeCollector(needed: needed)
        try OSMReader.readForImport(url, options: OSMReadOptions(kinds: [.nodes], untaggedNodes: true, nodeTags: false), handler: &nodes)

        let before = shapes.count
        for way in ways.shapes where !wayIDs.contains(way.id) {
            var rings: [MapShape.Ring] = []
            var ring = MapShape.Ring(latE7: [], lonE7: [])
            var complete = true
            for id in way.nodeIDs {
                if let (lat, lon) = nodes.coordinate(id) {
                    ring.latE7.append(lat)
                    ring.lonE7.append(lon)
                } else {
                    complete = false
                    if ring.count >= 2 { rings.append(ring) }
                    ring = MapShape.Ring(latE7: [], lonE7: [])
                }
            }
            if ring.count >= 2 { rings.append(ring) }
            if way.details.isArea && !complete || rings.isEmpty { continue }
            wayIDs.insert(way.id)
            shapes.append(way.details.shape(osmID: way.id, isRelation: false, rings: rings))
        }
        for relation in relations.multipolygons where !relationIDs.contains(relation.id) {
            var rings: [MapShape.Ring] = []
            for inner in [false, true] {
                let parts = relation.members.filter { $0.inner == inner }.compactMap { ways.memberNodes[$0.way] }
                    .filter { $0.allSatisfy { nodes.coordinate($0) != nil } }
                for ids in Self.closedRings(parts) {
                    let points = ids.map { nodes.coordinate($0)! }
                    rings.append(MapShape.Ring(isInner: inner, latE7: points.map(\.0), lonE7: points.map(\.1)))
                }
            }
            guard rings.contains(where: { !$0.isInner }) else { continue }
            relationIDs.insert(relation.id)
            shapes.append(relation.details.shape(osmID: relation.id, isRelation: true, rings: rings))
        }
        return shapes.count - before
    }

    /// The closed rings `parts` (ways as node ids) make joined end to end; parts that close no
    /// ring are left out.
    static func closedRings(_ parts: [[Int64]]) -> [[Int64]] {
        var rings: [[Int64]] = []
        var open: [[Int64]] = []
        for part in parts where part.count >= 2 {
            if part.count >= 4 && part.first == part.last { rings.append(part) } else { open.append(part) }
        }
        var byEnd: [Int64: [Int]] = [:]
        for (i, part) in open.enumerated() {
            byEnd[part[0], default: []].append(i)
            byEnd[part[part.count - 1], default: []].append(i)
        }
        var used = [Bool](repeating: false, count: open.count)
        for start in open.indices where !used[start] {
            used[start] = true
            var ring = open[start]
            var extended = true
            while ring.first != ring.last && extended {
                extended = false
                let end = ring[ring.count - 1]
                for next in byEnd[end] ?? [] where !used[next] {
                    used[next] = true
                    let part = open[next]
                    ring += part[0] == end ? part.dropFirst() : part.reversed().dropFirst()
                    extended = true
                    break
                }
            }
            if ring.count >= 4 && ring.first == ring.last { rings.append(ring) }
        }
        return rings
    }

    /// What a shape keeps of its element's tags.
    struct Details {
        var kind: MapShapeKind
        var isArea: Bool
        var name: String
        var levels: Int?
        var heightMetres: Double?

        /// The details of an element tagged `tags`, nil when it is no shape; `closed`: a closed
        /// way or a multipolygon (which may be an area).
        init?(tags: [String: String], closed: Bool) {
            guard let kind = MapShapeKind.classify(tags) else { return nil }
            if kind.isLine {
                isArea = false
            } else if closed && tags["area"] != "no" {
                isArea = true
            } else if kind == .runway {
                isArea = false
            } else {
                return nil
            }
            self.kind = kind
            name = tags["name"] ?? tags["name:vi"] ?? ""
            if kind == .building {
                if let raw = tags["building:levels"], let v = Self.number(raw), v >= 0.5, v < 255.5 { levels = Int(v.rounded()) }
                if let raw = tags["height"], let v = Self.number(raw), v > 0, v < 6553 { heightMetres = (v * 10).rounded() / 10 }
            }
        }

        /// "12", "12.5", "12 m", "12m" → 12 (the first of several values); nil for other units or garbage.
        static func number(_ raw: String) -> Double? {
            var s = (raw.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
            if s.hasSuffix("m") { s.removeLast() }
            guard let v = Double(s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")), v.isFinite else { return nil }
            return v
        }

        func shape(osmID: Int64, isRelation: Bool, rings: [MapShape.Ring]) -> MapShape {
            MapShape(kind: kind, isArea: isArea, osmID: osmID, isRelation: isRelation, name: name, levels: levels,
                     heightMetres: heightMetres, rings: rings)
        }
    }

    /// Multipolygon relations that are shapes, with their way members.
    private struct RelationCollector: OSMHandler {
        struct Multipolygon {
            var id: Int64
            var details: Details
            var members: [(way: Int64, inner: Bool)]
        }
        var multipolygons: [Multipolygon] = []

        mutating func relation(_ relation: OSMRelation) {
            guard relation.tags["type"] == "multipolygon", let details = Details(tags: relation.tags, closed: true) else { return }
            let members = relation.members.filter { $0.type == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty) }
                .map { (way: $0.ref, inner: $0.role == "inner") }
            guard !members.isEmpty else { return }
            multipolygons.append(Multipolygon(id: relation.id, details: details, members: members))
        }
    }

    /// Ways that are shapes, and the node ids of the multipolygons' member ways.
    private struct WayCollector: OSMHandler {
        struct ShapeWay {
            var id: Int64
            var details: Details
            var nodeIDs: [Int64]
        }
        var members = Set<Int64>()
        var shapes: [ShapeWay] = []
        var memberNodes: [Int64: [Int64]] = [:]

        mutating func way(_ way: OSMWay) {
            if members.contains(way.id) { memberNodes[way.id] = way.nodeIDs }
            guard !way.tags.isEmpty else { return }
            let closed = way.nodeIDs.count >= 4 && way.nodeIDs.first == way.nodeIDs.last
            guard let details = Details(tags: way.tags, closed: closed) else { return }
            shapes.append(ShapeWay(id: way.id, details: details, nodeIDs: way.nodeIDs))
        }
    }

    /// The coordinates (1e-7 degrees) of the nodes in `needed` (sorted ids).
    private struct NodeCollector: OSMHandler {
        let needed: [Int64]
        var latE7: [Int32]
        var lonE7: [Int32]
        var found: [Bool]

        init(needed: [Int64]) {
            self.needed = needed
            latE7 = [Int32](repeating: 0, count: needed.count)
            lonE7 = latE7
            found = [Bool](repeating: false, count: needed.count)
        }

        mutating func node(_ node: OSMNode) {
            guard abs(node.lat) <= 90, abs(node.lon) <= 180, let k = needed.position(ofSorted: node.id) else { return }
            latE7[k] = Int32((node.lat * 1e7).rounded())
            lonE7[k] = Int32((node.lon * 1e7).rounded())
            found[k] = true
        }

        func coordinate(_ id: Int64) -> (Int32, Int32)? {
            guard let k = needed.position(ofSorted: id), found[k] else { return nil }
            return (latE7[k], lonE7[k])
        }
    }
}
