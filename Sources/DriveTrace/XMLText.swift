import Foundation
/// Escaping of text and attribute values for the XML formats (GPX, KML).
enum XMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// Degrees with 7 decimals (≈ 1 cm), the precision of the road graph.
    static func degrees(_ value: Double) -> String {
        String(format: "%.7f", value == 0 ? 0 : value)
    }
}
