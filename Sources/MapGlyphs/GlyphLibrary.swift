import Foundation

/// MapLibre glyph PBFs (`{fontstack}/{range}.pbf`) rendered from fonts with FreeType as signed
/// distance fields at 24 px with a 3-px border (see `SignedDistanceField`).
///
/// The fonts are opened once, when the library is made: by default the three embedded Roboto
/// fonts VietMap's styles name ("Roboto Regular", "Roboto Medium", "Roboto Condensed Italic").
/// A stack is answered code point by code point from the first of its fonts that has a glyph.
/// Unknown font names are skipped (names match ignoring case); a stack naming no known font is
/// answered from Roboto Regular (`defaultFontName`), as a server with few fonts must answer every
/// stack a style may name — the PBF still carries the requested name. A range no font covers is a
/// valid PBF with the name and range and no glyphs.
///
/// Glyph metrics as node-fontnik and sdf_font_tools write them: `width`/`height` of the unbordered
/// FreeType bitmap (unhinted, antialiased), `left` = `bitmap_left`, `top` = `bitmap_top` − the
/// font's ascender at 24 px (FreeType's size metrics, whole px: 23 for all three Roboto fonts, so a
/// capital H, 18 px tall, has top −5), `advance` = the horizontal advance rounded to whole px
/// (those tools truncate; the two differ by at most 1 px). Glyphs without ink (spaces) have width
/// and height 0, no bitmap, and their advance.
///
/// Answers are cached per (resolved fonts, range), so stacks of unknown names share entries: an
/// LRU of at most 2048 ranges and 16 MiB of glyph data. All 256 ranges of the three embedded
/// fonts alone take 3.7 MB (87 of the 768 are non-empty; Latin ranges 80–140 KB each), so in
/// practice everything asked stays cached. A miss costs ~15–30 ms (release build, one core).
/// Thread-safe: each FreeType face is used under its own lock; the distance fields are computed
/// outside it.
///
/// For example:
/// ```swift
/// let stack = try FontStack(pathSegment: "Roboto%20Regular%2cRoboto%20Medium")
/// let range = try GlyphRange(parsing: "7680-7935")
/// let body = GlyphLibrary.shared.pbf(stack: stack, range: range)   // application/x-protobuf
/// ```
public final class GlyphLibrary: Sendable {
    /// The em size glyphs are rendered at: MapLibre's `ONE_EM`, px.
    public static let pixelSize = 24
    /// The font a stack with no known font is answered from.
    public static let defaultFontName = "Roboto Regular"
    /// The most (fonts, range) answers the cache holds.
    public static let cacheEntries = 2048
    /// The most bytes of glyph data the cache holds.
    public static let cacheBytes = 16 << 20

    /// The embedded fonts, opened on first use. The fonts are part of the build, so failing to
    /// open them is a broken build and stops the process with the reason.
    public static let shared: GlyphLibrary = {
        do { return try GlyphLibrary() } catch { fatalError("vietmap-sim: \(error)") }
    }()

    /// The names of the fonts, in the order they were given.
    public var fontNames: [String] { fonts.map(\.name) }

    private let library: FreeTypeLibrary
    private let fonts: [FreeTypeFont]
    private let fontIndexByName: [String: Int]
    private let defaultFont: Int
    private let cache: GlyphRangeCache

