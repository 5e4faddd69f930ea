import CFreeType
import Foundation

/// One font file opened with FreeType from memory and sized to MapLibre's 24-px em: looks up
/// code points and renders their antialiased coverage bitmaps and metrics. A FreeType face is not
/// thread-safe, so every use holds the face's lock; the SDF is computed by the caller outside it.
final class FreeTypeFont: @unchecked Sendable {
    /// The name styles use for the font ("Roboto Regular").
    let name: String
    /// The font's ascender at 24 px, whole pixels (FreeType's size metrics, rounded up).
    let ascender: Int

    private let library: FreeTypeLibrary
    private let face: FT_Face
    /// The font file: FreeType reads it in place for as long as the face lives.
    private let fileBytes: UnsafeMutableRawBufferPointer
    private let lock = NSLock()

    /// Why a font does not open.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// The font `data`, opened in `library` at `pixelSize` px.
    init(name: String, data: Data, library: FreeTypeLibrary, pixelSize: Int) throws(LoadError) {
        self.name = name
        self.library = library
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        var opened: FT_Face?
        let status = library.withLock { handle in
            FT_New_Memory_Face(handle, bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(data.count), 0, &opened)
        }
        guard status == 0, let face = opened else {
            bytes.deallocate()
            throw LoadError(description: "FreeType cannot open the font \(name) (error \(status))")
        }
        let sized = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        guard sized == 0, let size = face.pointee.size else {
            _ = library.withLock { _ in FT_Done_Face(face) }
            bytes.deallocate()
            throw LoadError(description: "FreeType cannot size the font \(name) to \(pixelSize) px (error \(sized))")
        }
        self.face = face
        self.fileBytes = bytes
        self.ascender = Int(size.pointee.metrics.ascender >> 6)
    }

    deinit {
        _ = library.withLock { _ in FT_Done_Face(face) }
        fileBytes.deallocate()
    }

    /// The family and style names FreeType reads from the file ("Roboto" "Regular").
    var familyAndStyle: String {
        lock.withLock {
            let family = face.pointee.family_name.map { String(cString: $0) } ?? ""
            let style = face.pointee.style_name.map { String(cString: $0) } ?? ""
            return style.isEmpty ? family : "\(family) \(style)"
        }
    }

    /// Whether the font maps `codePoint` to a glyph (other than `.notdef`).
    func hasGlyph(_ codePoint: UInt32) -> Bool {
        lock.withLock { FT_Get_Char_Index(face, FT_ULong(codePoint)) != 0 }
    }

    /// `codePoint`'s coverage bitmap (8-bit, unhinted) and metrics in px, or nil when the font
    /// has no glyph for it or FreeType fails to render it.
    func render(_ codePoint: UInt32) -> RasterGlyph? {
        lock.withLock { () -> RasterGlyph? in
            let index = FT_Get_Char_Index(face, FT_ULong(codePoint))
            guard index != 0 else { return nil }
            guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_RENDER)) == 0,
                  let slot = face.pointee.glyph else { return nil }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var coverage = [UInt8](repeating: 0, count: width * rows)
            if width > 0, rows > 0 {
                // The smooth renderer writes 8-bit gray rows top-down (pitch ≥ width); anything else is skipped.
                guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), pitch >= width, let buffer = bitmap.buffer else { return nil }
                for y in 0..<rows {
                    for x in 0..<width { coverage[y * width + x] = buffer[y * pitch + x] }
                }
            }
            let advance = Int((slot.pointee.metrics.horiAdvance + 32) >> 6)
            return RasterGlyph(codePoint: codePoint, coverage: coverage, width: width, height: rows,
                               left: Int(slot.pointee.bitmap_left), bitmapTop: Int(slot.pointee.bitmap_top), advance: advance)
        }
    }
}
