import Foundation
import OSMReader
import TestExpectations
import Testing

/// Counts from /work/shared/data/README.md, read from the repository's real extracts.
/// Tagged-node and relation counts were checked with independent Python parsers
/// (ElementTree for XML, a hand-written protobuf walk for PBF).
@Suite final class OSMReaderRealDataTests {
    @Test func testHCMCQuan1Quan3XML() throws {
        var stats = OSMStats()
        try OSMReader.read(OSMFixtures.hcmcQ1Q3XML, handler: &stats)
        expectEqual(stats.nodes, 16_295)
        expectEqual(stats.ways, 3_937)
        expectEqual(stats.taggedNodes, 2_550)
        expectEqual(stats.onewayYes, 428)
        expectEqual(stats.onewayReverse, 12)
        expectEqual(stats.bounds, OSMBounds(minLat: 10.756, minLon: 106.67, maxLat: 10.796, maxLon: 106.711))
        expectEqual(stats.firstNode, OSMNode(id: 366_367_233, lat: 10.7711099, lon: 106.7097014))
        expectEqual(stats.resolvedFraction, 1, accuracy: 0.0001, "every way ref resolves")
        print("Q1/Q3 XML: \(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
    }

    @Test func testHanoiHoanKiemXML() throws {
        var stats = OSMStats()
        try OSMReader.read(OSMFixtures.hoanKiemXML, handler: &stats)
        expectEqual(stats.nodes, 9_862)
        expectEqual(stats.ways, 1_423)
        expectEqual(stats.taggedNodes, 3_408)
        expectEqual(stats.relations, 39)
        expectEqual(stats.highwayWays, 743)
        expectEqual(stats.onewayYes, 160)
        expectEqual(stats.restrictions, 12)
        let restriction = try unwrap(stats.firstRestriction)
        expectNotNil(restriction.tags["restriction"])
        expectEqual(restriction.members.filter { $0.role == "from" }.first?.type, .way)
        expectTrue(restriction.members.contains { $0.role == "via" })
        expectGreaterThan(stats.resolvedFraction, 0.5)
        print("Hoàn Kiếm XML: \(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
    }

    @Test func testHCMCPBF() throws {
        var stats = OSMStats()
        let start = Date()
        try OSMReader.read(OSMFixtures.hcmcPBF, handler: &stats)
        print("HCMC PBF: read in \(Date().timeIntervalSince(start)) s; "
              + "\(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
        expectEqual(stats.nodes, 377_702)
        expectEqual(stats.ways, 44_285)
        expectEqual(stats.taggedNodes, 34_879)
        expectEqual(stats.relations, 607)
        expectEqual(stats.highwayWays, 33_044)
        expectEqual(stats.onewayYes, 2_932)
        expectEqual(stats.onewayReverse, 169)
        expectEqual(stats.restrictions, 69)
        expectEqual(stats.nodeIDs.count, stats.nodes, "node ids are unique")
        expectEqual(stats.resolvedFraction, 1, accuracy: 0.0001, "every way ref resolves")
        expectNil(stats.bounds, "this file's HeaderBlock has no bbox")
        let first = try unwrap(stats.firstNode)
        expectEqual(first.lat, 10.5, accuracy: 1.5)
        expectEqual(first.lon, 106.7, accuracy: 1.5)
    }

    /// The Q1/Q3 clip and the city PBF are the same January 2018 snapshot: every clip node
    /// and way must come out of the PBF identical (bit-exact coordinates).
    @Test func testXMLAndPBFAgree() throws {
        struct Collect: OSMHandler {
            var wanted: Set<Int64>? = nil
            var nodes: [Int64: OSMNode] = [:]
            var ways: [Int64: OSMWay] = [:]
            mutating func node(_ node: OSMNode) {
                if wanted?.contains(node.id) ?? true { nodes[node.id] = node }
            }
            mutating func way(_ way: OSMWay) {
                if wanted?.contains(way.id) ?? true { ways[way.id] = way }
            }
        }
        var clip = Collect()
        try OSMReader.read(OSMFixtures.hcmcQ1Q3XML, handler: &clip)
        var city = Collect(wanted: Set(clip.nodes.keys).union(clip.ways.keys))
        try OSMReader.read(OSMFixtures.hcmcPBF, handler: &city)

        expectEqual(city.ways, clip.ways)
        expectEqual(city.nodes.count, clip.nodes.count)
        var differentTags: [Int64] = []
        for (id, node) in clip.nodes {
            let twin = try unwrap(city.nodes[id])
            expectEqual(twin.lat, node.lat)
            expectEqual(twin.lon, node.lon)
            if twin.tags != node.tags { differentTags.append(id) }
        }
        // One description holds raw newlines inside an XML attribute, which XML
        // attribute-value normalisation turns into spaces; PBF keeps the newlines.
        expectEqual(differentTags.count, 1)
        if let id = differentTags.first {
            let xml = try unwrap(clip.nodes[id]?.tags["description"])
            let pbf = try unwrap(city.nodes[id]?.tags["description"])
            expectEqual(pbf.replacingOccurrences(of: "\n", with: " "), xml)
        }
    }

    @Test func testOptionsOnRealFiles() throws {
        for url in [OSMFixtures.hcmcPBF, OSMFixtures.hoanKiemXML] {
            var all = OSMStats()
            try OSMReader.read(url, handler: &all)

            var pois = OSMStats()
            try OSMReader.read(url, options: .init(kinds: .nodes, untaggedNodes: false), handler: &pois)
            expectEqual(pois.nodes, all.taggedNodes, url.lastPathComponent)
            expectEqual(pois.taggedNodes, all.taggedNodes)
            expectEqual(pois.ways + pois.relations, 0)

            var geometry = OSMStats()
            try OSMReader.read(url, options: .init(kinds: [.nodes, .ways], nodeTags: false), handler: &geometry)
            expectEqual(geometry.nodes, all.nodes)
            expectEqual(geometry.taggedNodes, 0)
            expectEqual(geometry.ways, all.ways)
            expectEqual(geometry.onewayYes, all.onewayYes)
            expectEqual(geometry.relations, 0)
        }
    }
}
