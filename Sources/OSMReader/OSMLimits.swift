/// What an OpenStreetMap element may hold, as OpenStreetMap itself allows it (API 0.6
/// capabilities and database columns), enforced by `OSMReader`: an element beyond these limits
/// is refused (`OSMReadError.refusedElement`, naming the element) instead of being decoded —
/// a hostile file cannot make one element cost unbounded memory, and a coordinate that no
/// place on Earth has never reaches code that converts it to an integer.
public enum OSMLimits {
    /// Nodes a way may name (`waynodes maximum="2000"`).
    public static let maxWayNodes = 2_000
    /// Members a relation may have (`relationmembers maximum="32000"`).
    public static let maxRelationMembers = 32_000
    /// Characters (Unicode scalars) of a tag key, a tag value, a member role or a PBF string
    /// table entry (OpenStreetMap stores them in 255-character columns).
    public static let maxStringCharacters = 255
    /// Tags one element may carry. OpenStreetMap has no limit of its own; no real element comes
    /// near this (the most are a few hundred: `name:xx` in every language).
    public static let maxTags = 5_000

    /// Why a latitude/longitude in degrees is refused, or nil when it lies on Earth
    /// (−90…90, −180…180, finite).
    static func coordinateProblem(lat: Double, lon: Double) -> String? {
        guard lat.isFinite, lat >= -90, lat <= 90 else { return "has latitude \(lat), outside -90…90" }
        guard lon.isFinite, lon >= -180, lon <= 180 else { return "has longitude \(lon), outside -180…180" }
        return nil
    }

    /// Why a string is refused (too many characters), or nil: "has a tag value of 300 characters; …"
    /// (`what` nil: "has 300 characters; …"). O(1) for strings of at most 255 UTF-8 bytes, the common case.
    static func stringProblem(_ string: String, what: String?) -> String? {
        let bytes = string.utf8.count
        guard bytes > maxStringCharacters else { return nil }
        // More than 4 × 255 bytes is more than 255 scalars without counting them.
        let characters = bytes > 4 * maxStringCharacters ? nil : string.unicodeScalars.count
        if let characters, characters <= maxStringCharacters { return nil }
        let size = characters.map { "\($0) characters" } ?? "\(bytes) bytes"
        return "has \(what.map { "\($0) of " } ?? "")\(size); OpenStreetMap allows at most \(maxStringCharacters) characters"
    }

    /// "has 2001 nodes; OpenStreetMap allows at most 2000" (`count` nil: more than `limit`).
    static func tooMany(_ count: Int?, _ what: String, limit: Int, by whom: String = "OpenStreetMap allows") -> String {
        "has \(count.map(String.init) ?? "more than \(limit)") \(what); \(whom) at most \(limit)"
    }
}
