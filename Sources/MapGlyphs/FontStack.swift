import Foundation

/// A MapLibre font stack as its glyph URL names it (`{fontstack}` in `…/{fontstack}/{range}.pbf`):
/// the font names in order of preference. MapLibre joins them with commas and percent-encodes the
/// segment (`Roboto%20Regular%2cRoboto%20Medium`).
public struct FontStack: Hashable, Sendable, CustomStringConvertible {
    /// The font names, trimmed, in order of preference; never empty, at most `maximumFonts`.
    public let fonts: [String]

    /// The most fonts a stack may name (styles name one to three).
    public static let maximumFonts = 6
    /// The longest font name accepted, in characters.
    public static let maximumNameLength = 128

    /// Why a path segment is not a font stack.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        /// The percent-encoding is broken (`%zz`, a cut `%2`, or bytes that are not UTF-8).
        case badPercentEncoding(String)
        /// An empty name: an empty segment, or `A,,B`, or a name of spaces only.
        case emptyFontName
        /// More than `maximumFonts` names.
        case tooManyFonts(Int)
        /// A name longer than `maximumNameLength`.
        case fontNameTooLong(Int)

        public var description: String {
            switch self {
            case .badPercentEncoding(let segment): return "the font stack \(segment) is not valid percent-encoded UTF-8"
            case .emptyFontName: return "the font stack names an empty font"
            case .tooManyFonts(let count): return "the font stack names \(count) fonts; at most \(FontStack.maximumFonts) are allowed"
            case .fontNameTooLong(let length): return "a font name of the stack has \(length) characters; at most \(FontStack.maximumNameLength) are allowed"
            }
        }
    }

    /// The stack of these names (trimmed); throws like `init(pathSegment:)` on empty or too many names.
    public init(fonts: [String]) throws(ParseError) {
        let trimmed = fonts.map { $0.trimmingCharacters(in: .whitespaces) }
        guard trimmed.count <= Self.maximumFonts else { throw .tooManyFonts(trimmed.count) }
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isEmpty) else { throw .emptyFontName }
        if let long = trimmed.first(where: { $0.count > Self.maximumNameLength }) { throw .fontNameTooLong(long.count) }
        self.fonts = trimmed
    }

    /// Parses a URL path segment as MapLibre sends it: percent-decoded, split on commas, each name
    /// trimmed of spaces (`Roboto%20Regular%2cRoboto%20Medium` → `["Roboto Regular", "Roboto Medium"]`).
    /// An already-decoded segment (`Roboto Regular,Roboto Medium`) parses the same.
    public init(pathSegment: String) throws(ParseError) {
        guard let decoded = pathSegment.removingPercentEncoding else { throw .badPercentEncoding(pathSegment) }
        try self.init(fonts: decoded.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// The names joined by ", ": the fontstack name a glyph PBF carries.
    public var name: String { fonts.joined(separator: ", ") }

    public var description: String { name }
}
