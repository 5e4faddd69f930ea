/// A glyph as FreeType renders it: the coverage bitmap (rows top-down) and its placement in px.
struct RasterGlyph {
    let codePoint: UInt32
    let coverage: [UInt8]
    let width: Int
    let height: Int
    /// Pen origin to the bitmap's left edge.
    let left: Int
    /// Baseline to the bitmap's top edge (up positive).
    let bitmapTop: Int
    /// Horizontal advance, rounded to whole px.
    let advance: Int
}
