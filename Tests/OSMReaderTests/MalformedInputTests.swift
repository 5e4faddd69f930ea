import Foundation
import OSMReader
import SeededRandom
import TestExpectations
import Testing

/// Damaged real files must fail with a typed error naming the file and position — never
/// crash, hang, or succeed silently.
@Suite final class MalformedInputTests {
    private var scratch: URL!

    init() throws { scratch = try makeScratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: scratch) }

    private func write(_ bytes: some Collection<UInt8>, _ name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    private func readError(_ url: URL) -> OSMReadError? {
        var stats = OSMStats()
        do {
            try OSMReader.read(url, handler: &stats)
            return nil
        } catch {
            expectTrue(error.description.contains(url.lastPathComponent), error.description)
            return error
        }
    }

    /// (file offset, BlobHeader type) of every blob, by walking the framing.
    private func blobOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            offsets.append(offset)
            let headerSize = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            var position = offset + 4
            let headerEnd = position + headerSize
            var dataSize = 0
            while position < headerEnd {  // fields: 1 type (string), 3 datasize (varint)
                let key = bytes[position]
                position += 1
                if key == 0x0A {
                    position += Int(bytes[position]) + 1
                } else {
                    var shift = 0
                    dataSize = 0
                    repeat {
                        dataSize |= Int(bytes[position] & 0x7F) << shift
                        shift += 7
                        position += 1
                    } while bytes[position - 1] & 0x80 != 0
                }
            }
            offset = headerEnd + dataSize
        }
        return offsets
    }

    @Test func testTruncatedPBF() throws {
        let pbf = try [UInt8](Data(contentsOf: OSMFixtures.hcmcPBF))
        let offsets = blobOffsets(pbf)
        expectGreaterThan(offsets.count, 40)

        // Cut inside a data blob, inside a BlobHeader, inside a length prefix.
        for (cut, blob) in [(offsets[5] + 1_000, 5), (offsets[7] + 8, 7), (offsets[9] + 2, 9), (60, 0)] {
            let error = readError(try write(pbf.prefix(cut), "cut-\(cut).osm.pbf"))
            guard case let .malformedPBF(_, blobIndex, offset, reason) = error else {
                fail("cut at \(cut): \(String(describing: error))")
                continue
            }
            expectEqual(blobIndex, blob)
            expectEqual(offset, offsets[blob])
            expectTrue(reason.contains("truncated"), reason)
        }
        // Too short to recognise.
        expectEqual(readError(try write(pbf.prefix(3), "tiny.osm.pbf")),
                       .unrecognizedFormat(path: scratch.appendingPathComponent("tiny.osm.pbf").path))
    }

    @Test func testCorruptedZlibBlock() throws {
        var pbf = try [UInt8](Data(contentsOf: OSMFixtures.hcmcPBF))
        let offsets = blobOffsets(pbf)
        for i in offsets[3] + 300 ..< offsets[3] + 600 { pbf[i] ^= 0x5A }
        let error = readError(try write(pbf, "corrupt.osm.pbf"))
        guard case let .malformedPBF(_, blobIndex, offset, reason) = error else {
            return fail(String(describing: error))
        }
        expectEqual(blobIndex, 3)
        expectEqual(offset, offsets[3])
        expectTrue(reason.contains("zlib"), reason)
    }

    @Test func testAbsurdBlobSize() throws {
        var pbf = try [UInt8](Data(contentsOf: OSMFixtures.hcmcPBF).prefix(200))
        let second = blobOffsets(pbf)[1]
        // The second BlobHeader: 0A 07 "OSMData" 18 <datasize varint> → 2 GiB.
        pbf.replaceSubrange(second + 4 ..< pbf.count, with: [0x0A, 0x07] + Array("OSMData".utf8) + [0x18, 0x80, 0x80, 0x80, 0x80, 0x08])
        pbf.replaceSubrange(second ..< second + 4, with: [0, 0, 0, 15])
        let error = readError(try write(pbf, "huge.osm.pbf"))
        guard case let .malformedPBF(_, 1, _, reason) = error else { return fail(String(describing: error)) }
        expectTrue(reason.contains("Blob size 2147483648"), reason)
    }

    @Test func testRandomBytes() throws {
        var generator = SplitMix64(seed: 2018)
        let random = (0 ..< 100_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        expectEqual(readError(try write(random, "random.bin")),
                       .unrecognizedFormat(path: scratch.appendingPathComponent("random.bin").path))
    }

    /// Random damage after a valid header: any outcome but a crash or a hang is fine.
    @Test func testRandomlyDamagedPBFNeverCrashes() throws {
        let pbf = try [UInt8](Data(contentsOf: OSMFixtures.hcmcPBF))
        let offsets = blobOffsets(pbf)
        let prefix = Array(pbf.prefix(offsets[3]))  // header + two data blobs
        var generator = SplitMix64(seed: 7)
        var failures = 0
        for round in 0 ..< 40 {
            var damaged = prefix
            for _ in 0 ..< 1 + round % 4 {
                let i = Int.random(in: 4 ..< damaged.count, using: &generator)
                damaged[i] = UInt8.random(in: 0 ... 255, using: &generator)
            }
            if readError(try write(damaged, "damaged.osm.pbf")) != nil { failures += 1 }
        }
        expectGreaterThan(failures, 30, "zlib's adler32 catches nearly all damage")
    }

    @Test func testTruncatedXML() throws {
        let xml = try [UInt8](Data(contentsOf: OSMFixtures.hcmcQ1Q3XML))
        let error = readError(try write(xml.prefix(xml.count / 2), "cut.osm"))
        guard case let .malformedXML(_, line, _) = error else { return fail(String(describing: error)) }
        let lines = xml.prefix(xml.count / 2).filter { $0 == 0x0A }.count
        expectEqual(line, lines + 1, accuracy: 1)
    }

    @Test func testBrokenXMLReportsLine() throws {
        let broken = """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
             <node id="1" lat="10.7" lon="106.7"/>
             <node id="2" lat="10.8" lon="106.8">
              <tag k="name" v="unclosed">
             </node>
            </osm>
            """
        guard case let .malformedXML(_, line, _) = readError(try write(Array(broken.utf8), "broken.osm")) else {
            return fail()
        }
        expectEqual(line, 6)

        let badAttribute = """
            <osm version="0.6">
             <node id="1" lat="north" lon="106.7"/>
            </osm>
            """
        guard case let .malformedXML(_, line, reason) = readError(try write(Array(badAttribute.utf8), "bad.osm")) else {
            return fail()
        }
        expectEqual(line, 2)
        expectTrue(reason.contains("lat"), reason)
    }

    @Test func testMissingFile() {
        let error = readError(scratch.appendingPathComponent("absent.osm"))
        guard case .io = error else { return fail(String(describing: error)) }
    }
}

