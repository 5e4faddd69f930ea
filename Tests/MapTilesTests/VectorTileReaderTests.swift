import Foundation
import TestExpectations
import Testing
import MapTiles

/// `VectorTileReader` on malformed bytes: every defect is a typed error, never a trap, and counts are
/// bounded by the bytes that hold them.
@Suite final class VectorTileReaderTests {
    /// A protobuf varint.
    private func varint(_ v: UInt64) -> [UInt8] {
        var v = v, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    private func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes }
    private func layer(_ features: [[UInt8]], keys: [String] = [], values: [[UInt8]] = []) -> [UInt8] {
        var body = field(1, Array("l".utf8)) + varint(15 << 3) + varint(2)
        for f in features { body += field(2, f) }
        for k in keys { body += field(3, Array(k.utf8)) }
        for v in values { body += field(4, v) }
        return field(3, body)
    }
    private func packed(_ words: [UInt32]) -> [UInt8] { words.flatMap { varint(UInt64($0)) } }
    private func decodeError(_ bytes: [UInt8]) -> VectorTileReader.DecodeError? {
        do { _ = try VectorTileReader(Data(bytes)); return nil } catch { return error }
    }

    @Test func testAWellFormedHandWrittenTileReadsBack() throws {
        // A line (MoveTo 10,10; LineTo +5,0) with name "Bến Thành" (string) and class 3 (sint 6).
        let feature = varint(1 << 3) + varint(7) + field(2, packed([0, 0, 1, 1])) + varint(3 << 3) + varint(2)
            + field(4, packed([9, 20, 20, 10, 10, 0]))
        let bytes = layer([feature], keys: ["name", "class"], values: [field(1, Array("Bến Thành".utf8)), varint(6 << 3) + varint(6)])
        let tile = try VectorTileReader(Data(bytes))
        let f = try unwrap(tile[layer: "l"]?.features.first)
        expectEqual(f.id, 7)
        expectEqual(f.type, .lineString)
        expectEqual(f["name"], .string("Bến Thành"))
        expectEqual(f["class"], .int(3))
        expectEqual(f.parts, [[.init(x: 10, y: 10), .init(x: 15, y: 10)]])
        expectEqual(try VectorTileReader(Data()).layers.count, 0, "no bytes: a tile with no layers")
    }

    @Test func testMalformedBytesAreTypedErrors() {
        expectEqual(decodeError([0x1A]), .truncated, "a layer tag with no length")
        expectEqual(decodeError([0x1A] + varint(1 << 40)), .truncated, "a length past the end, not an allocation")
        expectEqual(decodeError([0x1A] + Array(repeating: 0xFF, count: 12) + [0x01]), .overlongVarint)
        expectEqual(decodeError([0x1B]), .badWireType(3))
        expectEqual(decodeError(field(3, field(1, Array("l".utf8)))), .missing("layer version"))
        // A MoveTo claiming 2^28 − 1 points with two words behind it.
        let huge = varint(3 << 3) + varint(1) + field(4, packed([(UInt32.max >> 3) << 3 | 1, 2, 2]))
        expectEqual(decodeError(layer([huge])), .truncated)
        let zeroLine = varint(3 << 3) + varint(2) + field(4, packed([9, 2, 2, 10, 0, 0]))
        expectEqual(decodeError(layer([zeroLine])), .badCommand(10), "a zero-length LineTo")
        let closeOnLine = varint(3 << 3) + varint(2) + field(4, packed([9, 2, 2, 10, 4, 4, 15]))
        expectEqual(decodeError(layer([closeOnLine])), .badCommand(15))
        let oddTags = varint(3 << 3) + varint(1) + field(2, packed([0])) + field(4, packed([9, 2, 2]))
        expectEqual(decodeError(layer([oddTags], keys: ["k"], values: [varint(7 << 3) + [1]])), .badTags)
        let pastTable = varint(3 << 3) + varint(1) + field(2, packed([0, 5])) + field(4, packed([9, 2, 2]))
        expectEqual(decodeError(layer([pastTable], keys: ["k"], values: [varint(7 << 3) + [1]])), .badTags)
        let badType = varint(3 << 3) + varint(9)
        expectEqual(decodeError(layer([badType])), .badGeometryType(9))
        expectEqual(decodeError(layer([], keys: ["k"], values: [varint(9 << 3) + [1]])), .badValue)
        expectEqual(decodeError(layer([], keys: ["k"], values: [varint(5 << 3) + varint(UInt64.max)])), .badValue)
    }

    @Test func testTruncationsAndBitFlipsOfARealTileNeverTrap() throws {
        let feature = MapFeature(id: 1, layer: "roads", minZoom: 0, geometry: .lines([[WorldPoint(x: 0.1, y: 0.1), WorldPoint(x: 0.9, y: 0.8)]]),
                                 properties: [MapProperty("name", .string("Lê Lợi")), MapProperty("class", .int(2))])
        let data = VectorTileBuilder(index: MapFeatureIndex(features: [feature]), maxZoom: 0).tile(TileID(z: 0, x: 0, y: 0)!).data
        expectFalse(data.isEmpty)
        expectNoThrow(try VectorTileReader(data))
        var errors = 0
        for cut in 0..<data.count {
            do { _ = try VectorTileReader(data.prefix(cut)) } catch { errors += 1 }
        }
        expectGreaterThan(errors, data.count / 2, "most truncations are noticed")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            var bytes = [UInt8](data)
            let index = Int(state >> 33) % bytes.count
            bytes[index] ^= UInt8(truncatingIfNeeded: state >> 8) | 1
            _ = try? VectorTileReader(Data(bytes)) // must return or throw, never trap
        }
    }
}
