import TextFolding

/// A Vietnamese road name split the way VietMap's tiles carry it: `prefix` (the kind of way — Đường, Phố,
/// Cầu, Hầm, Hẻm, Quốc lộ …) and `name` (the rest), plus `routeno` for numbered routes ("Quốc lộ 1A" →
/// "QL.1A"). VietMap's style labels Đường/Phố roads with `{name}` alone and the others with `{prefix} {name}`.
///
/// Prefixes are matched on whole leading words, case-insensitively, with their accents ("Hàm Nghi" is no
/// Hầm); unaccented spellings ("Hem 12", "Duong so 5") count only in names written without any accent. A named
/// road without a known prefix is a Đường ("Lê Lợi" → Đường + Lê Lợi), as street names in the cities are
/// written without it. An empty name gives empty parts.
public struct StreetNameParts: Sendable, Equatable {
    public var prefix: String
    public var name: String
    /// "QL.1A", "TL.10", "HL.2", "ĐT.741" for Quốc lộ/Tỉnh lộ/Hương lộ/Đường tỉnh names ending in a route number;
    /// nil otherwise.
    public var routeNumber: String?

    public init(prefix: String, name: String, routeNumber: String? = nil) {
        self.prefix = prefix; self.name = name; self.routeNumber = routeNumber
    }

    /// Canonical prefixes (longest first within a shared first word), their accepted unaccented spellings and the
    /// route-number abbreviation where they number routes.
    static let prefixes: [(canonical: String, unaccented: String?, route: String?)] = [
        ("Quốc lộ", "quoc lo", "QL"), ("Tỉnh lộ", "tinh lo", "TL"), ("Hương lộ", "huong lo", "HL"),
        ("Đường tỉnh", nil, "ĐT"), ("Đường cao tốc", "duong cao toc", nil), ("Cao tốc", "cao toc", nil),
        ("Xa lộ", "xa lo", nil), ("Đại lộ", "dai lo", nil), ("Đường", "duong", nil), ("Phố", "pho", nil),
        ("Cầu vượt", "cau vuot", nil), ("Cầu", "cau", nil), ("Hầm", nil, nil), ("Hẻm", "hem", nil), ("Ngõ", "ngo", nil),
        ("Ngách", "ngach", nil), ("Kiệt", "kiet", nil), ("Phà", "pha", nil), ("Vòng xoay", "vong xoay", nil),
    ]

    /// The prefixes of alleys (VietMap's roadclass 9 for small roads).
    public static let alleyPrefixes: Set<String> = ["Hẻm", "Ngõ", "Ngách", "Kiệt"]

    /// Prefixes whose roads VietMap labels with the name alone.
    public static let nameOnlyPrefixes: Set<String> = ["Đường", "Phố"]

    public init(roadName raw: String) {
        let text = raw.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !text.isEmpty else { self.init(prefix: "", name: ""); return }
        let words = text.split(separator: " ")
        let lowerWords = words.map { $0.lowercased() }
        let unaccented = !TextFolding.hasAccents(text)
        for entry in Self.prefixes {
            let forms = [entry.canonical.lowercased()] + (unaccented ? entry.unaccented.map { [$0] } ?? [] : [])
            for form in forms {
                let prefixWords = form.split(separator: " ").map(String.init)
                guard words.count > prefixWords.count, Array(lowerWords.prefix(prefixWords.count)) == prefixWords else { continue }
                let rest = words.dropFirst(prefixWords.count).joined(separator: " ")
                var route: String?
                if let abbreviation = entry.route, words.count == prefixWords.count + 1,
                   rest.first?.isNumber == true, rest.count <= 6 {
                    route = abbreviation + "." + rest.uppercased()
                }
                self.init(prefix: entry.canonical, name: rest, routeNumber: route)
                return
            }
        }
        self.init(prefix: "Đường", name: text)
    }

    /// The label VietMap's style shows: the name alone for Đường/Phố, else prefix and name.
    public var label: String {
        if name.isEmpty { return "" }
        return prefix.isEmpty || Self.nameOnlyPrefixes.contains(prefix) ? name : prefix + " " + name
    }
}
