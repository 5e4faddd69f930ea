/// The glyph PBF's messages (MapLibre's `glyphs.proto`): `glyphs { repeated fontstack stacks = 1 }`,
/// `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`, `glyph { id = 1; bitmap = 2;
/// width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`.
enum GlyphPBF {
    /// One glyph message as field 3 of a fontstack, ready to be appended to others.
    static func glyphField(id: UInt32, bitmap: [UInt8]?, width: Int, height: Int, left: Int, top: Int, advance: Int) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.writeMessage(field: 3) { glyph in
            glyph.writeUInt32(field: 1, id)
            if let bitmap, !bitmap.isEmpty { glyph.writeBytes(field: 2, bitmap) }
            glyph.writeUInt32(field: 3, UInt32(clamping: width))
            glyph.writeUInt32(field: 4, UInt32(clamping: height))
            glyph.writeSInt32(field: 5, Int32(clamping: left))
            glyph.writeSInt32(field: 6, Int32(clamping: top))
            glyph.writeUInt32(field: 7, UInt32(clamping: advance))
        }
        return writer.bytes
    }

    /// The whole answer: one fontstack named `name` for `range` holding `glyphFields`
    /// (concatenated `glyphField` outputs; empty for a range no font covers).
    static func glyphs(name: String, range: GlyphRange, glyphFields: [UInt8]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.writeMessage(field: 1) { stack in
            stack.writeString(field: 1, name)
            stack.writeString(field: 2, range.description)
            stack.appendRaw(glyphFields)
        }
        return writer.bytes
    }
}
