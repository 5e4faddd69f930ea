/// A colour with straight (not premultiplied) alpha, each channel 0…255: what raster paints and sprite icons
/// are drawn in. The API layer owns the palette and passes colours in.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// `0xRRGGBB` opaque, e.g. `RGBAColor(rgb: 0xF8F4F0)`.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }

    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    public var isOpaque: Bool { alpha == 255 }

    /// `#rrggbbaa`.
    public var description: String {
        let hex = [red, green, blue, alpha].map { byte -> String in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + hex.joined()
    }
}
