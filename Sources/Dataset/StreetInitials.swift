/// Street initialisms derived from the data at import ("cach mang thang tam" → "cmtt" and
/// "cmt8", "nam ky khoi nghia" → "nkkn"), stored in `meta.street_initials` for search.
/// Names of three or more words, not starting with a generic word (hẻm, đường, cầu …), all words
/// starting with a letter; a number word at the end also gives the digit form. An initialism
/// shared by several streets names the one with the most rows (the longest).
public enum StreetInitials {
    static let digitWords: [String: String] = [
        "mot": "1", "hai": "2", "ba": "3", "tu": "4", "bon": "4", "nam": "5", "sau": "6", "bay": "7", "tam": "8", "chin": "9", "muoi": "10",
    ]
    static let genericStarts: Set<String> = ["hem", "duong", "ngo", "ngach", "kiet", "cau", "pho", "kenh", "rach"]

    /// - Parameter streetRows: folded street name → number of street places of that name.
    /// - Returns: initialism → folded street name.
    public static func derive(_ streetRows: [String: Int]) -> [String: String] {
        var best: [String: (String, Int)] = [:]
        for (name, rows) in streetRows.sorted(by: { $0.key < $1.key }) {
            let words = name.split(separator: " ").map(String.init)
            guard words.count >= 3, let first = words.first, !genericStarts.contains(first),
                  words.allSatisfy({ $0.first?.isLetter == true }) else { continue }
            let letters = words.map { String($0.first!) }
            var forms = [letters.joined()]
            if let digit = digitWords[words.last!] { forms.append(letters.dropLast().joined() + digit) }
            for form in forms where best[form].map({ $0.1 < rows }) ?? true { best[form] = (name, rows) }
        }
        return best.mapValues(\.0)
    }
}
