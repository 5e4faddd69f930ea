import Foundation
import OSMReader
import TestExpectations
import Testing

/// Elements beyond what OpenStreetMap allows (`OSMLimits`: 2,000 nodes a way, 32,000 members a
/// relation, 255-character keys, values and roles, 5,000 tags) are refused naming the element;
/// elements at the limits are read. A PBF way's size is reported without the way being held.
@Suite final class OSMLimitsTests {
    private var scratch: URL!

    init() throws { scratch = try makeScratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: scratch) }
    private func refusal(_ url: URL) -> OSMReadError? { readRefusal(url) }


    private func xml(_ name: String, _ body: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n\(body)\n</osm>\n"
            .write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func assertRefused(_ url: URL, element: String, _ fragment: String, line: Int = #line) {
        guard case let .refusedElement(path, _, refused, reason) = refusal(url) else {
            return fail("\(url.lastPathComponent): \(String(describing: refusal(url)))", line: line)
        }
        expectEqual(path, url.path, line: line)
        expectEqual(refused, element, line: line)
        expectTrue(reason.contains(fragment), reason, line: line)
    }

    @Test func testXMLElementsBeyondTheLimitsAreRefused() throws {
        func way(_ nodes: Int) -> String {
            " <way id=\"5\">" + (0..<nodes).map { "<nd ref=\"\($0 % 2 + 1)\"/>" }.joined() + "<tag k=\"highway\" v=\"service\"/></way>"
        }
        expectNil(refusal(try xml("2000.osm", way(2_000))))
        assertRefused(try xml("2001.osm", way(2_001)), element: "way 5", "has more than 2000 nodes; OpenStreetMap allows at most 2000")

        func relation(_ members: Int) -> String {
            " <relation id=\"9\">" + String(repeating: "<member type=\"way\" ref=\"5\" role=\"outer\"/>", count: members) + "</relation>"
        }
        expectNil(refusal(try xml("32000.osm", relation(32_000))))
        assertRefused(try xml("32001.osm", relation(32_001)), element: "relation 9", "more than 32000 members")

        let long = String(repeating: "ắ", count: 255)  // 255 characters, 765 UTF-8 bytes
        expectNil(refusal(try xml("255.osm", " <node id=\"1\" lat=\"10\" lon=\"106\"><tag k=\"name\" v=\"\(long)\"/></node>")))
        assertRefused(try xml("256.osm", " <node id=\"1\" lat=\"10\" lon=\"106\"><tag k=\"name\" v=\"\(long)x\"/></node>"),
                      element: "node 1", "a tag value of 256 characters")
        assertRefused(try xml("key.osm", " <way id=\"3\"><tag k=\"\(String(repeating: "k", count: 2_000))\" v=\"x\"/></way>"),
                      element: "way 3", "a tag key of 2000 bytes")
        assertRefused(try xml("role.osm", " <relation id=\"4\"><member type=\"node\" ref=\"1\" role=\"\(String(repeating: "r", count: 300))\"/></relation>"),
                      element: "relation 4", "a member role of 300 characters")

        let tags = (0...5_000).map { "<tag k=\"k\($0)\" v=\"v\"/>" }.joined()
        assertRefused(try xml("tags.osm", " <node id=\"8\" lat=\"10\" lon=\"106\">\(tags)</node>"), element: "node 8", "more than 5000 tags")
    }

    /// A PBF file of one block holding `build`'s group.
    private func pbf(_ name: String, strings: [String] = ["", "highway", "service"], _ build: (inout ProtobufWriter) -> Void) throws -> URL {
        var block = ProtobufWriter()
        block.message(1) { table in strings.forEach { table.string(1, $0) } }
        block.message(2, build)
        var file = PBFTestFile()
        file.header()
        file.blob(type: "OSMData", payload: block.bytes)
        let url = scratch.appendingPathComponent(name)
        try file.write(to: url)
        return url
    }

    @Test func testPBFElementsBeyondTheLimitsAreRefusedWithTheirSize() throws {
        func way(_ nodes: Int) throws -> URL {
            try pbf("way-\(nodes).osm.pbf") { group in group.message(3) { way in
                way.int(1, 10)
                way.packed(2, [1])
                way.packed(3, [2])
                way.packedDelta(8, (0..<nodes).map { Int64($0 % 2 + 1) })
            } }
        }
        expectNil(refusal(try way(2_000)))
        assertRefused(try way(100_000), element: "way 10", "has 100000 nodes; OpenStreetMap allows at most 2000")

        func relation(_ members: Int) throws -> URL {
            try pbf("relation-\(members).osm.pbf") { group in group.message(4) { relation in
                relation.int(1, 11)
                relation.packed(8, Array(repeating: 0, count: members))
                relation.packedDelta(9, Array(repeating: 10, count: members))
                relation.packed(10, Array(repeating: 1, count: members))
            } }
        }
        expectNil(refusal(try relation(32_000)))
        assertRefused(try relation(40_000), element: "relation 11", "has 40000 members; OpenStreetMap allows at most 32000")

        let tags = try pbf("tags.osm.pbf", strings: [""] + (0...5_000).map { "k\($0)" }) { group in group.message(3) { way in
            way.int(1, 12)
            way.packed(2, (1...5_001).map { UInt64($0) })
            way.packed(3, (1...5_001).map { UInt64($0) })
        } }
        assertRefused(tags, element: "way 12", "has 5001 tags; the reader takes at most 5000")

        let denseTags = try pbf("dense-tags.osm.pbf", strings: [""] + (0...5_000).map { "k\($0)" }) { group in group.message(2) { dense in
            dense.packedDelta(1, [13])
            dense.packedDelta(8, [0])
            dense.packedDelta(9, [0])
            dense.packed(10, (1...5_001).flatMap { [UInt64($0), UInt64($0)] } + [0])
        } }
        assertRefused(denseTags, element: "node 13", "has 5001 tags")

        let longString = try pbf("string.osm.pbf", strings: ["", "name", String(repeating: "ư", count: 256)]) { _ in }
        assertRefused(longString, element: "string table entry 2", "has 256 characters; OpenStreetMap allows at most 255")
    }
}
