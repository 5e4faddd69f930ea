import Foundation
import OSMReader
import TestExpectations
import Testing

/// A node off the Earth — |lat| > 90, |lon| > 180, not a number, or PBF granularity and offsets
/// that overflow 64 bits — is refused with an error naming the file, where, and the node: the
/// import used to trap converting such a coordinate to an integer (and left its temporary file).
@Suite final class OutOfRangeCoordinateTests {
    private var scratch: URL!

    init() throws { scratch = try makeScratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: scratch) }
    private func refusal(_ url: URL) -> OSMReadError? { readRefusal(url) }


    private func xml(_ name: String, lat: String, lon: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
             <node id="1" lat="10.77" lon="106.70"/>
             <node id="2" lat="\(lat)" lon="\(lon)"/>
             <way id="5"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
            </osm>
            """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func testXMLNodeOffTheEarthIsRefusedNamingIt() throws {
        for (lat, lon, fragment) in [("1000", "106.7", "latitude 1000.0"), ("-90.0001", "106.7", "latitude -90.0001"),
                                     ("10.7", "180.5", "longitude 180.5"), ("nan", "106.7", "latitude nan"),
                                     ("10.7", "1e999", "longitude inf")] {
            let url = try xml("off-\(lat)-\(lon).osm", lat: lat, lon: lon)
            guard case let .refusedElement(path, location, element, reason) = refusal(url) else {
                fail("\(lat),\(lon): \(String(describing: refusal(url)))")
                continue
            }
            expectEqual(path, url.path)
            expectEqual(location, "line 4")
            expectEqual(element, "node 2")
            expectTrue(reason.contains(fragment), reason)
            let line = "\(refusal(url)!)"
            expectFalse(line.contains("\n"), line)
            expectTrue(line.hasPrefix("\(url.path): line 4: node 2 has "), line)
        }
        // The edges of the Earth are on it.
        expectNil(refusal(try xml("edges.osm", lat: "-90", lon: "180")))
        expectNil(refusal(try xml("edges2.osm", lat: "90", lon: "-180")))
    }

    /// One dense node, 7, with raw coordinates (`lat`, `lon`) in a block of the given granularity and offsets.
    private func pbf(_ name: String, lat: Int64, lon: Int64 = 0, granularity: Int64? = nil,
                     latOffset: Int64? = nil, lonOffset: Int64? = nil) throws -> URL {
        var block = ProtobufWriter()
        block.message(1) { $0.string(1, "") }
        block.message(2) { $0.message(2) { dense in
            dense.packedDelta(1, [7])
            dense.packedDelta(8, [lat])
            dense.packedDelta(9, [lon])
        } }
        if let granularity { block.int(17, granularity) }
        if let latOffset { block.int(19, latOffset) }
        if let lonOffset { block.int(20, lonOffset) }
        var file = PBFTestFile()
        file.header()
        file.blob(type: "OSMData", payload: block.bytes)
        let url = scratch.appendingPathComponent(name)
        try file.write(to: url)
        return url
    }

    @Test func testPBFNodeOffTheEarthOrOverflowingIsRefusedNamingIt() throws {
        let cases: [(URL, String)] = [
            (try pbf("lat1000.osm.pbf", lat: 10_000_000_000), "latitude 1000.0, outside -90…90"),
            (try pbf("lon.osm.pbf", lat: 0, lon: -1_800_000_001), "longitude -180.0000001, outside -180…180"),
            (try pbf("granularity.osm.pbf", lat: 1_000, granularity: Int64(Int32.max)), "latitude 2147.483647"),
            (try pbf("offset.osm.pbf", lat: 0, latOffset: 1 << 62), "latitude 4611686018.4"),
            (try pbf("overflow.osm.pbf", lat: 1 << 60, latOffset: 1 << 62), "beyond 64 bits"),
            (try pbf("min.osm.pbf", lat: 0, lon: -1, lonOffset: .min), "has longitude lon_offset -9223372036854775808 + granularity 100 × -1 nanodegrees, beyond 64 bits"),
        ]
        for (url, fragment) in cases {
            guard case let .refusedElement(_, location, element, reason) = refusal(url) else {
                fail("\(url.lastPathComponent): \(String(describing: refusal(url)))")
                continue
            }
            expectEqual(location, "blob #1 at byte \(try blobOffset(url))", url.lastPathComponent)
            expectEqual(element, "node 7", url.lastPathComponent)
            expectTrue(reason.contains(fragment), "\(url.lastPathComponent): \(reason)")
        }
        expectNil(refusal(try pbf("fine.osm.pbf", lat: 107_700_000, lon: 1_067_000_000)))
    }

    /// Delta sums beyond 64 bits are a malformed block, not wrapped-around coordinates or ids.
    @Test func testOverflowingDeltasAreMalformed() throws {
        var block = ProtobufWriter()
        block.message(2) { $0.message(2) { d in
            d.packedDelta(1, [1, 2])
            d.packed(8, [ProtobufWriter.zigzag(.max), ProtobufWriter.zigzag(.max)])
            d.packed(9, [0, 0])
        } }
        var file = PBFTestFile()
        file.header()
        file.blob(type: "OSMData", payload: block.bytes)
        let url = scratch.appendingPathComponent("deltas.osm.pbf")
        try file.write(to: url)
        guard case let .malformedPBF(_, 1, _, reason) = refusal(url) else { return fail(String(describing: refusal(url))) }
        expectTrue(reason.contains("delta-coded value 2 overflows 64 bits"), reason)
    }

    /// The file offset of blob #1 (after the header blob).
    private func blobOffset(_ url: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: url))
        let headerSize = bytes[0 ..< 4].reduce(0) { $0 << 8 | Int($1) }
        // BlobHeader: 0A len "OSMHeader" 18 <datasize varint>.
        var position = 4 + 2 + 9 + 1, dataSize = 0, shift = 0
        repeat {
            dataSize |= Int(bytes[position] & 0x7F) << shift
            shift += 7
            position += 1
        } while bytes[position - 1] & 0x80 != 0
        expectEqual(position, 4 + headerSize)
        return position + dataSize
    }
}
