import Protobuf

/// The glyph PBF's messages (MapLibre's `glyphs.proto`): `glyphs { repeated fontstack stacks = 1 }`,
/// `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`, `glyph { id = 1; bitmap = 2;
/// width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`.
enum GlyphPBF {
    /// One glyph message as field 3 of a fontstack, ready to be appended to others.
    static func glyphField(id: UInt32, bitmap: [UInt8]?, width: Int, height: Int, left: Int, top: Int, advance: Int) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(3) { glyph in
            glyph.uintField(1, UInt64(id))
            if let bitmap, !bitmap.isEmpty { glyph.bytesField(2, bitmap) }
            glyph.uintField(3, UInt64(UInt32(clamping: width)))
            glyph.uintField(4, UInt64(UInt32(clamping: height)))
            glyph.sintField(5, Int64(Int32(clamping: left)))
            glyph.sintField(6, Int64(Int32(clamping: top)))
            glyph.uintField(7, UInt64(UInt32(clamping: advance)))
        }
        return writer.bytes
    }

    /// The whole answer: one fontstack named `name` for `range` holding `glyphFields`
    /// (concatenated `glyphField` outputs; empty for a range no font covers).
    static func glyphs(name: String, range: GlyphRange, glyphFields: [UInt8]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(1) { stack in
            stack.stringField(1, name)
            stack.stringField(2, range.description)
            stack.appendRaw(glyphFields)
        }
        return writer.bytes
    }
}
