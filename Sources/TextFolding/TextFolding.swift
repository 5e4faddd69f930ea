import Foundation

/// Text normalisation shared by the importer (what gets indexed) and search (what gets asked),
/// so both sides fold Vietnamese text the same way.
///
/// - `clean(_:)` is for text we show: NFC, `Ð` (U+00D0) / `ð` repaired to `Đ` / `đ`, whitespace collapsed.
/// - `fold(_:)` is for text we match: no diacritics (tone and vowel marks), `đ`/`Đ`/`Ð` → `d`,
///   lower case, every run of non-alphanumerics → one space, a word-final "y" after a consonant
///   → "i" (the i/y spelling variants "Sỹ"/"Sĩ", "Lý"/"Lí"). Both tone placements ("Hòa"/"Hoà")
///   and unaccented spellings fold to the same key.
public enum TextFolding {
    /// Display-safe form: NFC, ETH repaired to D-stroke, single spaces, trimmed.
    public static func clean(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" "); pendingSpace = false }
            switch scalar.value {
            case 0x00D0: result.append("\u{0110}")  // Ð (Latin ETH) used for Đ
            case 0x00F0: result.append("\u{0111}")  // ð used for đ
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Matching key: ASCII-ish lower case without diacritics, words separated by single spaces.
    public static func fold(_ text: String) -> String {
        foldASCII(text) ?? foldScalars(text)
    }

    /// `fold` by Unicode scalars (any text).
    static func foldScalars(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            let v = scalar.value
            if (0x0300...0x036F).contains(v) { continue }  // combining marks: tones, breve, circumflex, horn
            let mapped: Unicode.Scalar?
            switch v {
            case 0x0110, 0x0111, 0x00D0, 0x00F0: mapped = "d"
            case 0x41...0x5A: mapped = Unicode.Scalar(v + 32)
            case 0x61...0x7A, 0x30...0x39: mapped = scalar
            default:
                if v < 0x80 {
                    mapped = nil
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    mapped = scalar.properties.lowercaseMapping.unicodeScalars.first
                } else {
                    mapped = nil
                }
            }
            if let m = mapped {
                if pendingSpace { Self.unifyFinalY(&out); out.append(" "); pendingSpace = false }
                out.append(m)
            } else {
                pendingSpace = !out.isEmpty
            }
        }
        Self.unifyFinalY(&out)
        return String(out)
    }

    /// `fold` of an ASCII-only text (what most typed queries are), without Unicode normalisation;
    /// `nil` for any other text.
    private static func foldASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                let mapped: UInt8
                switch byte {
                case 0x41...0x5A: mapped = byte + 32
                case 0x61...0x7A, 0x30...0x39: mapped = byte
                default:
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace { unifyFinalY(&out); out.append(0x20); pendingSpace = false }
                out.append(mapped)
            }
            unifyFinalY(&out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `unifyFinalY` on ASCII bytes.
    private static func unifyFinalY(_ out: inout [UInt8]) {
        guard out.count >= 2, out[out.count - 1] == UInt8(ascii: "y"), iyConsonants.contains(UInt32(out[out.count - 2])) else { return }
        out[out.count - 1] = UInt8(ascii: "i")
    }

    /// Consonants after which a word-final "y" and "i" are spelling variants ("Sỹ"/"Sĩ",
    /// "Lý"/"Lí", "Kỹ"/"Kĩ", "Mỹ"/"Mĩ"): both fold to "i". After a vowel ("Thủy", "Hay") "y" stays.
    private static let iyConsonants: Set<UInt32> = Set("bcdghklmnpqrstvx".unicodeScalars.map(\.value))

    /// Replaces the last word's final "y" by "i" when a consonant precedes it.
    private static func unifyFinalY(_ out: inout String.UnicodeScalarView) {
        guard out.count >= 2, out.last == "y" else { return }
        let before = out[out.index(out.endIndex, offsetBy: -2)]
        guard iyConsonants.contains(before.value) else { return }
        out.removeLast()
        out.append("i")
    }

    /// The folded words of `text`.
    public static func tokens(_ text: String) -> [Substring] {
        let folded = fold(text)
        return folded.split(separator: " ")
    }

    /// The words of `text` with every accent kept, lower case, each word's tone mark moved to its
    /// end (so both tone placements meet: "Hòa" = "Hoà"), `Ð`/`đ` as `đ`: "Phạm Vấn" →
    /// ["pham\u{0323}", "vân\u{0301}"] (decomposed). Vowel marks (ă â ê ô ơ ư) stay where they are:
    /// "Văn" and "Vấn" differ. For telling apart names that `fold` merges.
    public static func accentedWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView(), tones = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { word.append(contentsOf: tones); words.append(String(word)) }
            word = String.UnicodeScalarView(); tones = String.UnicodeScalarView()
        }
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x0300, 0x0301, 0x0303, 0x0309, 0x0323: tones.append(scalar)  // grave, acute, tilde, hook, dot below
            case 0x00D0, 0x00F0, 0x0110: word.append("\u{0111}")
            default:
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || (0x0300...0x036F).contains(scalar.value) {
                    word.append(scalar)
                } else {
                    flush()
                }
            }
        }
        flush()
        return words
    }

    /// Whether the text has a letter with an accent (a tone or vowel mark, or `đ`), composed or not.
    public static func hasAccents(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value >= 0xC0 && $0.properties.isAlphabetic) || (0x0300...0x036F).contains($0.value) }
    }
}
