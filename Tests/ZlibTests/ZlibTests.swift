import CZlib
import Foundation
import TestExpectations
import Testing
@testable import Zlib

@Suite final class DeflateInflateTests {
    /// Text that compresses but is not trivial: a few kilobytes of varied lines.
    private let text = Data((0..<400).map { "line \($0): đường Lê Lợi \($0 * 7919 % 1000)\n" }.joined().utf8)

    @Test func testZlibOutputIsCompress2Bytes() {
        for level in [Int32(1), 6, 9] {
            var size = compressBound(uLong(text.count))
            var expected = [UInt8](repeating: 0, count: Int(size))
            let status = text.withUnsafeBytes { compress2(&expected, &size, $0.bindMemory(to: Bytef.self).baseAddress, uLong(text.count), level) }
            expectEqual(status, Z_OK)
            expectEqual(Deflate.compress(text, level: level), Array(expected.prefix(Int(size))), "level \(level)")
        }
    }

    @Test func testRoundTripsBothFormats() throws {
        for format in [ZlibFormat.zlib, .gzip] {
            let packed = Deflate.compress(text, format: format)
            expectLessThan(packed.count, text.count / 2)
            expectEqual(Deflate.compress(text, format: format), packed, "same bytes every run")
            expectEqual(try Inflate.decompress(packed, format: format, limit: 1 << 20), text)
            expectEqual(try Inflate.decompress(packed, limit: 1 << 20), text, "framing detected")
            expectEqual(try Inflate.inflatedSize(packed, limit: 1 << 20), text.count)
            expectEqual(try Inflate.decompress(Deflate.compress(Data(), format: format), format: format, limit: 0), Data())
        }
        let gzip = Deflate.compress(text, format: .gzip), zlib = Deflate.compress(text)
        expectTrue(ZlibFormat.isGzip(gzip))
        expectFalse(ZlibFormat.isGzip(zlib))
        expectTrue(ZlibFormat.isZlib(zlib))
        expectFalse(ZlibFormat.isZlib(gzip))
        expectFalse(ZlibFormat.isZlib([UInt8]()))
    }

    @Test func testTypedErrors() {
        let packed = Deflate.compress(Data(repeating: 0x41, count: 100_000), format: .gzip)
        expectThrowsError(try Inflate.decompress(packed, limit: 1000)) { expectEqual($0 as? InflateError, .tooLarge(limit: 1000)) }
        expectThrowsError(try Inflate.inflatedSize(packed, limit: 99_999)) { expectEqual($0 as? InflateError, .tooLarge(limit: 99_999)) }
        expectEqual(try Inflate.inflatedSize(packed, limit: 100_000), 100_000, "exactly at the limit is fine")
        expectThrowsError(try Inflate.decompress(packed.prefix(packed.count - 12), limit: 1 << 20)) { expectEqual($0 as? InflateError, .truncated) }
        expectThrowsError(try Inflate.decompress([UInt8](), limit: 10)) { expectEqual($0 as? InflateError, .truncated) }
        expectThrowsError(try Inflate.decompress(Data("not gzip at all, really".utf8), format: .gzip, limit: 1 << 20)) {
            guard case .corrupt(let reason) = $0 as? InflateError else { return fail("\($0)") }
            expectFalse(reason.isEmpty)
        }
        expectThrowsError(try Inflate.decompress(Deflate.compress(text), format: .gzip, limit: 1 << 20), "zlib bytes are not gzip") {
            guard case .corrupt = $0 as? InflateError else { return fail("\($0)") }
        }
        var damaged = Deflate.compress(text, format: .gzip)
        damaged[damaged.count - 5] ^= 0xFF  // the stored length
        expectThrowsError(try Inflate.decompress(damaged, limit: 1 << 20)) {
            guard case .corrupt = $0 as? InflateError else { return fail("\($0)") }
        }
    }

    @Test func testInflateIntoAFixedBuffer() throws {
        let packed = Deflate.compress(text)
        func into(_ size: Int, _ source: [UInt8]) throws -> (Int, [UInt8]) {
            var destination = [UInt8](repeating: 0, count: size)
            let count = try source.withUnsafeBytes { src in
                try destination.withUnsafeMutableBytes { try Inflate.decompress(src, format: .zlib, into: $0) }
            }
            return (count, destination)
        }
        let (count, bytes) = try into(text.count, packed)
        expectEqual(count, text.count)
        expectEqual(Data(bytes), text)
        expectEqual(try into(text.count + 10, packed).0, text.count, "a shorter stream says how much came out")
        expectThrowsError(try into(text.count - 1, packed)) { expectEqual($0 as? InflateError, .tooLarge(limit: text.count - 1)) }
        expectThrowsError(try into(text.count, Array(packed.dropLast(2)))) { expectEqual($0 as? InflateError, .truncated) }
        expectThrowsError(try into(text.count, Array(packed.prefix(packed.count / 2)))) { expectEqual($0 as? InflateError, .truncated) }
        expectThrowsError(try into(text.count, [0x78, 0x9C, 0xFF, 0xFF, 0xFF])) {
            guard case .corrupt = $0 as? InflateError else { return fail("\($0)") }
        }
    }

    @Test func testStreamingInflaterTakesPiecesAndStopsAtTheCap() throws {
        let packed = Deflate.compress(text, format: .gzip) + [1, 2, 3]
        let inflater = try StreamingInflater(limit: text.count)
        for start in stride(from: 0, to: packed.count, by: 7) {
            expectFalse(inflater.finished)
            try inflater.feed(Data(packed[start..<min(packed.count, start + 7)]))
        }
        expectTrue(inflater.finished, "bytes after the end are ignored")
        expectEqual(inflater.output, text)

        let short = try StreamingInflater(limit: text.count - 1)
        expectThrowsError(try short.feed(Data(packed))) { expectEqual($0 as? InflateError, .tooLarge(limit: text.count - 1)) }
        expectLessThanOrEqual(short.output.count, text.count - 1)

        let cut = try StreamingInflater(limit: 1 << 20)
        try cut.feed(Data(packed.prefix(20)))
        expectFalse(cut.finished)

        let bad = try StreamingInflater(limit: 1 << 20)
        expectThrowsError(try bad.feed(Data("<html>not gzip</html>".utf8))) {
            guard case .corrupt = $0 as? InflateError else { return fail("\($0)") }
        }
    }

    @Test func testCRC32() {
        expectEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926, "the standard check value")
        expectEqual(CRC32.checksum([UInt8]()), 0)
        let first = Array(text.prefix(1000)), second = Array(text.dropFirst(1000))
        expectEqual(CRC32.update(CRC32.checksum(first), second), CRC32.checksum(text))
        expectEqual(CRC32.combine(CRC32.checksum(first), CRC32.checksum(second), secondLength: second.count), CRC32.checksum(text))
        expectEqual(CRC32.checksum(text.lazy.map { $0 }), CRC32.checksum(text), "non-contiguous sequences too")
    }
}
