import Foundation
import PBFWriter
import SimTesting
import TestExpectations
import Testing

/// `vietmap-sim import` of hostile OSM files: a node off the Earth, a way beyond OpenStreetMap's
/// 2,000 nodes, a few KB of zlib holding millions of way nodes. Each is refused with one line
/// naming the file and the element (or blob), exit code 1, and nothing left in the output's
/// folder — where the import used to trap (exit 132, its temporary file left behind) or to grow
/// by gigabytes.
@Suite final class ImportCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: ImportCLITests.self)
            ?? Bundle(for: ImportCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    private var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-import-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Imports `input` into the test's folder and checks the refusal: exit 1, one stderr line
    /// holding the input's name and `fragments`, nothing but the input in the folder.
    private func assertRefused(_ input: URL, _ fragments: [String], line: Int = #line) throws {
        let outcome = try CLIRunner.run(binary, ["import", "--out", folder.appendingPathComponent("out.sqlite").path, input.path],
                                        environment: ["VIETMAP_SIM_CACHE": folder.appendingPathComponent("cache").path])
        expectEqual(outcome.status, 1, outcome.stderr, line: line)
        let lines = outcome.stderr.split(separator: "\n")
        expectEqual(lines.count, 1, outcome.stderr, line: line)
        let message = String(lines.first ?? "")
        expectTrue(message.hasPrefix("vietmap-sim: \(input.lastPathComponent): "), message, line: line)
        for fragment in fragments { expectTrue(message.contains(fragment), "\(fragment) in \(message)", line: line) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != input.lastPathComponent && $0 != "cache" }
        expectEqual(left, [], "no dataset and no temporary file", line: line)
    }

    /// A PBF of nodes 1 and 2 (2 at `farLatE7`) and `ways` highways of `nodes` nodes alternating between them.
    private func pbf(_ name: String, farLatE7: Int64 = 107_710_000, ways: Int = 1, nodes: Int = 2) throws -> URL {
        let path = folder.appendingPathComponent(name).path
        let writer = try PBFWriter(path: path, bounds: nil)
        try writer.node(id: 1, latE7: 107_700_000, lonE7: 1_067_000_000)
        try writer.node(id: 2, latE7: farLatE7, lonE7: 1_067_010_000)
        let refs = (0..<nodes).map { Int64($0 % 2 + 1) }
        for id in 1...Int64(ways) { try writer.way(id: id, refs: refs, tags: [("highway", "residential")]) }
        try writer.close()
        return URL(fileURLWithPath: path)
    }

    @Test func testANodeOffTheEarthIsRefusedNamingIt() throws {
        let xml = folder.appendingPathComponent("far.osm")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
             <node id="1" lat="10.77" lon="106.70"/>
             <node id="2" lat="1000" lon="106.71"/>
             <way id="5"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
            </osm>
            """.write(to: xml, atomically: true, encoding: .utf8)
        try assertRefused(xml, ["line 4: node 2 has latitude 1000.0, outside -90…90"])
        try FileManager.default.removeItem(at: xml)
        try assertRefused(try pbf("far.osm.pbf", farLatE7: 10_000_000_000), ["blob #1 at byte ", "node 2 has latitude 1000.0, outside -90…90"])
    }

    @Test func testAWayOverOpenStreetMapsLimitIsRefused() throws {
        try assertRefused(try pbf("long-way.osm.pbf", nodes: 5_000), ["blob #2 at byte ", "way 1 has 5000 nodes; OpenStreetMap allows at most 2000"])
    }

    /// 4,000 ways of 2,000 nodes (each within OSM's limit): 8 million way nodes from a few KB,
    /// refused before the blob is inflated.
    @Test func testACompressionBombIsRefusedBeforeItIsRead() throws {
        let bomb = try pbf("bomb.osm.pbf", ways: 4_000, nodes: 2_000)
        expectLessThan(try unwrap(FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int), 100_000)
        try assertRefused(bomb, ["blob #2 at byte ", "refused as a compression bomb"])
    }
}
