/// Street initialisms derived from the data at import ("cach mang thang tam" → "cmtt" and
/// "cmt8", "nam ky khoi nghia" → "nkkn") and their stored form, `meta.street_initials`:
/// "initials=folded street name" pairs joined by ";". The importer writes it, search reads it.
/// Names of three or more words, not starting with a generic word (hẻm, đường, cầu …), all words
/// starting with a letter; a number word at the end also gives the digit form. An initialism
/// shared by several streets names the one with the most rows (the longest).
public struct StreetInitials: Sendable {
    static let digitWords: [String: String] = [
        "mot": "1", "hai": "2", "ba": "3", "tu": "4", "bon": "4", "nam": "5", "sau": "6", "bay": "7", "tam": "8", "chin": "9", "muoi": "10",
    ]
    static let genericStarts: Set<String> = ["hem", "duong", "ngo", "ngach", "kiet", "cau", "pho", "kenh", "rach"]

    /// Initialism → folded street name.
    public let map: [String: String]

    /// - Parameter streetRows: folded street name → number of street places of that name.
    public init(deriving streetRows: [String: Int]) {
        var best: [String: (String, Int)] = [:]
        for (name, rows) in streetRows.sorted(by: { $0.key < $1.key }) {
            let words = name.split(separator: " ").map(String.init)
            guard words.count >= 3, let first = words.first, !Self.genericStarts.contains(first),
                  words.allSatisfy({ $0.first?.isLetter == true }) else { continue }
            let letters = words.map { String($0.first!) }
            var forms = [letters.joined()]
            if let digit = Self.digitWords[words.last!] { forms.append(letters.dropLast().joined() + digit) }
            for form in forms where best[form].map({ $0.1 < rows }) ?? true { best[form] = (name, rows) }
        }
        map = best.mapValues(\.0)
    }

    /// - Parameter stored: "initials=folded street name" pairs joined by ";".
    public init(stored: String) {
        var map: [String: String] = [:]
        for pair in stored.split(separator: ";") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            map[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        self.map = map
    }

    /// The stored form, pairs sorted by initialism.
    public var stored: String {
        map.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    }

    func streets(for word: String) -> [String] {
        map[word].map { [$0] } ?? []
    }
}
