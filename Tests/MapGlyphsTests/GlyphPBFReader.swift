import Foundation
import TestExpectations
import Testing

/// A reader of MapLibre glyph PBFs for the tests, independent of the writer under test: every
/// field number and wire type is checked, unknown ones fail the read.
struct GlyphPBFReader {
    struct Glyph: Equatable {
        var id: UInt32 = 0
        var bitmap: [UInt8]?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var left: Int32 = 0
        var top: Int32 = 0
        var advance: UInt32 = 0
    }

    struct Stack {
        var name: String?
        var range: String?
        var glyphs: [Glyph] = []
        func glyph(_ scalar: Unicode.Scalar) -> Glyph? { glyphs.first { $0.id == scalar.value } }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The stacks of a whole `glyphs` message.
    static func read(_ bytes: [UInt8]) throws -> [Stack] {
        var stacks: [Stack] = []
        try fields(bytes[...]) { field, value in
            guard field == 1, case .bytes(let message) = value else { throw Failure(description: "glyphs: unexpected field \(field)") }
            stacks.append(try readStack(message))
        }
        return stacks
    }

    private static func readStack(_ bytes: ArraySlice<UInt8>) throws -> Stack {
        var stack = Stack()
        try fields(bytes) { field, value in
            switch (field, value) {
            case (1, .bytes(let text)): stack.name = String(decoding: text, as: UTF8.self)
            case (2, .bytes(let text)): stack.range = String(decoding: text, as: UTF8.self)
            case (3, .bytes(let message)): stack.glyphs.append(try readGlyph(message))
            default: throw Failure(description: "fontstack: unexpected field \(field)")
            }
        }
        return stack
    }

    private static func readGlyph(_ bytes: ArraySlice<UInt8>) throws -> Glyph {
        var glyph = Glyph()
        var seen = Set<Int>()
        try fields(bytes) { field, value in
            seen.insert(field)
            switch (field, value) {
            case (1, .varint(let n)): glyph.id = UInt32(n)
            case (2, .bytes(let data)): glyph.bitmap = Array(data)
            case (3, .varint(let n)): glyph.width = UInt32(n)
            case (4, .varint(let n)): glyph.height = UInt32(n)
            case (5, .varint(let n)): glyph.left = unzigzag(n)
            case (6, .varint(let n)): glyph.top = unzigzag(n)
            case (7, .varint(let n)): glyph.advance = UInt32(n)
            default: throw Failure(description: "glyph: unexpected field \(field)")
            }
        }
        // proto2 `required` fields of glyphs.proto.
        guard seen.isSuperset(of: [1, 3, 4, 5, 6, 7]) else { throw Failure(description: "glyph \(glyph.id) lacks required fields: \(seen.sorted())") }
        return glyph
    }

    private static func unzigzag(_ n: UInt64) -> Int32 {
        Int32(truncatingIfNeeded: Int64(n >> 1) ^ -Int64(n & 1))
    }

    enum Value { case varint(UInt64), bytes(ArraySlice<UInt8>) }

    private static func fields(_ bytes: ArraySlice<UInt8>, _ visit: (Int, Value) throws -> Void) throws {
        var index = bytes.startIndex
        func varint() throws -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard index < bytes.endIndex, shift < 64 else { throw Failure(description: "cut varint") }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }
        while index < bytes.endIndex {
            let key = try varint()
            switch key & 7 {
            case 0: try visit(Int(key >> 3), .varint(try varint()))
            case 2:
                let length = Int(try varint())
                guard length <= bytes.endIndex - index else { throw Failure(description: "cut length-delimited field") }
                try visit(Int(key >> 3), .bytes(bytes[index..<index + length]))
                index += length
            default: throw Failure(description: "unexpected wire type \(key & 7)")
            }
        }
    }
}
