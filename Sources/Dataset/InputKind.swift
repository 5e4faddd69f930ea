import Foundation

/// What an import input contains, detected from its content (never its file name).
public enum InputKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Places CSV with `name, category, lat, lng, ward2025_code…` (optionally old codes).
    case poiCSV
    /// Streets CSV with `name, highway, rep_lat, rep_lng, ward2025_code…`.
    case streetCSV
    /// Address points CSV with `housenumber, street, lat, lng, ward2025_code…`.
    case addressCSV
    /// Centroid/bbox CSV of the 2025 units: `code, level, centroid_lat, centroid_lng, bbox_*`.
    case centroidCSV
    /// The 2025 units: `[{Code, Name, FullName, Wards: [...]}]`.
    case units2025JSON
    /// The pre-2025 units: `[{Code, Name, FullName, District: [{…, Ward: [...]}]}]`.
    case unitsPre2025JSON
    /// Old ward → new ward(s): `{"data": [{level1_id, splits, level3s: [{level3_id, splits}]}]}`.
    case mappingOldToNewJSON
    /// New ward → old wards: `{"data": [{level1_id, merges, level2s: [{level2_id, merges}]}]}`.
    case mappingNewToOldJSON
    /// OpenStreetMap XML (`<osm …>` root).
    case osmXML
    /// OpenStreetMap PBF (accepted, not imported yet).
    case osmPBF

    public var description: String {
        switch self {
        case .poiCSV: return "POI CSV"
        case .streetCSV: return "street CSV"
        case .addressCSV: return "address-point CSV"
        case .centroidCSV: return "unit centroid CSV"
        case .units2025JSON: return "2025 units JSON"
        case .unitsPre2025JSON: return "pre-2025 units JSON"
        case .mappingOldToNewJSON: return "old→new mapping JSON"
        case .mappingNewToOldJSON: return "new→old mapping JSON"
        case .osmXML: return "OSM XML"
        case .osmPBF: return "OSM PBF"
        }
    }

    /// Required header columns of each CSV kind.
    static let csvColumns: [(InputKind, Set<String>)] = [
        (.poiCSV, ["osm_type", "osm_id", "name", "category", "lat", "lng", "ward2025_code", "province2025_code"]),
        (.streetCSV, ["name", "highway", "rep_lat", "rep_lng", "ward2025_code", "province2025_code"]),
        (.addressCSV, ["osm_type", "osm_id", "housenumber", "street", "lat", "lng", "ward2025_code", "province2025_code"]),
        (.centroidCSV, ["code", "level", "centroid_lat", "centroid_lng", "bbox_min_lng", "bbox_min_lat", "bbox_max_lng", "bbox_max_lat"]),
    ]

    /// Detects the kind of `url` from its first bytes.
    /// - Throws: ``DatasetError`` `.missingInput` if it does not exist, `.unrecognisedInput`
    ///   if its content matches no known kind.
    public static func detect(_ url: URL) throws -> InputKind {
        // Before opening: a FIFO would block the open, a device never ends.
        if let problem = InputFile.problem(atPath: url.path) {
            throw problem == "no such file" ? DatasetError.missing(url) : DatasetError(.unrecognisedInput, file: url.path, problem)
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw DatasetError(.missingInput, file: url.path, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 1 << 16)) ?? Data())
        if let kind = detect(head: head) { return kind }
        if head.isEmpty { throw DatasetError(.unrecognisedInput, file: url.lastPathComponent, "empty file") }
        throw DatasetError(.unrecognisedInput, file: url.lastPathComponent,
                           "unrecognised input: not a POI/street/address/centroid CSV, an admin-unit or mapping JSON, or OSM XML/PBF")
    }

    static func detect(head: [UInt8]) -> InputKind? {
        // OSM PBF: 4-byte big-endian BlobHeader length, then field 1 (type) = "OSMHeader".
        let osmHeader = Array("OSMHeader".utf8)
        if head.count >= 15, head[4] == 0x0A, head[5] == UInt8(osmHeader.count),
           Array(head[6..<15]) == osmHeader {
            return .osmPBF
        }
        var start = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { start = 3 }
        while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        guard start < head.count else { return nil }
        let text = String(decoding: head[start...], as: UTF8.self)
        switch head[start] {
        case UInt8(ascii: "<"):
            // The root element must be <osm ...>; skip the XML declaration and comments.
            return isOSMRoot(text) ? .osmXML : nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let markers: [(String, InputKind)] = [
                ("\"Wards\"", .units2025JSON), ("\"District\"", .unitsPre2025JSON),
                ("\"level2s\"", .mappingNewToOldJSON), ("\"level3s\"", .mappingOldToNewJSON),
            ]
            var best: (String.Index, InputKind)?
            for (marker, kind) in markers {
                if let range = text.range(of: marker), best == nil || range.lowerBound < best!.0 {
                    best = (range.lowerBound, kind)
                }
            }
            return best?.1
        default:
            let reader = CSVReader(data: Data(head), name: "")
            guard let header = try? reader.next() else { return nil }
            let columns = Set(header.map { $0.trimmingCharacters(in: .whitespaces) })
            for (kind, required) in csvColumns where required.isSubset(of: columns) { return kind }
            return nil
        }
    }

    /// True if the first element (after `<?xml …?>`, comments and a DOCTYPE) is `<osm`.
    private static func isOSMRoot(_ text: String) -> Bool {
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return false }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return false }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                guard let end = rest.firstIndex(of: ">") else { return false }
                rest = rest[rest.index(after: end)...]
            } else {
                guard rest.hasPrefix("<osm") else { return false }
                let after = rest.dropFirst(4).first
                return after == nil || after == ">" || after!.isWhitespace || after == "/"
            }
        }
    }
}
