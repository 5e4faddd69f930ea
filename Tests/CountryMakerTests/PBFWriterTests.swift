import Foundation
import OSMReader
import PBFWriter
import TestExpectations
import Testing

/// `PBFWriter` read back with the repo's own `OSMReader`: elements, tags, members, the header's
/// bbox, blocks split at the block size, the order rules.
@Suite final class PBFWriterTests {
    struct Collector: OSMHandler {
        var bounds: OSMBounds?
        var nodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        mutating func bounds(_ bounds: OSMBounds) { self.bounds = bounds }
        mutating func node(_ node: OSMNode) { nodes.append(node) }
        mutating func way(_ way: OSMWay) { ways.append(way) }
        mutating func relation(_ relation: OSMRelation) { relations.append(relation) }
    }

    @Test func testWhatIsWrittenReadsBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pbfwriter-\(UUID().uuidString).osm.pbf").path
        defer { unlink(path) }
        let box = PBFBoundingBox(minLatE7: 107_000_000, minLonE7: 1_066_000_000, maxLatE7: 108_000_000, maxLonE7: 1_068_000_000)
        let writer = try PBFWriter(path: path, bounds: box, blockSize: 3)
        for i in 1 ... 7 {
            try writer.node(id: Int64(i * 10), latE7: 107_700_000 + Int64(i), lonE7: 1_067_000_000 - Int64(i),
                            tags: i == 4 ? [("name", "Chợ Bến Thành"), ("amenity", "marketplace")] : [])
        }
        try writer.way(id: 5, refs: [10, 20, 30, 20], tags: [("highway", "primary"), ("name", "Lê Lợi")])
        try writer.way(id: 9, refs: [70, 60])
        expectThrowsError(try writer.way(id: 9, refs: [10, 20]), "ids must increase")
        try writer.relation(id: 1, members: [PBFMember(kind: .way, ref: 5, role: "from"), PBFMember(kind: .node, ref: 20, role: "via"),
                                             PBFMember(kind: .way, ref: 9, role: "to")],
                            tags: [("restriction", "no_left_turn"), ("type", "restriction")])
        expectThrowsError(try writer.node(id: 100, latE7: 0, lonE7: 0), "no node after a relation")
        try writer.close()
        expectEqual(writer.bytesWritten, Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64))

        var collector = Collector()
        try OSMReader.read(URL(fileURLWithPath: path), handler: &collector)
        expectEqual(collector.bounds, OSMBounds(minLat: 10.7, minLon: 106.6, maxLat: 10.8, maxLon: 106.8))
        expectEqual(collector.nodes.map(\.id), [10, 20, 30, 40, 50, 60, 70])
        expectEqual(collector.nodes[3].tags, ["name": "Chợ Bến Thành", "amenity": "marketplace"])
        expectEqual(collector.nodes[6].lat, 10.7700007, accuracy: 1e-9)
        expectEqual(collector.nodes[6].lon, 106.6999993, accuracy: 1e-9)
        expectEqual(collector.ways, [OSMWay(id: 5, nodeIDs: [10, 20, 30, 20], tags: ["highway": "primary", "name": "Lê Lợi"]),
                                        OSMWay(id: 9, nodeIDs: [70, 60])])
        expectEqual(collector.relations, [OSMRelation(id: 1, members: [.init(type: .way, ref: 5, role: "from"),
                                                                         .init(type: .node, ref: 20, role: "via"),
                                                                         .init(type: .way, ref: 9, role: "to")],
                                                         tags: ["restriction": "no_left_turn", "type": "restriction"])])
    }

    @Test func testAnUnwritablePathIsOneError() {
        // A path below a file that is not a folder: unwritable on Linux and macOS alike (ENOTDIR).
        expectThrowsError(try PBFWriter(path: "/dev/null/file.osm.pbf", bounds: nil)) { error in
            expectTrue("\(error)".hasPrefix("cannot write /dev/null/file.osm.pbf: "), "\(error)")
        }
    }
}
