import JSON

/// Why a sprite atlas could not be built.
public enum SpriteAtlasError: Error, Equatable, CustomStringConvertible {
    /// Ratios are 1 (`sprite.png`) or 2 (`sprite@2x.png`).
    case unsupportedPixelRatio(Int)
    /// Two icons share a name.
    case duplicateName(String)
    /// An icon without a name.
    case emptyName
    /// A glyph that is empty or longer than two characters.
    case badGlyph(icon: String)
    /// Cairo failed; its message.
    case drawingFailed(String)

    public var description: String {
        switch self {
        case .unsupportedPixelRatio(let r): return "sprite pixel ratio \(r) is not supported (1 or 2)"
        case .duplicateName(let n): return "sprite icon name \"\(n)\" is used twice"
        case .emptyName: return "a sprite icon has an empty name"
        case .badGlyph(let n): return "sprite icon \"\(n)\": a glyph is one or two characters"
        case .drawingFailed(let m): return "sprite drawing failed: \(m)"
        }
    }
}

/// A MapLibre sprite: every icon drawn into one PNG, and the JSON index of where each one is
/// (`{"name": {"x", "y", "width", "height", "pixelRatio"[, "stretchX", "content"]}}`, names sorted). Icons are
/// packed on shelves at ratio 1; ratio 2 doubles the same layout. The same icons give the same bytes.
public enum SpriteAtlas {
    /// Gap between icons and shelves, in ratio-1 pixels: no icon's antialiased edge bleeds into another.
    static let gap = 2

    /// One icon's box in the atlas, in ratio-1 pixels.
    struct Slot: Equatable {
        var name: String
        var x: Int, y: Int, width: Int, height: Int
    }

    /// The index JSON and the atlas PNG for `icons` at `pixelRatio` (1 or 2).
    public static func build(icons: [SpriteIcon], pixelRatio: Int) throws(SpriteAtlasError) -> (json: [UInt8], png: [UInt8]) {
        guard pixelRatio == 1 || pixelRatio == 2 else { throw .unsupportedPixelRatio(pixelRatio) }
        var seen = Set<String>()
        for icon in icons {
            guard !icon.name.isEmpty else { throw .emptyName }
            guard seen.insert(icon.name).inserted else { throw .duplicateName(icon.name) }
            if let glyph = icon.glyph, glyph.isEmpty || glyph.count > 2 { throw .badGlyph(icon: icon.name) }
        }
        let (slots, atlasWidth, atlasHeight) = layout(icons)
        let r = pixelRatio
        let canvas: CairoCanvas
        do { canvas = try CairoCanvas(width: max(1, atlasWidth * r), height: max(1, atlasHeight * r), opaque: false, fastAntialias: false) } catch {
            throw .drawingFailed(error.description)
        }
        canvas.clear(to: .transparent)
        let iconOfName = Dictionary(uniqueKeysWithValues: icons.map { ($0.name, $0) })
        for slot in slots {
            let icon = iconOfName[slot.name]!
            canvas.withPlacement(dx: Double(slot.x * r), dy: Double(slot.y * r), scale: Double(r),
                                 clipWidth: Double(slot.width), clipHeight: Double(slot.height)) {
                icon.draw(on: canvas)
            }
        }
        let png: [UInt8]
        do { png = try canvas.pngBytes() } catch { throw .drawingFailed(error.description) }

        let sorted = slots.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let index = sorted.map { slot -> (String, JSONValue) in
            var entry: [(String, JSONValue)] = [("x", .integer(slot.x * r)), ("y", .integer(slot.y * r)), ("width", .integer(slot.width * r)),
                                                ("height", .integer(slot.height * r)), ("pixelRatio", .integer(r))]
            if let stretch = iconOfName[slot.name]!.stretch {
                let (a, b) = stretch.stretchX
                let (l, t, rt, bt) = stretch.content
                entry.append(("stretchX", .array([.array([.integer(a * r), .integer(b * r)])])))
                entry.append(("content", .array([l, t, rt, bt].map { .integer($0 * r) })))
            }
            return (slot.name, .object(JSONObject(entry)))
        }
        return (JSONSerializer.bytes(.object(JSONObject(index))), png)
    }

    /// Shelf packing at ratio 1: icons by height (then width, then name) fill rows of a width near the square
    /// root of their total area; returns each icon's box and the atlas size.
    static func layout(_ icons: [SpriteIcon]) -> (slots: [Slot], width: Int, height: Int) {
        guard !icons.isEmpty else { return ([], 1, 1) }
        let ordered = icons.sorted { a, b in
            let (sa, sb) = (a.shape.size, b.shape.size)
            if sa.height != sb.height { return sa.height > sb.height }
            if sa.width != sb.width { return sa.width > sb.width }
            return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        let area = ordered.reduce(0) { $0 + ($1.shape.size.width + gap) * ($1.shape.size.height + gap) }
        let widest = ordered.map(\.shape.size.width).max()!
        var rowWidth = Int((Double(area).squareRoot() * 1.2).rounded(.up))
        rowWidth = max(widest, (rowWidth + 7) / 8 * 8)
        var slots: [Slot] = []
        var x = 0, y = 0, shelfHeight = 0, usedWidth = 0
        for icon in ordered {
            let (w, h) = icon.shape.size
            if x > 0 && x + w > rowWidth {
                y += shelfHeight + gap
                x = 0
                shelfHeight = 0
            }
            slots.append(Slot(name: icon.name, x: x, y: y, width: w, height: h))
            usedWidth = max(usedWidth, x + w)
            x += w + gap
            shelfHeight = max(shelfHeight, h)
        }
        return (slots, usedWidth, y + shelfHeight)
    }
}
