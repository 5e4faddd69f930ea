import Foundation
import OSMReader
import Routing

/// Collects the road network of OSM inputs (XML or PBF) for `RoadGraphBuilder`: highway and ferry
/// ways, the nodes they use, and turn-restriction relations.
///
/// Each file is read twice so memory holds only what routing needs: first ways and relations
/// (no nodes), then only the coordinates of the nodes those ways reference. Several files merge
/// by OSM id, so overlapping extracts do not duplicate roads.
///
/// Held compactly, for a country's millions of ways: a way keeps only the tags routing reads
/// (`RoadWay.routingTags`), identical tag sets share one dictionary, and coordinates are parallel
/// arrays sorted by node id (no hash table per node).
struct RoadNetworkSource {
    /// Road ways in reading order; the first file's copy of an id wins.
    private var ways: [RoadWay] = []
    private var wayIDs = Set<Int64>()
    private(set) var restrictions: [TurnRestriction] = []
    private var restrictionIDs = Set<Int64>()
    /// The coordinates of the nodes the ways use: parallel arrays, sorted by node id.
    private var nodeIDs: [Int64] = []
    private var latitudes: [Double] = []
    private var longitudes: [Double] = []

    var isEmpty: Bool { ways.isEmpty }

    /// Reads one OSM file's roads; returns how many road ways it contributed.
    mutating func read(_ url: URL) throws -> Int {
        var collector = WayCollector()
        try OSMReader.readForImport(url, options: OSMReadOptions(kinds: [.ways, .relations]), handler: &collector)
        let before = ways.count
        for way in collector.ways where wayIDs.insert(way.id).inserted { ways.append(way) }
        for (id, relation) in collector.restrictions where restrictionIDs.insert(id).inserted {
            restrictions += TurnRestriction.from(relationTags: relation.tags,
                                                 members: relation.members.map { ($0.type.rawValue, $0.ref, $0.role) })
        }
        // Every node a way of this file names (a way kept from an earlier file may get the nodes
        // its clipped copy lacked), sorted, without those already known.
        var needed = collector.ways.flatMap(\.nodeIDs)
        collector = WayCollector()
        needed.sort()
        var unique = 0
        for id in needed where (unique == 0 || needed[unique - 1] != id) && nodeIDs.position(ofSorted: id) == nil {
            needed[unique] = id
            unique += 1
        }
        needed.removeSubrange(unique...)
        var nodes = NodeCollector(needed: needed)
        try OSMReader.readForImport(url, options: OSMReadOptions(kinds: [.nodes], untaggedNodes: true, nodeTags: false), handler: &nodes)
        merge(nodes)
        return ways.count - before
    }

    /// The builder's input, taken out of this source (which is left empty): ways in id order whose
    /// nodes are all known (clipped extracts may cut a way; its known part is kept as long as it
    /// has two nodes), and the nodes they use in id order.
    mutating func takeInput() -> RoadNetworkInput {
        let order = ways.indices.sorted { ways[$0].id < ways[$1].id }
        var used = [Bool](repeating: false, count: nodeIDs.count)
        var kept: [RoadWay] = []
        kept.reserveCapacity(ways.count)
        for i in order {
            var way = ways[i]
            let positions = way.nodeIDs.map { nodeIDs.position(ofSorted: $0) }
            if positions.contains(nil) { way.nodeIDs = zip(way.nodeIDs, positions).filter { $0.1 != nil }.map(\.0) }
            guard way.nodeIDs.count >= 2 else { continue }
            for position in positions { if let position { used[position] = true } }
            kept.append(way)
        }
        var ids: [Int64] = [], lats: [Double] = [], lons: [Double] = []
        for (i, isUsed) in used.enumerated() where isUsed {
            ids.append(nodeIDs[i])
            lats.append(latitudes[i])
            lons.append(longitudes[i])
        }
        let input = RoadNetworkInput(nodeIDs: ids, nodeLatitudes: lats, nodeLongitudes: lons, ways: kept, restrictions: restrictions)
        self = RoadNetworkSource()
        return input
    }

    /// Adds the coordinates `nodes` found, keeping the arrays sorted by id.
    private mutating func merge(_ nodes: NodeCollector) {
        var ids: [Int64] = [], lats: [Double] = [], lons: [Double] = []
        let capacity = nodeIDs.count + nodes.needed.count
        ids.reserveCapacity(capacity); lats.reserveCapacity(capacity); lons.reserveCapacity(capacity)
        var old = 0
        for (k, id) in nodes.needed.enumerated() where !nodes.latitudes[k].isNaN {
            while old < nodeIDs.count && nodeIDs[old] < id {
                ids.append(nodeIDs[old]); lats.append(latitudes[old]); lons.append(longitudes[old])
                old += 1
            }
            ids.append(id); lats.append(nodes.latitudes[k]); lons.append(nodes.longitudes[k])
        }
        ids += nodeIDs[old...]; lats += latitudes[old...]; lons += longitudes[old...]
        (nodeIDs, latitudes, longitudes) = (ids, lats, lons)
    }

    /// Keeps routable ways (with the tags routing reads, identical sets shared) and restriction relations.
    private struct WayCollector: OSMHandler {
        var ways: [RoadWay] = []
        var restrictions: [(Int64, OSMRelation)] = []
        var tagSets = Set<[String: String]>()

        mutating func way(_ way: OSMWay) {
            guard way.tags["highway"] != nil || way.tags["route"] == "ferry" else { return }
            let tags = tagSets.insert(RoadWay.routingTags(way.tags)).memberAfterInsert
            ways.append(RoadWay(id: way.id, nodeIDs: way.nodeIDs, tags: tags))
        }

        mutating func relation(_ relation: OSMRelation) {
            let type = relation.tags["type"]
            guard type == "restriction" || type?.hasPrefix("restriction:") == true else { return }
            restrictions.append((relation.id, relation))
        }
    }

    /// The coordinates of the nodes in `needed` (sorted ids): NaN where the file has none.
    private struct NodeCollector: OSMHandler {
        let needed: [Int64]
        var latitudes: [Double]
        var longitudes: [Double]

        init(needed: [Int64]) {
            self.needed = needed
            latitudes = [Double](repeating: .nan, count: needed.count)
            longitudes = latitudes
        }

        mutating func node(_ node: OSMNode) {
            if let k = needed.position(ofSorted: node.id) { (latitudes[k], longitudes[k]) = (node.lat, node.lon) }
        }
    }
}
