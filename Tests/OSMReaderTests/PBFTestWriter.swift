import Foundation

/// Builds protobuf messages and PBF files by hand for the decoder tests.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func key(_ field: Int, _ wireType: UInt64) { varint(UInt64(field) << 3 | wireType) }
    mutating func int(_ field: Int, _ value: Int64) { key(field, 0); varint(UInt64(bitPattern: value)) }
    mutating func sint(_ field: Int, _ value: Int64) { key(field, 0); varint(Self.zigzag(value)) }
    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        key(field, 2)
        varint(UInt64(value.count))
        bytes += value
    }
    mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }
    mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
    mutating func packed(_ field: Int, _ values: [UInt64]) {
        var inner = ProtobufWriter()
        values.forEach { inner.varint($0) }
        bytes(field, inner.bytes)
    }
    mutating func packedDelta(_ field: Int, _ values: [Int64]) {
        var previous: Int64 = 0
        packed(field, values.map { value in
            let delta = Self.zigzag(value - previous)
            previous = value
            return delta
        })
    }
}

/// A PBF file assembled from raw (uncompressed) blobs.
struct PBFTestFile {
    var bytes: [UInt8] = []

    mutating func blob(type: String, payload: [UInt8]) {
        var blob = ProtobufWriter()
        blob.bytes(1, payload)  // raw
        blob.int(2, Int64(payload.count))  // raw_size
        var header = ProtobufWriter()
        header.string(1, type)
        header.int(3, Int64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        bytes += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        bytes += header.bytes + blob.bytes
    }

    mutating func header(requiredFeatures: [String] = ["OsmSchema-V0.6", "DenseNodes"],
                         bbox: (left: Int64, right: Int64, top: Int64, bottom: Int64)? = nil) {
        var block = ProtobufWriter()
        if let bbox {
            block.message(1) {
                $0.sint(1, bbox.left); $0.sint(2, bbox.right); $0.sint(3, bbox.top); $0.sint(4, bbox.bottom)
            }
        }
        requiredFeatures.forEach { block.string(4, $0) }
        block.string(16, "OSMReaderTests")
        blob(type: "OSMHeader", payload: block.bytes)
    }

    func write(to url: URL) throws { try Data(bytes).write(to: url) }
}
