import Foundation
@testable import MapTiles

/// Test support: a small, strict MVT 2.1 decoder, written from the spec independently of the encoder, so
/// tests read tiles back as a client would.
struct DecodedTile {
    struct Feature {
        var id: UInt64?
        var type: Int
        var properties: [String: MapValue]
        /// Raw command words.
        var commands: [UInt32]
        /// Points (type 1: one part with all points), line parts (type 2) or rings (type 3), in tile units.
        var parts: [[Point]]
    }
    struct Point: Hashable, CustomStringConvertible {
        var x: Int, y: Int
        var description: String { "(\(x),\(y))" }
    }
    struct Layer {
        var name: String
        var version: UInt64
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [MapValue] = []
        var features: [Feature] = []
    }
    var layers: [Layer] = []

    subscript(layer name: String) -> Layer? { layers.first { $0.name == name } }

    enum DecodeError: Error { case truncated, badWireType(UInt64), badCommand(UInt32), badTag, missing(String) }

    init(_ data: Data) throws {
        var reader = Reader(bytes: [UInt8](data))
        while !reader.atEnd {
            let (field, wire) = try reader.tag()
            if field == 3, wire == 2 { layers.append(try DecodedTile.layer(try reader.message())) } else { try reader.skip(wire) }
        }
    }

    private static func layer(_ bytes: [UInt8]) throws -> Layer {
        var r = Reader(bytes: bytes)
        var name: String?, version: UInt64?, extent: UInt64 = 4096
        var keys: [String] = [], values: [MapValue] = []
        var rawFeatures: [[UInt8]] = []
        while !r.atEnd {
            let (field, wire) = try r.tag()
            switch (field, wire) {
            case (1, 2): name = String(decoding: try r.message(), as: UTF8.self)
            case (2, 2): rawFeatures.append(try r.message())
            case (3, 2): keys.append(String(decoding: try r.message(), as: UTF8.self))
            case (4, 2): values.append(try value(try r.message()))
            case (5, 0): extent = try r.varint()
            case (15, 0): version = try r.varint()
            default: try r.skip(wire)
            }
        }
        guard let name else { throw DecodeError.missing("layer name") }
        guard let version else { throw DecodeError.missing("layer version") }
        var layer = Layer(name: name, version: version, extent: extent, keys: keys, values: values)
        for raw in rawFeatures { layer.features.append(try feature(raw, keys: keys, values: values)) }
        return layer
    }

    private static func value(_ bytes: [UInt8]) throws -> MapValue {
        var r = Reader(bytes: bytes)
        var result: MapValue?
        while !r.atEnd {
            let (field, wire) = try r.tag()
            switch (field, wire) {
            case (1, 2): result = .string(String(decoding: try r.message(), as: UTF8.self))
            case (3, 1): result = .double(Double(bitPattern: try r.fixed64()))
            case (4, 0): result = .int(Int64(bitPattern: try r.varint()))
            case (5, 0): result = .int(Int64(try r.varint()))
            case (6, 0): let z = try r.varint(); result = .int(Int64(bitPattern: z >> 1) ^ -Int64(z & 1))
            case (7, 0): result = .bool(try r.varint() != 0)
            default: throw DecodeError.badTag
            }
        }
        guard let result else { throw DecodeError.missing("value") }
        return result
    }

    private static func feature(_ bytes: [UInt8], keys: [String], values: [MapValue]) throws -> Feature {
        var r = Reader(bytes: bytes)
        var id: UInt64?, type = 0, tags: [UInt32] = [], geometry: [UInt32] = []
        while !r.atEnd {
            let (field, wire) = try r.tag()
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2): tags = try r.packed()
            case (3, 0): type = Int(try r.varint())
            case (4, 2): geometry = try r.packed()
            default: try r.skip(wire)
            }
        }
        var properties: [String: MapValue] = [:]
        guard tags.count % 2 == 0 else { throw DecodeError.badTag }
        for i in stride(from: 0, to: tags.count, by: 2) {
            guard Int(tags[i]) < keys.count, Int(tags[i + 1]) < values.count else { throw DecodeError.badTag }
            properties[keys[Int(tags[i])]] = values[Int(tags[i + 1])]
        }
        return Feature(id: id, type: type, properties: properties, commands: geometry,
                       parts: try parts(geometry, type: type))
    }

    /// Decodes commands, checking the spec's rules: MoveTo(1) per line part/ring (n points for points),
    /// LineTo count ≥ 1, ClosePath only for rings, no zero-length LineTo.
    private static func parts(_ words: [UInt32], type: Int) throws -> [[Point]] {
        var parts: [[Point]] = []
        var x = 0, y = 0, i = 0
        func zz(_ v: UInt32) -> Int { Int(Int32(bitPattern: v >> 1) ^ -Int32(bitPattern: v & 1)) }
        while i < words.count {
            let command = words[i] & 7, count = Int(words[i] >> 3)
            i += 1
            switch command {
            case 1:
                guard count >= 1, type == 1 || count == 1 else { throw DecodeError.badCommand(words[i - 1]) }
                var part: [Point] = []
                for _ in 0..<count {
                    guard i + 1 < words.count else { throw DecodeError.truncated }
                    x += zz(words[i]); y += zz(words[i + 1]); i += 2
                    part.append(Point(x: x, y: y))
                }
                parts.append(part)
            case 2:
                guard count >= 1, type != 1, !parts.isEmpty else { throw DecodeError.badCommand(words[i - 1]) }
                for _ in 0..<count {
                    guard i + 1 < words.count else { throw DecodeError.truncated }
                    let dx = zz(words[i]), dy = zz(words[i + 1]); i += 2
                    if dx == 0 && dy == 0 { throw DecodeError.badCommand(2) } // zero-length LineTo
                    x += dx; y += dy
                    parts[parts.count - 1].append(Point(x: x, y: y))
                }
            case 7:
                guard count == 1, type == 3 else { throw DecodeError.badCommand(words[i - 1]) }
            default:
                throw DecodeError.badCommand(words[i - 1])
            }
        }
        return parts
    }

    /// Twice the surveyor's area of a ring (positive: clockwise on screen, y down).
    static func doubledArea(_ ring: [Point]) -> Int {
        var sum = 0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var atEnd: Bool { position >= bytes.count }

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard position < bytes.count, shift < 64 else { throw DecodeError.truncated }
                let b = bytes[position]; position += 1
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
            }
        }
        mutating func tag() throws -> (Int, UInt64) {
            let t = try varint()
            return (Int(t >> 3), t & 7)
        }
        mutating func message() throws -> [UInt8] {
            let n = Int(try varint())
            guard n >= 0, position + n <= bytes.count else { throw DecodeError.truncated }
            defer { position += n }
            return Array(bytes[position..<(position + n)])
        }
        mutating func fixed64() throws -> UInt64 {
            guard position + 8 <= bytes.count else { throw DecodeError.truncated }
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[position + k]) << (8 * UInt64(k)) }
            position += 8
            return v
        }
        mutating func packed() throws -> [UInt32] {
            var inner = Reader(bytes: try message())
            var out: [UInt32] = []
            while !inner.atEnd { out.append(UInt32(truncatingIfNeeded: try inner.varint())) }
            return out
        }
        mutating func skip(_ wire: UInt64) throws {
            switch wire {
            case 0: _ = try varint()
            case 1: guard position + 8 <= bytes.count else { throw DecodeError.truncated }; position += 8
            case 2: _ = try message()
            case 5: guard position + 4 <= bytes.count else { throw DecodeError.truncated }; position += 4
            default: throw DecodeError.badWireType(wire)
            }
        }
    }
}
