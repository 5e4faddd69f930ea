/// One colour, 8 bits a channel, written `#rrggbb` (or `rgba(…)` when not opaque) in styles; the raster
/// renderer reads the channels.
public struct MapColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0…1.
    public var alpha: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = min(max(alpha, 0), 1)
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF), alpha: alpha)
    }

    /// The CSS form a MapLibre style reads.
    public var css: String {
        if alpha >= 1 {
            let digits = Array("0123456789abcdef")
            return "#" + String([red >> 4, red & 15, green >> 4, green & 15, blue >> 4, blue & 15].map { digits[Int($0)] })
        }
        let a = (alpha * 1000).rounded() / 1000
        return "rgba(\(red), \(green), \(blue), \(a))"
    }

    public var description: String { css }

    /// Relative luminance 0 (black) … 1 (white), sRGB weights without gamma: enough to tell dark from light.
    public var luminance: Double { (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255 }
}
