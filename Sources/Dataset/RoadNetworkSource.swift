import Foundation
import OSMReader
import Routing

/// Collects the road network of OSM inputs (XML or PBF) for `RoadGraphBuilder`: highway and ferry
/// ways, the nodes they use, and turn-restriction relations.
///
/// Each file is read twice so memory holds only what routing needs: first ways and relations
/// (no nodes), then only the coordinates of the nodes those ways reference. Several files merge
/// by OSM id, so overlapping extracts do not duplicate roads.
struct RoadNetworkSource {
    private(set) var ways: [Int64: RoadWay] = [:]
    private(set) var restrictions: [TurnRestriction] = []
    private var restrictionIDs = Set<Int64>()
    private var coordinates: [Int64: (Double, Double)] = [:]

    var isEmpty: Bool { ways.isEmpty }

    /// Reads one OSM file's roads; returns how many road ways it contributed.
    mutating func read(_ url: URL) throws -> Int {
        var collector = WayCollector()
        do {
            try OSMReader.read(url, options: OSMReadOptions(kinds: [.ways, .relations]), handler: &collector)
        } catch {
            throw DatasetError.osm(error, url: url)
        }
        let before = ways.count
        for way in collector.ways where ways[way.id] == nil { ways[way.id] = way }
        for (id, relation) in collector.restrictions where restrictionIDs.insert(id).inserted {
            restrictions += TurnRestriction.from(relationTags: relation.tags,
                                                 members: relation.members.map { ($0.type.rawValue, $0.ref, $0.role) })
        }
        var needed = Set<Int64>()
        for way in collector.ways { for id in way.nodeIDs where coordinates[id] == nil { needed.insert(id) } }
        var nodes = NodeCollector(needed: needed)
        do {
            try OSMReader.read(url, options: OSMReadOptions(kinds: [.nodes], untaggedNodes: true, nodeTags: false), handler: &nodes)
        } catch {
            throw DatasetError.osm(error, url: url)
        }
        for (id, coordinate) in nodes.found { coordinates[id] = coordinate }
        return ways.count - before
    }

    /// The builder's input: ways whose nodes are all known (clipped extracts may cut a way; its
    /// known part is kept as long as it has two nodes).
    func input() -> RoadNetworkInput {
        var usedNodes = Set<Int64>()
        var kept: [RoadWay] = []
        for id in ways.keys.sorted() {
            guard var way = ways[id] else { continue }
            way.nodeIDs = way.nodeIDs.filter { coordinates[$0] != nil }
            guard way.nodeIDs.count >= 2 else { continue }
            usedNodes.formUnion(way.nodeIDs)
            kept.append(way)
        }
        let ids = usedNodes.sorted()
        return RoadNetworkInput(nodeIDs: ids, nodeLatitudes: ids.map { coordinates[$0]!.0 },
                                nodeLongitudes: ids.map { coordinates[$0]!.1 }, ways: kept, restrictions: restrictions)
    }

    /// Keeps routable ways and restriction relations.
    private struct WayCollector: OSMHandler {
        var ways: [RoadWay] = []
        var restrictions: [(Int64, OSMRelation)] = []

        mutating func way(_ way: OSMWay) {
            guard way.tags["highway"] != nil || way.tags["route"] == "ferry" else { return }
            ways.append(RoadWay(id: way.id, nodeIDs: way.nodeIDs, tags: way.tags))
        }

        mutating func relation(_ relation: OSMRelation) {
            let type = relation.tags["type"]
            guard type == "restriction" || type?.hasPrefix("restriction:") == true else { return }
            restrictions.append((relation.id, relation))
        }
    }

    /// Keeps the coordinates of the nodes in `needed`.
    private struct NodeCollector: OSMHandler {
        let needed: Set<Int64>
        var found: [Int64: (Double, Double)] = [:]

        mutating func node(_ node: OSMNode) {
            if needed.contains(node.id) { found[node.id] = (node.lat, node.lon) }
        }
    }
}
