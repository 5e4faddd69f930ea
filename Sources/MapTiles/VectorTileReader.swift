import Foundation

/// Reads Mapbox Vector Tile 2.1 bytes (uncompressed protobuf) back into layers and features, as a client
/// does: the counterpart of `VectorTileBuilder`'s writer, written from the spec. Strict and bounded:
/// every varint, length and command count is checked against the bytes left, so malformed input is a
/// `VectorTileReader.DecodeError`, never a trap or an unbounded allocation.
public struct VectorTileReader: Sendable {
    /// A position in tile units (0…extent inside the tile, beyond it in the buffer).
    public struct Point: Sendable, Hashable, CustomStringConvertible {
        public var x: Int
        public var y: Int
        public init(x: Int, y: Int) { self.x = x; self.y = y }
        public var description: String { "(\(x),\(y))" }
    }

    /// The MVT geometry type of a feature.
    public enum GeometryType: Int, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    /// One decoded feature.
    public struct Feature: Sendable {
        public var id: UInt64?
        public var type: GeometryType
        public var properties: [String: MapValue]
        /// The raw geometry command words, as written.
        public var commands: [UInt32]
        /// Points (`.point`: one part holding every point), line parts (`.lineString`) or rings
        /// (`.polygon`, not closed: the first point is not repeated), in tile units.
        public var parts: [[Point]]

        /// The value of attribute `key`, if the feature has it.
        public subscript(key: String) -> MapValue? { properties[key] }
    }

    /// One decoded layer.
    public struct Layer: Sendable {
        public var name: String
        public var version: UInt64
        public var extent: UInt64
        /// The key and value tables, in the order written.
        public var keys: [String]
        public var values: [MapValue]
        public var features: [Feature]
    }

    /// Why bytes are not a valid vector tile.
    public enum DecodeError: Error, Sendable, Equatable {
        /// A varint, length or fixed-size field runs past the end of its message.
        case truncated
        /// A varint longer than 10 bytes.
        case overlongVarint
        /// A protobuf wire type MVT does not use (3, 4, 6, 7).
        case badWireType(UInt64)
        /// A geometry command word that breaks the spec's rules for the feature's type.
        case badCommand(UInt32)
        /// A feature's tags are odd in number or point past the key/value tables.
        case badTags
        /// A value message with no or an unknown field.
        case badValue
        /// An unknown geometry type.
        case badGeometryType(UInt64)
        /// A required field is absent (layer name, layer version).
        case missing(String)
    }

    /// The layers in the order written.
    public let layers: [Layer]

    /// Decodes `data`; an empty `data` is a valid tile with no layers.
    public init(_ data: Data) throws(DecodeError) {
        var reader = ProtobufReader(bytes: [UInt8](data))
        var layers: [Layer] = []
        while !reader.atEnd {
            let (field, wire) = try reader.tag()
            if field == 3, wire == 2 {
                layers.append(try Self.layer(try reader.message()))
            } else {
                try reader.skip(wire)
            }
        }
        self.layers = layers
    }

    /// The first layer named `name`.
    public subscript(layer name: String) -> Layer? { layers.first { $0.name == name } }

    /// Twice the surveyor's area of a ring (positive: clockwise on screen, y down — an exterior ring).
    public static func doubledArea(_ ring: [Point]) -> Int {
        var sum = 0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum
    }

