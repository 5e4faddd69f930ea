import CZlib
import Foundation
import XCTest
@testable import Zlib

final class DeflateInflateTests: XCTestCase {
    /// Text that compresses but is not trivial: a few kilobytes of varied lines.
    private let text = Data((0..<400).map { "line \($0): đường Lê Lợi \($0 * 7919 % 1000)\n" }.joined().utf8)

    func testZlibOutputIsCompress2Bytes() {
        for level in [Int32(1), 6, 9] {
            var size = compressBound(uLong(text.count))
            var expected = [UInt8](repeating: 0, count: Int(size))
            let status = text.withUnsafeBytes { compress2(&expected, &size, $0.bindMemory(to: Bytef.self).baseAddress, uLong(text.count), level) }
            XCTAssertEqual(status, Z_OK)
            XCTAssertEqual(Deflate.compress(text, level: level), Array(expected.prefix(Int(size))), "level \(level)")
        }
    }

    func testRoundTripsBothFormats() throws {
        for format in [ZlibFormat.zlib, .gzip] {
            let packed = Deflate.compress(text, format: format)
            XCTAssertLessThan(packed.count, text.count / 2)
            XCTAssertEqual(Deflate.compress(text, format: format), packed, "same bytes every run")
            XCTAssertEqual(try Inflate.decompress(packed, format: format, limit: 1 << 20), text)
            XCTAssertEqual(try Inflate.decompress(packed, limit: 1 << 20), text, "framing detected")
            XCTAssertEqual(try Inflate.inflatedSize(packed, limit: 1 << 20), text.count)
            XCTAssertEqual(try Inflate.decompress(Deflate.compress(Data(), format: format), format: format, limit: 0), Data())
        }
        let gzip = Deflate.compress(text, format: .gzip), zlib = Deflate.compress(text)
        XCTAssertTrue(ZlibFormat.isGzip(gzip))
        XCTAssertFalse(ZlibFormat.isGzip(zlib))
        XCTAssertTrue(ZlibFormat.isZlib(zlib))
        XCTAssertFalse(ZlibFormat.isZlib(gzip))
        XCTAssertFalse(ZlibFormat.isZlib([UInt8]()))
    }

    func testTypedErrors() {
        let packed = Deflate.compress(Data(repeating: 0x41, count: 100_000), format: .gzip)
        XCTAssertThrowsError(try Inflate.decompress(packed, limit: 1000)) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: 1000)) }
        XCTAssertThrowsError(try Inflate.inflatedSize(packed, limit: 99_999)) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: 99_999)) }
        XCTAssertEqual(try Inflate.inflatedSize(packed, limit: 100_000), 100_000, "exactly at the limit is fine")
        XCTAssertThrowsError(try Inflate.decompress(packed.prefix(packed.count - 12), limit: 1 << 20)) { XCTAssertEqual($0 as? InflateError, .truncated) }
        XCTAssertThrowsError(try Inflate.decompress([UInt8](), limit: 10)) { XCTAssertEqual($0 as? InflateError, .truncated) }
        XCTAssertThrowsError(try Inflate.decompress(Data("not gzip at all, really".utf8), format: .gzip, limit: 1 << 20)) {
            guard case .corrupt(let reason) = $0 as? InflateError else { return XCTFail("\($0)") }
            XCTAssertFalse(reason.isEmpty)
        }
        XCTAssertThrowsError(try Inflate.decompress(Deflate.compress(text), format: .gzip, limit: 1 << 20), "zlib bytes are not gzip") {
            guard case .corrupt = $0 as? InflateError else { return XCTFail("\($0)") }
        }
        var damaged = Deflate.compress(text, format: .gzip)
        damaged[damaged.count - 5] ^= 0xFF  // the stored length
        XCTAssertThrowsError(try Inflate.decompress(damaged, limit: 1 << 20)) {
            guard case .corrupt = $0 as? InflateError else { return XCTFail("\($0)") }
        }
    }

    func testInflateIntoAFixedBuffer() throws {
        let packed = Deflate.compress(text)
        func into(_ size: Int, _ source: [UInt8]) throws -> (Int, [UInt8]) {
            var destination = [UInt8](repeating: 0, count: size)
            let count = try source.withUnsafeBytes { src in
                try destination.withUnsafeMutableBytes { try Inflate.decompress(src, format: .zlib, into: $0) }
            }
            return (count, destination)
        }
        let (count, bytes) = try into(text.count, packed)
        XCTAssertEqual(count, text.count)
        XCTAssertEqual(Data(bytes), text)
        XCTAssertEqual(try into(text.count + 10, packed).0, text.count, "a shorter stream says how much came out")
        XCTAssertThrowsError(try into(text.count - 1, packed)) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: text.count - 1)) }
        XCTAssertThrowsError(try into(text.count, Array(packed.dropLast(2)))) { XCTAssertEqual($0 as? InflateError, .truncated) }
        XCTAssertThrowsError(try into(text.count, Array(packed.prefix(packed.count / 2)))) { XCTAssertEqual($0 as? InflateError, .truncated) }
        XCTAssertThrowsError(try into(text.count, [0x78, 0x9C, 0xFF, 0xFF, 0xFF])) {
            guard case .corrupt = $0 as? InflateError else { return XCTFail("\($0)") }
        }
    }

    func testStreamingInflaterTakesPiecesAndStopsAtTheCap() throws {
        let packed = Deflate.compress(text, format: .gzip) + [1, 2, 3]
        let inflater = try StreamingInflater(limit: text.count)
        for start in stride(from: 0, to: packed.count, by: 7) {
            XCTAssertFalse(inflater.finished)
            try inflater.feed(Data(packed[start..<min(packed.count, start + 7)]))
        }
        XCTAssertTrue(inflater.finished, "bytes after the end are ignored")
        XCTAssertEqual(inflater.output, text)

        let short = try StreamingInflater(limit: text.count - 1)
        XCTAssertThrowsError(try short.feed(Data(packed))) { XCTAssertEqual($0 as? InflateError, .tooLarge(limit: text.count - 1)) }
        XCTAssertLessThanOrEqual(short.output.count, text.count - 1)

        let cut = try StreamingInflater(limit: 1 << 20)
        try cut.feed(Data(packed.prefix(20)))
        XCTAssertFalse(cut.finished)

        let bad = try StreamingInflater(limit: 1 << 20)
        XCTAssertThrowsError(try bad.feed(Data("<html>not gzip</html>".utf8))) {
            guard case .corrupt = $0 as? InflateError else { return XCTFail("\($0)") }
        }
    }

    func testCRC32() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926, "the standard check value")
        XCTAssertEqual(CRC32.checksum([UInt8]()), 0)
        let first = Array(text.prefix(1000)), second = Array(text.dropFirst(1000))
        XCTAssertEqual(CRC32.update(CRC32.checksum(first), second), CRC32.checksum(text))
        XCTAssertEqual(CRC32.combine(CRC32.checksum(first), CRC32.checksum(second), secondLength: second.count), CRC32.checksum(text))
        XCTAssertEqual(CRC32.checksum(text.lazy.map { $0 }), CRC32.checksum(text), "non-contiguous sequences too")
    }
}
