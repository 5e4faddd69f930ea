/// One icon of a sprite atlas, drawn by Cairo from a shape (no image files): a filled shape with an optional
/// 1-px border and an optional one- or two-character mark in its middle. Sizes are at pixel ratio 1; the @2x
/// atlas draws the same icon twice as large.
public struct SpriteIcon: Sendable, Hashable {
    /// The outline of an icon, and with it its size.
    public enum Shape: Sendable, Hashable, CaseIterable {
        /// 17 × 17 disc.
        case circle
        /// 17 × 17 square, corners rounded.
        case roundedSquare
        /// 26 × 18 rounded rectangle for road numbers; stretchable (`stretchX`, `content`) for MapLibre's
        /// `icon-text-fit`.
        case shield
        /// 17 × 17 square standing on a corner.
        case diamond
        /// 9 × 9 small disc.
        case dot

        /// Width and height in pixels at ratio 1.
        public var size: (width: Int, height: Int) {
            switch self {
            case .circle, .roundedSquare, .diamond: return (17, 17)
            case .shield: return (26, 18)
            case .dot: return (9, 9)
            }
        }
    }

    /// The name the style's `icon-image` uses; unique within an atlas.
    public var name: String
    public var shape: Shape
    public var fill: RGBAColor
    /// A 1-px border in this colour; nil draws none.
    public var stroke: RGBAColor?
    /// One or two characters drawn bold in the middle; nil draws none.
    public var glyph: String?
    public var glyphColor: RGBAColor

    public init(name: String, shape: Shape, fill: RGBAColor, stroke: RGBAColor? = nil, glyph: String? = nil, glyphColor: RGBAColor = .white) {
        self.name = name; self.shape = shape; self.fill = fill; self.stroke = stroke; self.glyph = glyph; self.glyphColor = glyphColor
    }

    /// The horizontal band MapLibre may stretch and the box text goes in, at ratio 1 (nil: not stretchable).
    var stretch: (stretchX: (Int, Int), content: (Int, Int, Int, Int))? {
        guard shape == .shield else { return nil }
        let (w, h) = shape.size
        return ((5, w - 5), (4, 3, w - 4, h - 3))
    }

    /// Draws the icon with its top-left corner at (0, 0), in ratio-1 pixels (the canvas is already placed and scaled).
    func draw(on canvas: CairoCanvas) {
        let (w, h) = (Double(shape.size.width), Double(shape.size.height))
        let inset = 1.0
        canvas.newPath()
        switch shape {
        case .circle, .dot:
            canvas.addCircle(center: PixelPoint(x: w / 2, y: h / 2), radius: min(w, h) / 2 - inset)
        case .roundedSquare:
            canvas.addRoundedRect(x: inset, y: inset, width: w - 2 * inset, height: h - 2 * inset, radius: 3)
        case .shield:
            canvas.addRoundedRect(x: inset, y: inset, width: w - 2 * inset, height: h - 2 * inset, radius: 4)
        case .diamond:
            canvas.move(to: PixelPoint(x: w / 2, y: inset))
            canvas.line(to: PixelPoint(x: w - inset, y: h / 2))
            canvas.line(to: PixelPoint(x: w / 2, y: h - inset))
            canvas.line(to: PixelPoint(x: inset, y: h / 2))
            canvas.closePath()
        }
        canvas.setColor(fill)
        if let stroke {
            canvas.fill(preserve: true)
            canvas.setColor(stroke)
            canvas.setLineWidth(1)
            canvas.stroke()
        } else {
            canvas.fill()
        }
        if let glyph, !glyph.isEmpty {
            canvas.selectFont(size: h * (glyph.count == 1 ? 0.62 : 0.5), bold: true)
            let box = canvas.measure(glyph)
            canvas.newPath()
            canvas.addText(glyph, origin: PixelPoint(x: w / 2 - (box.x + box.width / 2), y: h / 2 - (box.y + box.height / 2)))
            canvas.setColor(glyphColor)
            canvas.fill()
        }
    }
}
