import Foundation
import OSMReader
import TestExpectations
import Testing

/// Hand-built PBF files exercising what the real extract does not: non-dense nodes,
/// granularity and offsets, the header bbox, features, options, and unknown fields.
@Suite final class PBFDecodingTests {
    private var scratch: URL!

    init() throws { scratch = try makeScratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: scratch) }

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

    /// Strings: 0 "", 1 highway, 2 primary, 3 name, 4 Đồng Khởi, 5 type, 6 restriction, 7 from, 8 via, 9 to, 10 amenity, 11 cafe
    private func sampleFile() -> PBFTestFile {
        var file = PBFTestFile()
        file.header(bbox: (left: 106_670_000_000, right: 106_711_000_000, top: 10_796_000_000, bottom: 10_756_000_000))
        var block = ProtobufWriter()
        block.message(1) { table in
            for s in ["", "highway", "primary", "name", "Đồng Khởi", "type", "restriction", "from", "via", "to", "amenity", "cafe"] {
                table.string(1, s)
            }
        }
        block.message(2) { group in  // dense nodes: 3 nodes, the second tagged
            group.message(2) { dense in
                dense.packedDelta(1, [10, 11, 15])
                dense.message(5) { $0.packed(1, [1, 1, 1]) }  // denseinfo: ignored
                dense.packedDelta(8, [1_077_110_990, 1_076_470_280, -5])
                dense.packedDelta(9, [10_670_970_140, 10_670_629_370, 7])
                dense.packed(10, [0, 10, 11, 3, 4, 0, 0])
            }
        }
        block.message(2) { group in  // a non-dense node
            group.message(1) { node in
                node.sint(1, -42)
                node.packed(2, [10])
                node.packed(3, [11])
                node.key(12, 5); node.bytes += [1, 2, 3, 4]  // unknown fixed32 field
                node.key(13, 1); node.bytes += [1, 2, 3, 4, 5, 6, 7, 8]  // unknown fixed64 field
                node.sint(8, 107_000_000)
                node.sint(9, -1)
            }
        }
        block.message(2) { group in
            group.message(3) { way in
                way.int(1, 100)
                way.packed(2, [1, 3])
                way.packed(3, [2, 4])
                way.packedDelta(8, [10, 11, 15, 10])
            }
            group.message(4) { relation in
                relation.int(1, 7)
                relation.packed(2, [5])
                relation.packed(3, [6])
                relation.packed(8, [7, 8, 9])
                relation.packedDelta(9, [100, 11, 100])
                relation.packed(10, [1, 0, 1])
            }
        }
        block.int(17, 10)  // granularity: after the groups, as real writers put it
        block.int(19, 1_000)
        block.int(20, -2_000)
        file.blob(type: "OSMData", payload: block.bytes)
        file.blob(type: "SomethingElse", payload: [0xFF, 0xFF])  // unknown blob types are skipped
        return file
    }

    private func read(_ file: PBFTestFile, options: OSMReadOptions = .init()) throws -> Collector {
        let url = scratch.appendingPathComponent("sample.osm.pbf")
        try file.write(to: url)
        var collector = Collector()
        try OSMReader.read(url, options: options, handler: &collector)
        return collector
    }

    @Test func testDecodesEveryElementKind() throws {
        let result = try read(sampleFile())
        expectEqual(result.bounds, OSMBounds(minLat: 10.756, minLon: 106.67, maxLat: 10.796, maxLon: 106.711))
        expectEqual(result.nodes.map(\.id), [10, 11, 15, -42])
        expectEqual(result.nodes[0].lat, 10.7711099 + 1e-6, accuracy: 1e-12)  // 1e-9 * (1000 + 10 * raw)
        expectEqual(result.nodes[0].lon, 106.7097014 - 2e-6, accuracy: 1e-12)
        expectEqual(result.nodes[2].lat, -5e-8 + 1e-6, accuracy: 1e-15)
        expectEqual(result.nodes[0].tags, [:])
        expectEqual(result.nodes[1].tags, ["amenity": "cafe", "name": "Đồng Khởi"])
        expectEqual(result.nodes[3].tags, ["amenity": "cafe"])
        expectEqual(result.nodes[3].lat, 1.07 + 1e-6, accuracy: 1e-12)
        expectEqual(result.ways, [OSMWay(id: 100, nodeIDs: [10, 11, 15, 10],
                                            tags: ["highway": "primary", "name": "Đồng Khởi"])])
        expectEqual(result.relations, [OSMRelation(id: 7, members: [
            .init(type: .way, ref: 100, role: "from"),
            .init(type: .node, ref: 11, role: "via"),
            .init(type: .way, ref: 100, role: "to"),
        ], tags: ["type": "restriction"])])
    }

    @Test func testOptionsSkipKindsAndTags() throws {
        let waysOnly = try read(sampleFile(), options: .init(kinds: .ways))
        expectEqual(waysOnly.nodes.count + waysOnly.relations.count, 0)
        expectEqual(waysOnly.ways.count, 1)

        let pois = try read(sampleFile(), options: .init(kinds: .nodes, untaggedNodes: false))
        expectEqual(pois.nodes.map(\.id), [11, -42])
        expectEqual(pois.ways.count, 0)

        let geometry = try read(sampleFile(), options: .init(kinds: .nodes, nodeTags: false))
        expectEqual(geometry.nodes.map(\.id), [10, 11, 15, -42])
        expectTrue(geometry.nodes.allSatisfy(\.tags.isEmpty))
    }

    @Test func testRejectsUnsupportedRequiredFeature() throws {
        var file = PBFTestFile()
        file.header(requiredFeatures: ["OsmSchema-V0.6", "HistoricalInformation"])
        expectThrowsError(try read(file)) { error in
            guard case .unsupportedFeature(_, let feature) = error as? OSMReadError else {
                return fail("unexpected \(error)")
            }
            expectEqual(feature, "HistoricalInformation")
        }
    }

    @Test func testFileNotStartingWithHeaderIsUnrecognized() throws {
        var file = PBFTestFile()
        file.blob(type: "OSMData", payload: [])
        expectThrowsError(try read(file)) { error in
            guard case .unrecognizedFormat = error as? OSMReadError else { return fail("unexpected \(error)") }
        }
    }

    @Test func testMalformedBlocksThrowWithBlobIndex() throws {
        func expectMalformed(_ payload: [UInt8], _ fragment: String, line: Int = #line) throws {
            var file = PBFTestFile()
            file.header()
            file.blob(type: "OSMData", payload: payload)
            expectThrowsError(try read(file), line: line) { error in
                guard case .malformedPBF(_, 1, let offset, let reason) = error as? OSMReadError else {
                    return fail("unexpected \(error)", line: line)
                }
                expectGreaterThan(offset, 0, line: line)
                expectTrue(reason.contains(fragment), "\(reason)", line: line)
                expectTrue("\(error)".contains("sample.osm.pbf"), line: line)
            }
        }
        try expectMalformed([0x12, 0x03, 0x1A, 0x01], "exceeds")  // a group longer than the block
        try expectMalformed([0x88] + [UInt8](repeating: 0xFF, count: 10) + [0x01], "varint")  // 11-byte varint
        try expectMalformed([0x0B], "group")  // deprecated start-group wire type
        try expectMalformed([0x07], "wire type")  // wire type 7

        var badString = ProtobufWriter()
        badString.message(1) { $0.string(1, "") }
        badString.message(2) { $0.message(3) { way in way.int(1, 1); way.packed(2, [5]); way.packed(3, [5]) } }
        try expectMalformed(badString.bytes, "string index 5")

        var unevenDense = ProtobufWriter()
        unevenDense.message(2) { $0.message(2) { d in d.packedDelta(1, [1, 2]); d.packedDelta(8, [1]); d.packedDelta(9, [1, 2]) } }
        try expectMalformed(unevenDense.bytes, "DenseNodes has 2 ids")

        var badMemberType = ProtobufWriter()
        badMemberType.message(1) { $0.string(1, "") }
        badMemberType.message(2) { $0.message(4) { r in r.int(1, 9); r.packed(8, [0]); r.packedDelta(9, [1]); r.packed(10, [3]) } }
        try expectMalformed(badMemberType.bytes, "member type 3")
    }
}

/// A way's node list is its own: a handler that keeps millions of ways keeps their nodes, not the
/// decoder's reused buffer at the capacity of the longest way read before.
@Suite final class PBFWayNodeCapacityTests {
    @Test func testAWayKeepsOnlyItsOwnNodes() throws {
        struct Capacities: OSMHandler {
            var longest = 0
            var worst = 0.0
            var ways = 0
            mutating func way(_ way: OSMWay) {
                ways += 1
                longest = max(longest, way.nodeIDs.count)
                worst = max(worst, Double(way.nodeIDs.capacity) / Double(max(4, way.nodeIDs.count)))
            }
        }
        var seen = Capacities()
        try OSMReader.read(OSMFixtures.hcmcPBF, options: OSMReadOptions(kinds: [.ways]), handler: &seen)
        expectGreaterThan(seen.ways, 10_000)
        expectGreaterThan(seen.longest, 200, "the city has long ways, whose buffer a short one would otherwise keep")
        expectLessThan(seen.worst, 4, "capacity of at most a few times a way's node count")
    }
}
