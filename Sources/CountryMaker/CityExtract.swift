import Foundation
import OSMReader
import PBFWriter

/// The part of a city's OSM file the importer uses, held once in memory with compact indexes:
/// road ways (and ferries) with their nodes, turn restrictions, POI and address nodes, named
/// area ways and multipolygons (with their outer ways), address buildings. Elements are sorted
/// by their original id; ways and relations refer to nodes and ways by index.
///
/// Coordinates are integers in 1e-7 degree (the PBF's own unit at granularity 100), so a copy
/// translated by whole units keeps every street's geometry exactly.
struct CityExtract {
    struct Way {
        var id: Int64
        var nodes: [Int32]
        var tags: PBFTags
        /// Carries a `name` that is a place's (not a street's): varied per copy.
        var placeName: Bool
        /// Carries addr:city/addr:province-like tags: set to the copy's province.
        var hasRegionTags: Bool
    }

    struct Member {
        var kind: PBFMember.Kind
        var index: Int32
        var role: String
    }

    struct Relation {
        var id: Int64
        var members: [Member]
        var tags: PBFTags
        var placeName: Bool
        var hasRegionTags: Bool
    }

    struct TaggedNode {
        var tags: PBFTags
        var placeName: Bool
        var hasRegionTags: Bool
    }

    var nodeIDs: [Int64] = []
    var latE7: [Int64] = []
    var lonE7: [Int64] = []
    /// Per node: index into `taggedNodes`, or -1 for a plain vertex (written without tags).
    var nodeTagIndex: [Int32] = []
    var taggedNodes: [TaggedNode] = []
    var ways: [Way] = []
    var relations: [Relation] = []
    var bounds = PBFBoundingBox(minLatE7: 0, minLonE7: 0, maxLatE7: 0, maxLonE7: 0)

    /// Tags that name the city or province an element is in.
    static let regionKeys: Set<String> = ["addr:city", "addr:province", "addr:state", "is_in:city", "is_in:province",
                                          "is_in:state", "is_in"]

    /// Reads `url` (PBF or XML) three times: relations, then ways, then nodes.
    init(reading url: URL) throws(OSMReadError) {
        var relationPass = RelationPass()
        try OSMReader.read(url, options: OSMReadOptions(kinds: .relations), handler: &relationPass)
        var wayPass = WayPass(areaMembers: relationPass.areaMembers)
        try OSMReader.read(url, options: OSMReadOptions(kinds: .ways), handler: &wayPass)
        var needed = Set<Int64>()
        for way in wayPass.ways { needed.formUnion(way.nodeIDs) }
        var nodePass = NodePass(needed: needed)
        try OSMReader.read(url, options: OSMReadOptions(kinds: .nodes), handler: &nodePass)

        // Nodes, by id.
        let order = nodePass.nodes.indices.sorted { nodePass.nodes[$0].id < nodePass.nodes[$1].id }
        var nodeIndex: [Int64: Int32] = [:]
        nodeIndex.reserveCapacity(order.count)
        for i in order {
            let node = nodePass.nodes[i]
            guard nodeIndex[node.id] == nil else { continue }
            nodeIndex[node.id] = Int32(nodeIDs.count)
            nodeIDs.append(node.id)
            latE7.append(node.latE7)
            lonE7.append(node.lonE7)
            if let tags = node.tags {
                nodeTagIndex.append(Int32(taggedNodes.count))
                taggedNodes.append(TaggedNode(tags: ImportRelevance.kept(tags), placeName: ImportRelevance.hasName(tags),
                                              hasRegionTags: tags.keys.contains(where: Self.regionKeys.contains)))
            } else {
                nodeTagIndex.append(-1)
            }
        }

        // Ways, by id; refs to nodes the file lacks (clipped extracts) dropped.
        var wayIndex: [Int64: Int32] = [:]
        for way in wayPass.ways.sorted(by: { $0.id < $1.id }) where wayIndex[way.id] == nil {
            let refs = way.nodeIDs.compactMap { nodeIndex[$0] }
            let road = ImportRelevance.isRoad(way.tags)
            guard refs.count >= (road ? 2 : 1) else { continue }
            wayIndex[way.id] = Int32(ways.count)
            ways.append(Way(id: way.id, nodes: refs, tags: ImportRelevance.kept(way.tags),
                            placeName: !road && ImportRelevance.hasName(way.tags),
                            hasRegionTags: way.tags.keys.contains(where: Self.regionKeys.contains)))
        }

        // Relations: restrictions whose members are all here; multipolygons with the outer ways that are.
        for relation in relationPass.relations.sorted(by: { $0.id < $1.id }) {
            let restriction = ImportRelevance.isRestriction(relation.tags)
            var members: [Member] = []
            var complete = true
            for member in relation.members {
                switch member.type {
                case .node:
                    if let index = nodeIndex[member.ref] { members.append(Member(kind: .node, index: index, role: member.role)) } else { complete = false }
                case .way:
                    if let index = wayIndex[member.ref] { members.append(Member(kind: .way, index: index, role: member.role)) } else { complete = false }
                case .relation:
                    complete = false
                }
            }
            if restriction ? !complete : !members.contains(where: { $0.kind == .way }) { continue }
            relations.append(Relation(id: relation.id, members: members, tags: ImportRelevance.kept(relation.tags),
                                      placeName: !restriction,
                                      hasRegionTags: relation.tags.keys.contains(where: Self.regionKeys.contains)))
        }

        if !nodeIDs.isEmpty {
            bounds = PBFBoundingBox(minLatE7: latE7.min()!, minLonE7: lonE7.min()!, maxLatE7: latE7.max()!, maxLonE7: lonE7.max()!)
        }
    }

