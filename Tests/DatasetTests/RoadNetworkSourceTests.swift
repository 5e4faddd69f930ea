import Dataset
import DefaultData
import Foundation
import OSMReader
import Routing
import TestExpectations
import Testing

/// The importer holds roads compactly (only the tags routing reads, identical tag sets shared,
/// coordinates in arrays sorted by id, several files merged by id): the graph it builds is byte for
/// byte the one built from every tag of every road way, read plainly.
@Suite final class RoadNetworkSourceTests {
    @Test func testCompactRoadsBuildTheGraphOfAllTags() throws {
        struct Plain: OSMHandler {
            var ways: [Int64: RoadWay] = [:]
            var coordinates: [Int64: (Double, Double)] = [:]
            var restrictions: [Int64: [TurnRestriction]] = [:]
            var restrictionOrder: [Int64] = []
            mutating func node(_ node: OSMNode) { if coordinates[node.id] == nil { coordinates[node.id] = (node.lat, node.lon) } }
            mutating func way(_ way: OSMWay) {
                guard way.tags["highway"] != nil || way.tags["route"] == "ferry", ways[way.id] == nil else { return }
                ways[way.id] = RoadWay(id: way.id, nodeIDs: way.nodeIDs, tags: way.tags)
            }
            mutating func relation(_ relation: OSMRelation) {
                let type = relation.tags["type"]
                guard type == "restriction" || type?.hasPrefix("restriction:") == true, restrictions[relation.id] == nil else { return }
                restrictionOrder.append(relation.id)
                restrictions[relation.id] = TurnRestriction.from(relationTags: relation.tags,
                                                                 members: relation.members.map { ($0.type.rawValue, $0.ref, $0.role) })
            }
        }
        // Two files: Q1/Q3 and Hoàn Kiếm (XML), merged.
        let files = DefaultData.inputFiles.filter { $0.pathExtension.lowercased() == "osm" }
        expectEqual(files.count, 2)
        var plain = Plain()
        for file in files { try OSMReader.read(file, options: OSMReadOptions(kinds: .all, untaggedNodes: true), handler: &plain) }
        let ways = plain.ways.keys.sorted().compactMap { id -> RoadWay? in
            var way = plain.ways[id]!
            way.nodeIDs = way.nodeIDs.filter { plain.coordinates[$0] != nil }
            return way.nodeIDs.count >= 2 ? way : nil
        }
        let ids = Set(ways.flatMap(\.nodeIDs)).sorted()
        let input = RoadNetworkInput(nodeIDs: ids, nodeLatitudes: ids.map { plain.coordinates[$0]!.0 },
                                     nodeLongitudes: ids.map { plain.coordinates[$0]!.1 }, ways: ways,
                                     restrictions: plain.restrictionOrder.flatMap { plain.restrictions[$0]! })
        let allTags = RoadGraphBuilder.build(input)
        let imported = try RoadGraphImport.graph(osmFiles: files)
        expectGreaterThan(allTags.storage.edgeCount, 5_000)
        expectEqual(imported.serialized(), allTags.serialized(), "the same graph, byte for byte")

        let kept = ways.map { RoadWay.routingTags($0.tags).count }.reduce(0, +)
        expectLessThan(kept, ways.map(\.tags.count).reduce(0, +), "tags routing does not read are dropped")
        expectTrue(ways.allSatisfy { RoadWay.routingTags($0.tags)["highway"] == $0.tags["highway"] })
    }
}
