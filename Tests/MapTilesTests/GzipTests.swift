import XCTest
@testable import MapTiles

final class GzipTests: XCTestCase {
    func testRoundTripAndGzipHeader() throws {
        var rng = SeededGenerator(seed: 3)
        let text = Data((0..<200_000).map { _ in UInt8.random(in: 97...100, using: &rng) })
        let packed = Gzip.compress(text)
        XCTAssertEqual(Array(packed.prefix(3)), [0x1F, 0x8B, 8])
        XCTAssertLessThan(packed.count, text.count / 2)
        XCTAssertEqual(try Gzip.decompress(packed), text)
        XCTAssertEqual(Gzip.compress(text), packed, "same bytes every run")
        XCTAssertEqual(try Gzip.decompress(Gzip.compress(Data())), Data())
    }

    func testBadInputThrowsTypedErrors() {
        let packed = Gzip.compress(Data(repeating: 0x41, count: 100_000))
        XCTAssertThrowsError(try Gzip.decompress(packed, limit: 1000)) { XCTAssertEqual($0 as? Gzip.Failure, .tooLarge(limit: 1000)) }
        XCTAssertThrowsError(try Gzip.decompress(packed.prefix(packed.count - 12))) { XCTAssertEqual($0 as? Gzip.Failure, .truncated) }
        XCTAssertThrowsError(try Gzip.decompress(Data("not gzip at all, really".utf8))) {
            guard case .corrupt = $0 as? Gzip.Failure else { return XCTFail("\($0)") }
        }
        var damaged = packed
        damaged[12] ^= 0xFF
        XCTAssertThrowsError(try Gzip.decompress(damaged))
    }
}
