import JSON

/// The reverse-geocoding checks of `SemanticChecks`: what the live examples show of reverse
/// answers (reference §5.1) — items echo the query point, display_type 4 pairs the formats.
enum ReverseChecks {
    static func run(_ check: SemanticCheck, _ body: JSONValue, parameters: [(name: String, value: String)]) -> [(String, String)] {
        guard let items = body.arrayValue else { return [("", "expected an array of items, got \(body.typeName)")] }
        switch check {
        case .reverseEchoesPoint:
            guard !items.isEmpty else { return [("", "no item (expected the places near the point)")] }
            guard let lat = SemanticChecks.value(["lat"], in: parameters).flatMap(Double.init),
                  let lng = SemanticChecks.value(["lng", "lon"], in: parameters).flatMap(Double.init) else {
                return [("", "cannot check: the request has no numeric lat/lng")]
            }
            var out: [(String, String)] = []
            func check(_ item: JSONValue, at pointer: String) {
                for (key, expected) in [("lat", lat), ("lng", lng)] {
                    guard let actual = item[key]?.doubleValue else {
                        out.append(("\(pointer)/\(key)", "no numeric \(key)"))
                        continue
                    }
                    if abs(actual - expected) > 1e-9 { out.append(("\(pointer)/\(key)", "\(key) \(actual), the request's is \(expected)")) }
                }
            }
            for (i, item) in items.enumerated() {
                check(item, at: "/\(i)")
                for key in ["data_old", "data_new"] {
                    if let variant = item[key], case .object = variant { check(variant, at: "/\(i)/\(key)") }
                }
            }
            return out
        case .bothFormats:
            guard !items.isEmpty else { return [("", "no item to check")] }
            guard items.count.isMultiple(of: 2) else { return [("", "\(items.count) items: expected pairs (new, old) per place")] }
            var out: [(String, String)] = []
            for pair in stride(from: 0, to: items.count, by: 2) {
                if SemanticChecks.boundaryTypesOf(items[pair]).contains(1) {
                    out.append(("/\(pair)/boundaries", "the first item of a pair has a district (type 1) boundary (expected the new format)"))
                }
                let old = SemanticChecks.boundaryTypesOf(items[pair + 1])
                if !old.contains(1) && old.count > 1 {
                    out.append(("/\(pair + 1)/boundaries", "the second item of a pair has no district boundary (expected the old format)"))
                }
            }
            return out
        default:
            return []
        }
    }
}
