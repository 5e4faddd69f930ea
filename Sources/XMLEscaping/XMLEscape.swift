/// Text safe inside XML 1.0 elements and attribute values: the five predefined entities (`&amp;`
/// `&lt;` `&gt;` `&quot;` `&apos;`), and U+FFFD for the characters XML 1.0 cannot carry (controls
/// other than tab, line feed and carriage return; U+FFFE, U+FFFF). The one XML escaper: JUnit reports,
/// GPX and KML traces, SSML announcements.
public func xmlEscape(_ text: String) -> String {
    // Most text needs no escaping: skip the rebuild.
    if !text.unicodeScalars.contains(where: needsEscaping) { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
        default:
            if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                out += "\u{FFFD}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

private func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&", "<", ">", "\"", "'": return true
    case "\t", "\n", "\r": return false
    default: return scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value)
    }
}
