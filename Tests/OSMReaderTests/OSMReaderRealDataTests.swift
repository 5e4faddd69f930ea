import Foundation
import OSMReader
import XCTest

/// Counts from /work/shared/data/README.md, read from the repository's real extracts.
/// Tagged-node and relation counts were checked with independent Python parsers
/// (ElementTree for XML, a hand-written protobuf walk for PBF).
final class OSMReaderRealDataTests: XCTestCase {
    func testHCMCQuan1Quan3XML() throws {
        var stats = OSMStats()
        try OSMReader.read(OSMFixtures.hcmcQ1Q3XML, handler: &stats)
        XCTAssertEqual(stats.nodes, 16_295)
        XCTAssertEqual(stats.ways, 3_937)
        XCTAssertEqual(stats.taggedNodes, 2_550)
        XCTAssertEqual(stats.onewayYes, 428)
        XCTAssertEqual(stats.onewayReverse, 12)
        XCTAssertEqual(stats.bounds, OSMBounds(minLat: 10.756, minLon: 106.67, maxLat: 10.796, maxLon: 106.711))
        XCTAssertEqual(stats.firstNode, OSMNode(id: 366_367_233, lat: 10.7711099, lon: 106.7097014))
        XCTAssertEqual(stats.resolvedFraction, 1, accuracy: 0.0001, "every way ref resolves")
        print("Q1/Q3 XML: \(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
    }

    func testHanoiHoanKiemXML() throws {
        var stats = OSMStats()
        try OSMReader.read(OSMFixtures.hoanKiemXML, handler: &stats)
        XCTAssertEqual(stats.nodes, 9_862)
        XCTAssertEqual(stats.ways, 1_423)
        XCTAssertEqual(stats.taggedNodes, 3_408)
        XCTAssertEqual(stats.relations, 39)
        XCTAssertEqual(stats.highwayWays, 743)
        XCTAssertEqual(stats.onewayYes, 160)
        XCTAssertEqual(stats.restrictions, 12)
        let restriction = try XCTUnwrap(stats.firstRestriction)
        XCTAssertNotNil(restriction.tags["restriction"])
        XCTAssertEqual(restriction.members.filter { $0.role == "from" }.first?.type, .way)
        XCTAssertTrue(restriction.members.contains { $0.role == "via" })
        XCTAssertGreaterThan(stats.resolvedFraction, 0.5)
        print("Hoàn Kiếm XML: \(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
    }

    func testHCMCPBF() throws {
        var stats = OSMStats()
        let start = Date()
        try OSMReader.read(OSMFixtures.hcmcPBF, handler: &stats)
        print("HCMC PBF: read in \(Date().timeIntervalSince(start)) s; "
              + "\(stats.resolvedWayRefs)/\(stats.wayRefs) way refs resolve")
        XCTAssertEqual(stats.nodes, 377_702)
        XCTAssertEqual(stats.ways, 44_285)
        XCTAssertEqual(stats.taggedNodes, 34_879)
        XCTAssertEqual(stats.relations, 607)
        XCTAssertEqual(stats.highwayWays, 33_044)
        XCTAssertEqual(stats.onewayYes, 2_932)
        XCTAssertEqual(stats.onewayReverse, 169)
        XCTAssertEqual(stats.restrictions, 69)
        XCTAssertEqual(stats.nodeIDs.count, stats.nodes, "node ids are unique")
        XCTAssertEqual(stats.resolvedFraction, 1, accuracy: 0.0001, "every way ref resolves")
        XCTAssertNil(stats.bounds, "this file's HeaderBlock has no bbox")
        let first = try XCTUnwrap(stats.firstNode)
        XCTAssertEqual(first.lat, 10.5, accuracy: 1.5)
        XCTAssertEqual(first.lon, 106.7, accuracy: 1.5)
    }

    /// The Q1/Q3 clip and the city PBF are the same January 2018 snapshot: every clip node
    /// and way must come out of the PBF identical (bit-exact coordinates).
    func testXMLAndPBFAgree() throws {
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

        XCTAssertEqual(city.ways, clip.ways)
        XCTAssertEqual(city.nodes.count, clip.nodes.count)
        var differentTags: [Int64] = []
        for (id, node) in clip.nodes {
            let twin = try XCTUnwrap(city.nodes[id])
            XCTAssertEqual(twin.lat, node.lat)
            XCTAssertEqual(twin.lon, node.lon)
            if twin.tags != node.tags { differentTags.append(id) }
        }
        // One description holds raw newlines inside an XML attribute, which XML
        // attribute-value normalisation turns into spaces; PBF keeps the newlines.
        XCTAssertEqual(differentTags.count, 1)
        if let id = differentTags.first {
            let xml = try XCTUnwrap(clip.nodes[id]?.tags["description"])
            let pbf = try XCTUnwrap(city.nodes[id]?.tags["description"])
            XCTAssertEqual(pbf.replacingOccurrences(of: "\n", with: " "), xml)
        }
    }

    func testOptionsOnRealFiles() throws {
        for url in [OSMFixtures.hcmcPBF, OSMFixtures.hoanKiemXML] {
            var all = OSMStats()
            try OSMReader.read(url, handler: &all)

            var pois = OSMStats()
            try OSMReader.read(url, options: .init(kinds: .nodes, untaggedNodes: false), handler: &pois)
            XCTAssertEqual(pois.nodes, all.taggedNodes, url.lastPathComponent)
            XCTAssertEqual(pois.taggedNodes, all.taggedNodes)
            XCTAssertEqual(pois.ways + pois.relations, 0)

            var geometry = OSMStats()
            try OSMReader.read(url, options: .init(kinds: [.nodes, .ways], nodeTags: false), handler: &geometry)
            XCTAssertEqual(geometry.nodes, all.nodes)
            XCTAssertEqual(geometry.taggedNodes, 0)
            XCTAssertEqual(geometry.ways, all.ways)
            XCTAssertEqual(geometry.onewayYes, all.onewayYes)
            XCTAssertEqual(geometry.relations, 0)
        }
    }
}
