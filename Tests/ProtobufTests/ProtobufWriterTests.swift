import Foundation
import Protobuf
import TestExpectations
import Testing

@Suite final class ProtobufWriterTests {
    @Test func testVarintsZigzagAndLengthDelimitedFieldsAreProtobufWireFormat() {
        var writer = ProtobufWriter()
        writer.uintField(1, 300)
        writer.sintField(5, -3)
        writer.sintField(6, 2)
        writer.stringField(1, "0-255")
        writer.message(3) { $0.uintField(7, 1) }
        expectEqual(writer.bytes, [0x08, 0xAC, 0x02, 0x28, 0x05, 0x30, 0x04, 0x0A, 0x05, 0x30, 0x2D, 0x32, 0x35, 0x35,
                                      0x1A, 0x02, 0x38, 0x01])
        expectEqual(ProtobufWriter.zigzag(Int32(0)), 0)
        expectEqual(ProtobufWriter.zigzag(Int32(-1)), 1)
        expectEqual(ProtobufWriter.zigzag(Int32(1)), 2)
        expectEqual(ProtobufWriter.zigzag(Int32.min), UInt32.max)
        expectEqual(ProtobufWriter.zigzag(Int32.max), UInt32.max - 1)
        expectEqual(ProtobufWriter.zigzag(Int64.min), UInt64.max)
        expectEqual(ProtobufWriter.zigzag(Int64(-2)), 3)
    }

    @Test func testIntDoubleBytesAndNestedWriters() {
        var writer = ProtobufWriter()
        writer.intField(1, -1)
        expectEqual(writer.bytes, [0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01], "a negative int64 takes 10 bytes")
        writer = ProtobufWriter()
        writer.doubleField(3, 1.0)
        expectEqual(writer.bytes, [0x19, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        var inner = ProtobufWriter()
        inner.bytesField(2, [0xDE, 0xAD])
        writer = ProtobufWriter()
        writer.message(4, inner)
        writer.message(4, bytes: inner.bytes[...])
        writer.append(inner)
        expectEqual(writer.bytes, [0x22, 0x04, 0x12, 0x02, 0xDE, 0xAD, 0x22, 0x04, 0x12, 0x02, 0xDE, 0xAD, 0x12, 0x02, 0xDE, 0xAD])
    }

    @Test func testPackedFieldsAndSizes() {
        var writer = ProtobufWriter()
        writer.packedUInt32(4, [3, 270, 86942][...])
        expectEqual(writer.bytes, [0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05], "the protobuf documentation's packed example")
        expectEqual(ProtobufWriter.packedSize([3, 270, 86942][...]), writer.count)
        writer = ProtobufWriter()
        writer.packedUInt32(4, [][...])
        writer.packedUInt64(4, [])
        writer.packedDeltaSInt64(8, [])
        expectEqual(writer.bytes, [], "empty packed lists write nothing")
        writer.packedUInt64(2, [1, 300])
        expectEqual(writer.bytes, [0x12, 0x03, 0x01, 0xAC, 0x02])
        writer = ProtobufWriter()
        writer.packedDeltaSInt64(8, [100, 98, 1_000_000_000])
        // Deltas 100, -2, 999_999_902 zigzagged: 200, 3, 1_999_999_804.
        var expected = ProtobufWriter()
        for v: UInt64 in [200, 3, 1_999_999_804] { expected.varint(v) }
        expectEqual(writer.bytes, [0x42, UInt8(expected.count)] + expected.bytes)
        expectEqual(ProtobufWriter.varintSize(0), 1)
        expectEqual(ProtobufWriter.varintSize(127), 1)
        expectEqual(ProtobufWriter.varintSize(128), 2)
        expectEqual(ProtobufWriter.varintSize(.max), 10)
        writer = ProtobufWriter()
        writer.stringField(1, "Đường")
        expectEqual(ProtobufWriter.stringFieldSize("Đường"), writer.count)
    }
}
