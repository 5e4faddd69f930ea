import Foundation
import OSMReader
import PBFWriter
import TestExpectations
import Testing

/// A PBF file is read within its own bytes: blobs of at most 32 MiB (the specification's limit)
/// and all blobs together inflating to at most 16 times the file read so far plus 256 KiB — a
/// compression bomb (a few KB of zlib holding millions of way nodes) is refused before it is
/// inflated, while real extracts (2–4×) read through.
@Suite final class PBFBlobBudgetTests {
    private var scratch: URL!

    init() throws { scratch = try makeScratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: scratch) }
    private func refusal(_ url: URL) -> OSMReadError? { readRefusal(url) }


    /// `ways` highways of `nodes` nodes each, alternating between two nodes: a few KB of zlib.
    private func alternatingWays(_ name: String, ways: Int, nodes: Int) throws -> URL {
        let path = scratch.appendingPathComponent(name).path
        let writer = try PBFWriter(path: path, bounds: nil)
        try writer.node(id: 1, latE7: 107_700_000, lonE7: 1_067_000_000)
        try writer.node(id: 2, latE7: 107_710_000, lonE7: 1_067_010_000)
        let refs = (0..<nodes).map { Int64($0 % 2 + 1) }
        for id in 1...Int64(ways) { try writer.way(id: id, refs: refs, tags: [("highway", "residential")]) }
        try writer.close()
        return URL(fileURLWithPath: path)
    }

    @Test func testACompressionBombIsRefusedBeforeItIsInflated() throws {
        let bomb = try alternatingWays("bomb.osm.pbf", ways: 4_000, nodes: 2_000)  // 8 million refs
        let size = try unwrap(FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        expectLessThan(size, 100_000)
        guard case let .malformedPBF(_, 2, _, reason) = refusal(bomb) else { return fail(String(describing: refusal(bomb))) }
        expectTrue(reason.contains("refused as a compression bomb") && reason.contains("more than 16×"), reason)
        // Within the allowance the same pattern reads (each way within OSM's 2,000 nodes).
        expectNil(refusal(try alternatingWays("small.osm.pbf", ways: 50, nodes: 2_000)))
        // The real city (zlib 2–3×) reads through.
        expectNil(refusal(OSMFixtures.hcmcPBF))
    }

    @Test func testABlobOverThe32MiBOfTheSpecificationIsRefused() throws {
        var file = PBFTestFile()
        file.header()
        var blob = ProtobufWriter()
        blob.int(2, 40 << 20)  // raw_size 40 MiB (before: up to 64 MiB were inflated)
        blob.bytes(3, [0x78, 0x9C, 0x03, 0x00])
        var header = ProtobufWriter()
        header.string(1, "OSMData")
        header.int(3, Int64(blob.bytes.count))
        file.bytes += [0, 0, 0, UInt8(header.bytes.count)] + header.bytes + blob.bytes
        let url = scratch.appendingPathComponent("big.osm.pbf")
        try file.write(to: url)
        guard case let .malformedPBF(_, 1, _, reason) = refusal(url) else { return fail(String(describing: refusal(url))) }
        expectTrue(reason.contains("raw_size 41943040 is outside 0…33554432"), reason)
    }
}