    /// Why the fonts do not open.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The embedded Roboto Regular, Medium and Condensed Italic.
    public convenience init() throws(LoadError) {
        var fonts: [(name: String, data: Data)] = []
        for (name, file) in EmbeddedFonts.files {
            let url = EmbeddedFonts.directory.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url) else { throw LoadError(description: "cannot read the embedded font \(url.path)") }
            fonts.append((name, data))
        }
        try self.init(fonts: fonts)
    }

    /// These fonts (TrueType or OpenType file contents) under these names; the first answers
    /// stacks with no known font unless one is named `defaultFontName`.
    public init(fonts: [(name: String, data: Data)], cacheEntries: Int = GlyphLibrary.cacheEntries,
                cacheBytes: Int = GlyphLibrary.cacheBytes) throws(LoadError) {
        guard !fonts.isEmpty else { throw LoadError(description: "a glyph library needs at least one font") }
        let library: FreeTypeLibrary
        do { library = try FreeTypeLibrary() } catch { throw LoadError(description: error.description) }
        var opened: [FreeTypeFont] = []
        for font in fonts {
            do {
                opened.append(try FreeTypeFont(name: font.name, data: font.data, library: library, pixelSize: Self.pixelSize))
            } catch {
                throw LoadError(description: error.description)
            }
        }
        var indices: [String: Int] = [:]
        for (index, font) in opened.enumerated() where indices[font.name.lowercased()] == nil { indices[font.name.lowercased()] = index }
        self.library = library
        self.fonts = opened
        self.fontIndexByName = indices
        self.defaultFont = indices[Self.defaultFontName.lowercased()] ?? 0
        self.cache = GlyphRangeCache(maximumEntries: cacheEntries, maximumBytes: cacheBytes)
    }

    /// The fonts that answer `stack`: its known names in order (each once), or the default font
    /// when it names none.
    public func resolvedFonts(for stack: [String]) -> [String] {
        fontIndices(for: stack).map { fonts[$0].name }
    }

    /// The glyph PBF of `stack` for `range`.
    public func pbf(stack: FontStack, range: GlyphRange) -> [UInt8] {
        pbf(stack: stack.fonts, range: range)
    }

    /// The glyph PBF for `range` of the stack naming `stack` (its fontstack name: the names joined
    /// by ", "): for each code point, the glyph of the first font of the stack that has one.
    public func pbf(stack: [String], range: GlyphRange) -> [UInt8] {
        let key = GlyphRangeCache.Key(fonts: fontIndices(for: stack), rangeStart: range.start)
        let glyphFields: [UInt8]
        if let cached = cache.value(for: key) {
            glyphFields = cached
        } else {
            glyphFields = renderGlyphFields(fonts: key.fonts, range: range)
            cache.store(glyphFields, for: key)
        }
        return GlyphPBF.glyphs(name: stack.joined(separator: ", "), range: range, glyphFields: glyphFields)
    }

    /// Ranges and bytes of glyph data cached now.
    public var cacheUsage: (ranges: Int, bytes: Int) {
        let usage = cache.usage
        return (usage.entries, usage.bytes)
    }

    private func fontIndices(for stack: [String]) -> [Int] {
        var indices: [Int] = []
        for name in stack {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            if let index = fontIndexByName[key], !indices.contains(index) { indices.append(index) }
        }
        return indices.isEmpty ? [defaultFont] : indices
    }

    /// The encoded glyph messages of `range` from `fonts` (first font with a glyph wins).
    private func renderGlyphFields(fonts indices: [Int], range: GlyphRange) -> [UInt8] {
        var fields: [UInt8] = []
        for codePoint in range.codePoints {
            guard let font = indices.lazy.map({ self.fonts[$0] }).first(where: { $0.hasGlyph(codePoint) }),
                  let raster = font.render(codePoint) else { continue }
            let top = raster.bitmapTop - font.ascender
            if raster.width > 0, raster.height > 0 {
                let field = SignedDistanceField.encode(coverage: raster.coverage, width: raster.width, height: raster.height)
                fields += GlyphPBF.glyphField(id: codePoint, bitmap: field, width: raster.width, height: raster.height,
                                              left: raster.left, top: top, advance: raster.advance)
            } else {
                // A space (or any glyph without ink): no bitmap, only its advance.
                fields += GlyphPBF.glyphField(id: codePoint, bitmap: nil, width: 0, height: 0,
                                              left: raster.left, top: top, advance: raster.advance)
            }
        }
        return fields
    }
}