    private static func layer(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> Layer {
        var r = ProtobufReader(bytes: bytes)
        var name: String?, version: UInt64?, extent: UInt64 = 4096
        var keys: [String] = [], values: [MapValue] = []
        var rawFeatures: [ArraySlice<UInt8>] = []
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
        guard let name else { throw .missing("layer name") }
        guard let version else { throw .missing("layer version") }
        var features: [Feature] = []
        features.reserveCapacity(rawFeatures.count)
        for raw in rawFeatures { features.append(try feature(raw, keys: keys, values: values)) }
        return Layer(name: name, version: version, extent: extent, keys: keys, values: values, features: features)
    }

    private static func value(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> MapValue {
        var r = ProtobufReader(bytes: bytes)
        var result: MapValue?
        while !r.atEnd {
            let (field, wire) = try r.tag()
            switch (field, wire) {
            case (1, 2): result = .string(String(decoding: try r.message(), as: UTF8.self))
            case (2, 5): result = .double(Double(Float(bitPattern: try r.fixed32())))
            case (3, 1): result = .double(Double(bitPattern: try r.fixed64()))
            case (4, 0): result = .int(Int64(bitPattern: try r.varint()))
            case (5, 0):
                let u = try r.varint()
                guard u <= UInt64(Int64.max) else { throw .badValue }
                result = .int(Int64(u))
            case (6, 0):
                let z = try r.varint()
                result = .int(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
            case (7, 0): result = .bool(try r.varint() != 0)
            default: throw .badValue
            }
        }
        guard let result else { throw .badValue }
        return result
    }

    private static func feature(_ bytes: ArraySlice<UInt8>, keys: [String], values: [MapValue]) throws(DecodeError) -> Feature {
        var r = ProtobufReader(bytes: bytes)
        var id: UInt64?, rawType: UInt64 = 0, tags: [UInt32] = [], geometry: [UInt32] = []
        while !r.atEnd {
            let (field, wire) = try r.tag()
            switch (field, wire) {
            case (1, 0): id = try r.varint()
            case (2, 2): tags = try r.packed()
            case (3, 0): rawType = try r.varint()
            case (4, 2): geometry = try r.packed()
            default: try r.skip(wire)
            }
        }
        guard rawType <= 3, let type = GeometryType(rawValue: Int(rawType)) else { throw .badGeometryType(rawType) }
        guard tags.count % 2 == 0 else { throw .badTags }
        var properties: [String: MapValue] = [:]
        for i in stride(from: 0, to: tags.count, by: 2) {
            let k = Int(tags[i]), v = Int(tags[i + 1])
            guard k < keys.count, v < values.count else { throw .badTags }
            properties[keys[k]] = values[v]
        }
        return Feature(id: id, type: type, properties: properties, commands: geometry,
                       parts: try parts(geometry, type: type))
    }

    /// Decodes commands, checking the spec's rules: one MoveTo per line part or ring (n for points),
    /// LineTo count ≥ 1 and never zero-length, ClosePath only on rings; a count never exceeds the words left.
    private static func parts(_ words: [UInt32], type: GeometryType) throws(DecodeError) -> [[Point]] {
        var parts: [[Point]] = []
        var x = 0, y = 0, i = 0
        func zigzag(_ v: UInt32) -> Int { Int(Int32(bitPattern: v >> 1) ^ -Int32(bitPattern: v & 1)) }
        while i < words.count {
            let word = words[i], command = word & 7, count = Int(word >> 3)
            i += 1
            switch command {
            case 1, 2:
                guard count >= 1, count <= (words.count - i) / 2 else {
                    throw count >= 1 ? .truncated : .badCommand(word)
                }
                if command == 1 {
                    guard type == .point || count == 1 else { throw .badCommand(word) }
                    parts.append([])
                } else {
                    guard type == .lineString || type == .polygon, !parts.isEmpty else { throw .badCommand(word) }
                }
                parts[parts.count - 1].reserveCapacity(parts[parts.count - 1].count + count)
                for _ in 0..<count {
                    let dx = zigzag(words[i]), dy = zigzag(words[i + 1])
                    i += 2
                    if command == 2, dx == 0, dy == 0 { throw .badCommand(word) }
                    x += dx; y += dy
                    parts[parts.count - 1].append(Point(x: x, y: y))
                }
            case 7:
                guard count == 1, type == .polygon, !parts.isEmpty else { throw .badCommand(word) }
            default:
                throw .badCommand(word)
            }
        }
        return parts
    }
}

/// The protobuf wire reading `VectorTileReader` needs, bounds-checked.
private struct ProtobufReader {
    let bytes: ArraySlice<UInt8>
    var position: Int
    init(bytes: [UInt8]) { self.init(bytes: bytes[...]) }
    init(bytes: ArraySlice<UInt8>) { self.bytes = bytes; position = bytes.startIndex }
    var atEnd: Bool { position >= bytes.endIndex }

    mutating func varint() throws(VectorTileReader.DecodeError) -> UInt64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex else { throw .truncated }
            guard shift < 64 else { throw .overlongVarint }
            let b = bytes[position]
            position += 1
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    mutating func tag() throws(VectorTileReader.DecodeError) -> (field: UInt64, wire: UInt64) {
        let t = try varint()
        return (t >> 3, t & 7)
    }

    mutating func message() throws(VectorTileReader.DecodeError) -> ArraySlice<UInt8> {
        let n = try varint()
        guard n <= UInt64(bytes.endIndex - position) else { throw .truncated }
        let end = position + Int(n)
        defer { position = end }
        return bytes[position..<end]
    }

    mutating func fixed64() throws(VectorTileReader.DecodeError) -> UInt64 {
        guard bytes.endIndex - position >= 8 else { throw .truncated }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[position + k]) << (8 * UInt64(k)) }
        position += 8
        return v
    }

    mutating func fixed32() throws(VectorTileReader.DecodeError) -> UInt32 {
        guard bytes.endIndex - position >= 4 else { throw .truncated }
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[position + k]) << (8 * UInt32(k)) }
        position += 4
        return v
    }

    /// A packed repeated uint32 field; its count is bounded by its byte length.
    mutating func packed() throws(VectorTileReader.DecodeError) -> [UInt32] {
        var inner = ProtobufReader(bytes: try message())
        var out: [UInt32] = []
        out.reserveCapacity(inner.bytes.count)
        while !inner.atEnd { out.append(UInt32(truncatingIfNeeded: try inner.varint())) }
        return out
    }

    mutating func skip(_ wire: UInt64) throws(VectorTileReader.DecodeError) {
        switch wire {
        case 0: _ = try varint()
        case 1: guard bytes.endIndex - position >= 8 else { throw .truncated }; position += 8
        case 2: _ = try message()
        case 5: guard bytes.endIndex - position >= 4 else { throw .truncated }; position += 4
        default: throw .badWireType(wire)
        }
    }
}