    static func e7(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }

    private struct RelationPass: OSMHandler {
        var relations: [OSMRelation] = []
        var areaMembers = Set<Int64>()

        mutating func relation(_ relation: OSMRelation) {
            if ImportRelevance.isRestriction(relation.tags) {
                relations.append(relation)
            } else if ImportRelevance.isPlaceMultipolygon(relation.tags) {
                var relation = relation
                relation.members = relation.members.filter { $0.type == .way && ($0.role == "outer" || $0.role.isEmpty) }
                areaMembers.formUnion(relation.members.map(\.ref))
                relations.append(relation)
            }
        }
    }

    private struct WayPass: OSMHandler {
        let areaMembers: Set<Int64>
        var ways: [OSMWay] = []

        mutating func way(_ way: OSMWay) {
            if ImportRelevance.isKeptWay(way.tags) || areaMembers.contains(way.id) { ways.append(way) }
        }
    }

    private struct NodePass: OSMHandler {
        struct Kept {
            var id: Int64
            var latE7: Int64
            var lonE7: Int64
            var tags: [String: String]?
        }

        let needed: Set<Int64>
        var nodes: [Kept] = []

        mutating func node(_ node: OSMNode) {
            let place = !node.tags.isEmpty && ImportRelevance.isPlaceNode(node.tags)
            guard place || needed.contains(node.id) else { return }
            nodes.append(Kept(id: node.id, latE7: CityExtract.e7(node.lat), lonE7: CityExtract.e7(node.lon),
                              tags: place ? node.tags : nil))
        }
    }

    /// About `count` place nodes (POIs, addresses), evenly spread over the id order.
    func placeSample(_ count: Int) -> [(latE7: Int64, lonE7: Int64)] {
        let places = nodeTagIndex.indices.filter { nodeTagIndex[$0] >= 0 }
        guard !places.isEmpty else { return [] }
        let step = max(1, places.count / max(1, count))
        return Swift.stride(from: 0, to: places.count, by: step).map { (latE7[places[$0]], lonE7[places[$0]]) }
    }
}
