@testable import MapGlyphs
import XCTest

final class ProtobufWriterTests: XCTestCase {
    func testVarintsZigzagAndLengthDelimitedFieldsAreProtobufWireFormat() {
        var writer = ProtobufWriter()
        writer.writeUInt32(field: 1, 300)
        writer.writeSInt32(field: 5, -3)
        writer.writeSInt32(field: 6, 2)
        writer.writeString(field: 1, "0-255")
        writer.writeMessage(field: 3) { $0.writeUInt32(field: 7, 1) }
        XCTAssertEqual(writer.bytes, [0x08, 0xAC, 0x02, 0x28, 0x05, 0x30, 0x04, 0x0A, 0x05, 0x30, 0x2D, 0x32, 0x35, 0x35,
                                      0x1A, 0x02, 0x38, 0x01])
        XCTAssertEqual(ProtobufWriter.zigzag(0), 0)
        XCTAssertEqual(ProtobufWriter.zigzag(-1), 1)
        XCTAssertEqual(ProtobufWriter.zigzag(1), 2)
        XCTAssertEqual(ProtobufWriter.zigzag(Int32.min), UInt32.max)
        XCTAssertEqual(ProtobufWriter.zigzag(Int32.max), UInt32.max - 1)
    }
}
