/// One block of 256 Unicode code points as a glyph URL names it (`0-255`, `256-511`, …,
/// `65280-65535`): MapLibre asks glyphs of the Basic Multilingual Plane range by range.
public struct GlyphRange: Hashable, Sendable, CustomStringConvertible {
    /// The first code point: a multiple of 256.
    public let start: UInt32
    /// The last code point: `start + 255`.
    public var end: UInt32 { start + 255 }
    /// Every code point of the range.
    public var codePoints: ClosedRange<UInt32> { start...end }

    /// Why a text is not a glyph range.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        /// Not two decimal numbers joined by `-`.
        case notARange(String)
        /// Two numbers, but not `256·k` to `256·k + 255` within 0…65535.
        case notABlock(String)

        public var description: String {
            switch self {
            case .notARange(let text): return "\(text) is not a glyph range like 0-255"
            case .notABlock(let text): return "\(text) is not a glyph range: it must start at a multiple of 256, end 255 later and stay within 0-65535"
            }
        }
    }

    /// The range starting at `start`, or nil unless `start` is a multiple of 256 below 65536.
    public init?(start: UInt32) {
        guard start % 256 == 0, start <= 65280 else { return nil }
        self.start = start
    }

    /// The range containing `codePoint`, or nil beyond the Basic Multilingual Plane.
    public init?(containing codePoint: UInt32) {
        self.init(start: codePoint & ~0xFF)
    }

    /// Parses `"START-END"` (ASCII digits only, at most 5 each): START a multiple of 256,
    /// END = START + 255 ≤ 65535.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.number(parts[0]), let end = Self.number(parts[1]) else { throw .notARange(text) }
        guard let range = GlyphRange(start: start), end == range.end else { throw .notABlock(text) }
        self = range
    }

    private static func number(_ digits: Substring) -> UInt32? {
        guard (1...5).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt32(digits)
    }

    /// `START-END`, as in the URL and in the PBF's `range` field.
    public var description: String { "\(start)-\(end)" }
}
