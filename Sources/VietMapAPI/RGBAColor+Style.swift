import MapTiles

/// How a style document writes a palette colour: `#rrggbb`, or `rgba(r, g, b, a)` when not opaque; and how light it
/// is (tests tell dark looks from light ones by it).
extension RGBAColor {
    /// The CSS form a MapLibre style reads.
    public var css: String {
        if isOpaque {
            let digits = Array("0123456789abcdef")
            return "#" + String([red >> 4, red & 15, green >> 4, green & 15, blue >> 4, blue & 15].map { digits[Int($0)] })
        }
        let a = (Double(alpha) / 255 * 1000).rounded() / 1000
        return "rgba(\(red), \(green), \(blue), \(a))"
    }

    /// Relative luminance 0 (black) … 1 (white), sRGB weights without gamma: enough to tell dark from light.
    public var luminance: Double { (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255 }
}
